#include "hopsim/core/multibody_system.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "hopsim/core/multibody/coordinate_units.h"
#include "hopsim/core/multibody/energy.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/frames.h"
#include "hopsim/core/multibody/hinge_forces.h"
#include "hopsim/core/multibody/hybrid_dynamics.h"
#include "hopsim/core/multibody/qdot.h"
#include "hopsim/core/state_vector.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim {

using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialForce;
using spatial::SpatialMotion;
using spatial::Vector3;

namespace {

/// A body's hinge coordinates or rates as a variable: a slice of the system Q or U, with the
/// unit of each element (coordinate_units.h).
class CoordinateVariable final : public Variable {
 public:
  CoordinateVariable(Buffer& buffer, std::size_t offset, std::vector<std::string> units,
                     std::string description)
      : buffer_(&buffer),
        offset_(offset),
        length_(units.size()),
        units_(std::move(units)),
        description_(std::move(description)) {}
  ElementType type() const override { return ElementType::Double; }
  std::size_t length() const override { return length_; }
  Value get() const override { return buffer_->get(offset_, length_); }
  double element(std::size_t i) const override {
    if (i >= length_) return Variable::element(i);  // the base names the bad index
    return buffer_->element(offset_ + i);
  }
  void set(const Value& value, std::string_view path) override {
    buffer_->set(offset_, length_, value, path);
  }
  /// The unit of every element when they share one ("rad" for a PIN's Q), else "".
  std::string unit() const override {
    const bool shared = std::all_of(units_.begin(), units_.end(),
                                    [&](const std::string& u) { return u == units_.front(); });
    return shared && !units_.empty() ? units_.front() : std::string();
  }
  std::string elementUnit(std::size_t i) const override {
    return i < length_ ? units_[i] : std::string();
  }
  std::string description() const override { return description_; }

 private:
  Buffer* buffer_;
  std::size_t offset_;
  std::size_t length_;
  std::vector<std::string> units_;
  std::string description_;
};

/// A read-only quantity computed from Q and U (energies, momenta, poses and velocities):
/// `compute(i)` gives element i, from the system's cached evaluation at the current state.
class ComputedVariable final : public Variable {
 public:
  using Compute = std::function<double(std::size_t)>;
  ComputedVariable(std::size_t length, Compute compute, std::string unit, std::string description)
      : length_(length),
        compute_(std::move(compute)),
        unit_(std::move(unit)),
        description_(std::move(description)) {}
  ElementType type() const override { return ElementType::Double; }
  std::size_t length() const override { return length_; }
  Value get() const override {
    if (length_ == 1) return compute_(0);
    std::vector<double> values(length_);
    for (std::size_t i = 0; i < length_; ++i) values[i] = compute_(i);
    return values;
  }
  double element(std::size_t i) const override {
    if (i >= length_) return Variable::element(i);  // the base names the bad index
    return compute_(i);
  }
  bool writable() const override { return false; }
  void set(const Value&, std::string_view path) override {
    throw InputError("variable '" + std::string(path) +
                     "' is computed from the coordinates and read-only; set multibody.Q or "
                     "multibody.U instead");
  }
  std::string unit() const override { return unit_; }
  std::string description() const override { return description_; }

 private:
  std::size_t length_;
  Compute compute_;
  std::string unit_;
  std::string description_;
};

Eigen::Map<Eigen::VectorXd> view(Buffer& b) {
  return {b.doubles(), static_cast<Eigen::Index>(b.length())};
}
Eigen::Map<const Eigen::VectorXd> view(const Buffer& b) {
  return {b.doubles(), static_cast<Eigen::Index>(b.length())};
}

}  // namespace

MultibodySystem::MultibodySystem() : data_(std::make_unique<multibody::MultibodyData>(model_)) {}

MultibodySystem::~MultibodySystem() = default;

multibody::MultibodyModel& MultibodySystem::editModel() {
  if (locked_) {
    throw ModelError(
        "multibody: the tree cannot change while the simulation is locked; call "
        "unlock() first (mass properties and gravity may change at any time)");
  }
  return model_;
}

void MultibodySystem::setMassProperties(BodyIndex b, const spatial::SpatialInertia& M_BBo_B) {
  model_.setMassProperties(b, M_BBo_B);
}

void MultibodySystem::setMasked(BodyIndex b, int subhinge, bool masked) {
  if (locked_) {
    throw ModelError("multibody setMasked: the simulation is locked; call unlock() first");
  }
  model_.checkBody(b, "multibody setMasked");
  if (subhinge == -1) {
    model_.setPrescribed(b, masked);
  } else {
    model_.setPrescribed(b, subhinge, masked);  // validates the subhinge index
  }
  const std::string& body = model_.bodyName(b);
  std::erase_if(masks_, [&](const auto& m) {
    return m.first == body && (subhinge == -1 || m.second == subhinge || m.second == -1);
  });
  if (masked) masks_.emplace_back(body, subhinge);
}

multibody::ConstraintSet& MultibodySystem::editConstraints() {
  if (locked_) {
    throw ModelError(
        "multibody: constraints cannot change while the simulation is locked; call "
        "unlock() first");
  }
  if (constraints_.size() == 0 && constraints_.bodyCount() != model_.bodyCount()) {
    constraints_ = multibody::ConstraintSet(model_);
  }
  return constraints_;
}

void MultibodySystem::clearConstraints() {
  if (locked_) {
    throw ModelError("multibody clearConstraints: the simulation is locked; call unlock() first");
  }
  constraints_ = multibody::ConstraintSet(model_);
}

void MultibodySystem::setProjection(double positionTolerance, double velocityTolerance,
                                    int maxIterations) {
  const auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!positive(positionTolerance) || !positive(velocityTolerance) || maxIterations < 1) {
    throw InputError("multibody setProjection: tolerances " + std::to_string(positionTolerance) +
                     " and " + std::to_string(velocityTolerance) + ", " +
                     std::to_string(maxIterations) +
                     " iterations (expected finite positive tolerances and at least 1 iteration)");
  }
  positionTolerance_ = positionTolerance;
  velocityTolerance_ = velocityTolerance;
  projectionIterations_ = maxIterations;
}

const multibody::ConstraintData& MultibodySystem::constraintData() const {
  if (!constraintData_) {
    throw ModelError(
        "multibody constraintData: there are no constraints (or the simulation was "
        "not locked since they were added)");
  }
  return *constraintData_;
}

// ---- coordinates ----------------------------------------------------------------------------

bool MultibodySystem::layoutCurrent() const {
  if (static_cast<int>(layout_.size()) != model_.bodyCount() - 1) return false;
  for (BodyIndex b = 1; b < model_.bodyCount(); ++b) {
    const LayoutEntry& e = layout_[static_cast<std::size_t>(b - 1)];
    if (e.body != model_.bodyName(b) || e.hinge != model_.hinge(b).type() ||
        e.qStart != model_.qStart(b) || e.uStart != model_.uStart(b)) {
      return false;
    }
  }
  return true;
}

void MultibodySystem::checkLayoutCurrent(const char* what) const {
  if (!layoutCurrent()) {
    throw ModelError(std::string("multibody ") + what +
                     ": the tree changed since Q and U were sized; lock() the simulation or use "
                     "the non-const accessor, which resizes them");
  }
}

void MultibodySystem::syncLayout() {
  if (layoutCurrent()) return;
  const int n = model_.bodyCount();
  Buffer q(ElementType::Double, static_cast<std::size_t>(model_.nq()));
  Buffer u(ElementType::Double, static_cast<std::size_t>(model_.nu()));
  view(q) = model_.neutralConfiguration();
  view(u).setZero();
  std::vector<LayoutEntry> layout;
  for (BodyIndex b = 1; b < n; ++b) {
    const multibody::Hinge& h = model_.hinge(b);
    LayoutEntry entry{model_.bodyName(b), h.type(), model_.qStart(b), h.nq(),
                      model_.uStart(b),   h.nu()};
    // Values carry over by name when the hinge is the same kind.
    const auto old = std::find_if(layout_.begin(), layout_.end(), [&](const LayoutEntry& e) {
      return e.body == entry.body && e.hinge == entry.hinge;
    });
    if (old != layout_.end()) {
      std::copy_n(q_.doubles() + old->qStart, entry.nq, q.doubles() + entry.qStart);
      std::copy_n(u_.doubles() + old->uStart, entry.nu, u.doubles() + entry.uStart);
    }
    layout.push_back(std::move(entry));
  }
  q_ = std::move(q);
  u_ = std::move(u);
  qdot_ = Buffer(ElementType::Double, q_.length());
  udot_ = Buffer(ElementType::Double, u_.length());
  view(qdot_).setZero();
  view(udot_).setZero();
  layout_ = std::move(layout);
  tau_.setZero(model_.nu());
  udotPrescribed_.setZero(model_.nu());
  forces_.assign(static_cast<std::size_t>(n), SpatialForce());
  loads_.assign(static_cast<std::size_t>(n), SpatialForce());
  hingeForces_.assign(static_cast<std::size_t>(n), SpatialForce());
}

Eigen::Map<Eigen::VectorXd> MultibodySystem::q() {
  if (!locked_) syncLayout();
  return view(q_);
}
Eigen::Map<Eigen::VectorXd> MultibodySystem::u() {
  if (!locked_) syncLayout();
  return view(u_);
}
Eigen::Map<const Eigen::VectorXd> MultibodySystem::q() const {
  checkLayoutCurrent("q()");
  return view(q_);
}
Eigen::Map<const Eigen::VectorXd> MultibodySystem::u() const {
  checkLayoutCurrent("u()");
  return view(u_);
}
Eigen::Map<Eigen::VectorXd> MultibodySystem::q(BodyIndex b) {
  model_.checkBody(b, "multibody q(body)");
  return {q().data() + model_.qStart(b), model_.hinge(b).nq()};
}
Eigen::Map<Eigen::VectorXd> MultibodySystem::u(BodyIndex b) {
  model_.checkBody(b, "multibody u(body)");
  return {u().data() + model_.uStart(b), model_.hinge(b).nu()};
}
Eigen::Map<const Eigen::VectorXd> MultibodySystem::qdot() const { return view(qdot_); }
Eigen::Map<const Eigen::VectorXd> MultibodySystem::udot() const { return view(udot_); }

// ---- executive hooks ------------------------------------------------------------------------

void MultibodySystem::prepare(VariableTree& variables) {
  syncLayout();
  // Rebuilt at every lock: the tree may have changed in ways the layout does not show (frames,
  // hinge axes).
  data_ = std::make_unique<multibody::MultibodyData>(model_);
  dataKinematics_.invalidate();
  // Masks follow their bodies by name; a removed body takes its masks with it.
  std::erase_if(masks_, [&](const auto& m) {
    const auto& names = layout_;
    return std::none_of(names.begin(), names.end(),
                        [&](const LayoutEntry& e) { return e.body == m.first; });
  });
  maskedQ_.assign(static_cast<std::size_t>(model_.nq()), 0);
  maskedU_.assign(static_cast<std::size_t>(model_.nu()), 0);
  for (const auto& [body, subhinge] : masks_) {
    const BodyIndex b = model_.bodyIndex(body);
    const multibody::Hinge& h = model_.hinge(b);
    const int first = subhinge == -1 ? 0 : subhinge;
    const int last = subhinge == -1 ? h.subhingeCount() : subhinge + 1;
    for (int k = first; k < last; ++k) {
      model_.setPrescribed(b, k, true);
      const multibody::Subhinge& s = h.subhinge(k);
      std::fill_n(maskedQ_.begin() + model_.qStart(b) + s.qOffset, h.subhingeNq(k), 1);
      std::fill_n(maskedU_.begin() + model_.uStart(b) + s.uOffset, h.subhingeNu(k), 1);
    }
  }
  constraintData_.reset();
  if (constraints_.size() == 0) {
    constraints_ = multibody::ConstraintSet(model_);  // follows the tree
  } else if (constraints_.bodyCount() != model_.bodyCount()) {
    throw ModelError("multibody: the constraints were defined on a tree of " +
                     std::to_string(constraints_.bodyCount() - 1) + " bodies, which now has " +
                     std::to_string(model_.bodyCount() - 1) +
                     "; clearConstraints() and define them again after changing the tree");
  } else {
    constraintData_ = std::make_unique<multibody::ConstraintData>(model_, constraints_);
  }
  for (const std::string& path : variablePaths_) variables.remove(path);
  variablePaths_.clear();
  if (!hasBodies()) return;
  const auto add = [&](const std::string& path, Buffer& buffer, int offset,
                       std::vector<std::string> units, std::string description) {
    variables.add(path,
                  std::make_unique<CoordinateVariable>(buffer, static_cast<std::size_t>(offset),
                                                       std::move(units), std::move(description)));
    variablePaths_.push_back(path);
  };
  // Element units per body, and for the whole system in the bodies' Q and U order.
  using multibody::CoordinatePart;
  const auto units = [](const multibody::Hinge& h, CoordinatePart part) {
    std::vector<std::string> out(
        static_cast<std::size_t>(part == CoordinatePart::Q ? h.nq() : h.nu()));
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = multibody::coordinateUnit(h, part, static_cast<int>(i));
    }
    return out;
  };
  std::vector<std::string> allQ(static_cast<std::size_t>(model_.nq()));
  std::vector<std::string> allU(static_cast<std::size_t>(model_.nu()));
  for (BodyIndex b = 1; b < model_.bodyCount(); ++b) {
    const multibody::Hinge& h = model_.hinge(b);
    std::ranges::copy(units(h, CoordinatePart::Q), allQ.begin() + model_.qStart(b));
    std::ranges::copy(units(h, CoordinatePart::U), allU.begin() + model_.uStart(b));
  }
  add("multibody.Q", q_, 0, std::move(allQ), "generalized coordinates of every hinge");
  add("multibody.U", u_, 0, std::move(allU), "generalized velocities of every hinge");
  for (const LayoutEntry& e : layout_) {
    if (e.nq == 0) continue;
    const std::string base = "multibody.bodies." + e.body;
    const std::string hinge(multibody::toString(e.hinge));
    const multibody::Hinge& h = model_.hinge(model_.bodyIndex(e.body));
    add(base + ".Q", q_, e.qStart, units(h, CoordinatePart::Q), hinge + " hinge coordinates Q");
    add(base + ".U", u_, e.uStart, units(h, CoordinatePart::U), hinge + " hinge rates U");
  }
  quantityData_ = std::make_unique<multibody::MultibodyData>(model_);
  quantityKinematics_.invalidate();
  energiesValid_ = false;
  addComputedVariables(variables);
}

void MultibodySystem::addComputedVariables(VariableTree& variables) {
  const auto computed = [&](const std::string& path, std::size_t length,
                            ComputedVariable::Compute compute, std::string unit,
                            std::string description) {
    variables.add(path, std::make_unique<ComputedVariable>(
                            length, std::move(compute), std::move(unit), std::move(description)));
    variablePaths_.push_back(path);
  };
  const auto element = [](const auto& vector, std::size_t i) {
    return vector[static_cast<Eigen::Index>(i)];
  };
  // A body or node whose name makes no valid path, or one that clashes with another's, gets no
  // variables rather than failing the lock (they are conveniences; its Q and U stay).
  const auto ifNamesAllow = [&](const std::function<void()>& addGroup) {
    const std::size_t before = variablePaths_.size();
    try {
      addGroup();
    } catch (const InputError&) {
      for (std::size_t i = before; i < variablePaths_.size(); ++i)
        variables.remove(variablePaths_[i]);
      variablePaths_.resize(before);
    }
  };
  // The whole system (energy.h).
  computed(
      "multibody.energy.kinetic", 1,
      [this](std::size_t) { return energyAndMomentum().kineticEnergy; }, "J",
      "kinetic energy of every body");
  computed(
      "multibody.energy.potential", 1,
      [this](std::size_t) { return energyAndMomentum().potentialEnergy; }, "J",
      "potential energy of the uniform gravity, zero at the world origin");
  computed(
      "multibody.energy.total", 1,
      [this](std::size_t) {
        const multibody::MultibodyData& d = energyAndMomentum();
        return d.kineticEnergy + d.potentialEnergy;
      },
      "J", "kinetic plus potential energy");
  computed(
      "multibody.mass", 1, [this](std::size_t) { return energyAndMomentum().totalMass; }, "kg",
      "mass of every body");
  computed(
      "multibody.centerOfMass", 3,
      [this, element](std::size_t i) { return element(energyAndMomentum().p_WoScm_W, i); }, "m",
      "the system's center of mass in world axes");
  computed(
      "multibody.momentum.linear", 3,
      [this, element](std::size_t i) { return element(energyAndMomentum().L_W, i); }, "kg*m/s",
      "linear momentum in world axes");
  computed(
      "multibody.momentum.angular", 3,
      [this, element](std::size_t i) { return element(energyAndMomentum().H_WWo_W, i); },
      "kg*m^2/s", "angular momentum about the world origin in world axes");
  // Each body: its frame's pose and velocity in W.
  for (BodyIndex b = 1; b < model_.bodyCount(); ++b) {
    const std::string base = "multibody.bodies." + model_.bodyName(b);
    const auto at = static_cast<std::size_t>(b);
    ifNamesAllow([&] {
      computed(
          base + ".position", 3,
          [this, at, element](std::size_t i) {
            return element(kinematicsNow().X_WB[at].translation(), i);
          },
          "m", "position of the body frame's origin in world axes");
      computed(
          base + ".orientation", 4,
          [this, at, element](std::size_t i) {
            return element(kinematicsNow().X_WB[at].quaternion(), i);
          },
          "1", "quaternion of the body frame in W, scalar first, e0 >= 0");
      computed(
          base + ".angularVelocity", 3,
          [this, at, element](std::size_t i) {
            const multibody::MultibodyData& d = kinematicsNow();
            return element(d.X_WB[at].rotation() * d.V_WB_B[at].rotational(), i);
          },
          "rad/s", "angular velocity of the body in W, in world axes");
      computed(
          base + ".linearVelocity", 3,
          [this, at, element](std::size_t i) {
            const multibody::MultibodyData& d = kinematicsNow();
            return element(d.X_WB[at].rotation() * d.V_WB_B[at].translational(), i);
          },
          "m/s", "velocity of the body frame's origin in W, in world axes");
    });
  }
  // Each node: its pose in W.
  for (NodeIndex n = 0; n < model_.nodeCount(); ++n) {
    const multibody::Node& node = model_.node(n);
    const std::string base = "multibody.nodes." + node.name;
    const auto at = static_cast<std::size_t>(node.body);
    const RigidTransform X_BN = node.X_BN;
    ifNamesAllow([&] {
      computed(
          base + ".position", 3,
          [this, at, X_BN, element](std::size_t i) {
            return element(kinematicsNow().X_WB[at] * X_BN.translation(), i);
          },
          "m", "position of the node in world axes");
      computed(
          base + ".orientation", 4,
          [this, at, X_BN, element](std::size_t i) {
            return element((kinematicsNow().X_WB[at] * X_BN).quaternion(), i);
          },
          "1", "quaternion of the node frame in W, scalar first, e0 >= 0");
    });
  }
}

void MultibodySystem::addStates(StateVector& states) {
  for (const LayoutEntry& e : layout_) {
    const std::string base = "multibody.bodies." + e.body;
    for (int k = 0; k < e.nq; ++k) {
      const auto i = static_cast<std::size_t>(e.qStart + k);
      if (maskedQ_[i] == 0) states.add(q_, qdot_, i, base + ".Q[" + std::to_string(k) + "]");
    }
    for (int k = 0; k < e.nu; ++k) {
      const auto i = static_cast<std::size_t>(e.uStart + k);
      if (maskedU_[i] == 0) states.add(u_, udot_, i, base + ".U[" + std::to_string(k) + "]");
    }
  }
}

Eigen::Index MultibodySystem::stateCount() const {
  const auto free = [](const std::vector<unsigned char>& masked) {
    return static_cast<Eigen::Index>(std::count(masked.begin(), masked.end(), 0));
  };
  return free(maskedQ_) + free(maskedU_);
}

void MultibodySystem::clearInputs() {
  tau_.setZero();
  udotPrescribed_.setZero();
  std::fill(forces_.begin(), forces_.end(), SpatialForce());
}

const multibody::MultibodyData& MultibodySystem::energyAndMomentum() const {
  requireQuantityData("energyAndMomentum()");
  // Several variables read one evaluation (a sample reads all seven): computed again only when
  // something the energies depend on changed. Models may set mass properties and gravity at any
  // time, so those are part of the key along with Q and U.
  if (!(energiesValid_ && quantityKinematics_.matches(view(q_), view(u_)) &&
        energiesMassRevision_ == model_.massPropertiesRevision() &&
        energiesGravity_ == model_.gravity())) {
    multibody::computeEnergyAndMomentum(model_, *quantityData_, view(q_), view(u_));
    quantityKinematics_.record(view(q_), view(u_));
    energiesValid_ = true;
    energiesMassRevision_ = model_.massPropertiesRevision();
    energiesGravity_ = model_.gravity();
    ++energyEvaluations_;
  }
  return *quantityData_;
}

const multibody::MultibodyData& MultibodySystem::kinematicsNow() const {
  requireQuantityData("kinematicsNow()");
  // Several variables read one kinematics: computed again only when Q or U changed.
  if (!quantityKinematics_.matches(view(q_), view(u_))) {
    multibody::forwardKinematics(model_, *quantityData_, view(q_), view(u_));
    quantityKinematics_.record(view(q_), view(u_));
    energiesValid_ = false;  // the workspace's energies belong to the Q and U it had before
  }
  return *quantityData_;
}

void MultibodySystem::requireQuantityData(const char* what) const {
  if (!quantityData_) {
    throw ModelError(std::string("multibody ") + what + ": the simulation has not been locked yet");
  }
}

void MultibodySystem::computeKinematics() {
  // The executive asks before every sweep and derivative evaluation, and consecutive ones often
  // see the same Q and U (the sweeps at a hop's start, a sub-step's first evaluation, the sweeps
  // at its end): those keep the kinematics already computed.
  if (dataKinematics_.matches(view(q_), view(u_))) return;
  multibody::forwardKinematics(model_, *data_, view(q_), view(u_));
  dataKinematics_.record(view(q_), view(u_));
  ++kinematicsEvaluations_;
}

void MultibodySystem::computeDynamics() {
  if (dataKinematics_.matches(view(q_), view(u_))) {
    // Computed before preDeriv (computeKinematics), for models to read.
    multibody::articulatedBodyDynamics(model_, *data_, tau_, udotPrescribed_, forces_);
  } else {
    // Nobody read them since Q or U changed: computed in the dynamics' own outward pass, with
    // the same kernels (every result the same bit for bit), cheaper than a pass of their own.
    multibody::hybridDynamics(model_, *data_, view(q_), view(u_), tau_, udotPrescribed_, forces_);
    dataKinematics_.record(view(q_), view(u_));
    ++kinematicsEvaluations_;
  }
  if (constraintData_) multibody::applyConstraints(model_, constraints_, *data_, *constraintData_);
  view(udot_) = data_->udot;
  multibody::computeQdot(model_, view(q_), view(u_), view(qdot_));
}

void MultibodySystem::endIntegrationStep() {
  // Quaternions drift off the unit sphere and Q and U off the constraint manifold by the
  // integration error; the kinematics normalizes before use, and this puts the stored state
  // back. Positions first: the velocity projection uses G at the projected Q.
  multibody::normalizeQuaternions(model_, view(q_));
  if (!constraintData_) return;
  dataKinematics_.invalidate();  // the projections compute kinematics at their trial Q
  multibody::projectPositions(model_, constraints_, *data_, *constraintData_, view(q_),
                              positionTolerance_, projectionIterations_);
  multibody::projectVelocities(model_, constraints_, *data_, *constraintData_, view(q_), view(u_),
                               velocityTolerance_);
}

void MultibodySystem::saveEvaluationState(EvaluationState& into) const {
  into.q = q_;
  into.u = u_;
  into.qdot = qdot_;
  into.udot = udot_;
  into.tau = tau_;
  into.udotPrescribed = udotPrescribed_;
  into.forces = forces_;
  into.loads = loads_;
  into.hingeForces = hingeForces_;
  into.massProperties = model_.allMassProperties();
  into.data = *data_;
  if (constraintData_) {
    into.constraintData = *constraintData_;
  } else {
    into.constraintData.reset();
  }
}

void MultibodySystem::restoreEvaluationState(const EvaluationState& from) {
  // Buffer and Eigen assignments between equal sizes copy in place: the state vector keeps
  // pointing at Q and U.
  q_ = from.q;
  u_ = from.u;
  qdot_ = from.qdot;
  udot_ = from.udot;
  tau_ = from.tau;
  udotPrescribed_ = from.udotPrescribed;
  forces_ = from.forces;
  loads_ = from.loads;
  hingeForces_ = from.hingeForces;
  model_.restoreMassProperties(from.massProperties);
  *data_ = *from.data;
  dataKinematics_.invalidate();
  if (constraintData_) *constraintData_ = *from.constraintData;
}

// ---- inputs ---------------------------------------------------------------------------------

void MultibodySystem::addNodeForce(NodeIndex n, const Vector3& force, const Vector3& torque,
                                   ForceFrame frame) {
  const multibody::Node& node = model_.node(n);
  Matrix3 R_B = Matrix3::Identity();  // from `frame` to B
  if (frame == ForceFrame::Node) {
    R_B = node.X_BN.rotation();
  } else if (frame == ForceFrame::World) {
    R_B = data_->X_WB[static_cast<std::size_t>(node.body)].rotation().transpose();
  }
  const Vector3 f_B = R_B * force;
  const Vector3 torqueAboutBo = R_B * torque + node.X_BN.translation().cross(f_B);
  forces_[static_cast<std::size_t>(node.body)] += SpatialForce(torqueAboutBo, f_B);
}

void MultibodySystem::addBodyForce(BodyIndex b, const SpatialForce& F_BBo_B) {
  model_.checkBody(b, "multibody addBodyForce");
  forces_[static_cast<std::size_t>(b)] += F_BBo_B;
}

void MultibodySystem::checkU(int k, const char* what) const {
  if (k < 0 || k >= model_.nu()) {
    throw InputError(std::string("multibody ") + what + ": U entry " + std::to_string(k) +
                     " does not exist (expected 0.." + std::to_string(model_.nu() - 1) + ")");
  }
}

void MultibodySystem::addGeneralizedForce(int k, double f) {
  checkU(k, "addGeneralizedForce");
  tau_[k] += f;
}

void MultibodySystem::setPrescribedAcceleration(int k, double udot) {
  checkU(k, "setPrescribedAcceleration");
  if (!model_.isPrescribed(k)) {
    throw InputError("multibody setPrescribedAcceleration: U entry " + std::to_string(k) +
                     " is free; prescribe or mask its subhinge before lock()");
  }
  udotPrescribed_[k] = udot;
}

// ---- results --------------------------------------------------------------------------------

RigidTransform MultibodySystem::nodePose(NodeIndex n) const {
  return multibody::nodePose(model_, *data_, n);
}

SpatialMotion MultibodySystem::nodeVelocity(NodeIndex n) const {
  return multibody::nodeVelocity(model_, *data_, n);
}

const std::vector<SpatialForce>& MultibodySystem::hingeForces() {
  loads_ = forces_;
  if (constraintData_) {
    multibody::addConstraintLoads(model_, constraints_, *data_, *constraintData_, loads_);
  }
  multibody::hingeForces(model_, *data_, loads_, hingeForces_);
  return hingeForces_;
}

SpatialMotion MultibodySystem::nodeAcceleration(NodeIndex n) const {
  // The true acceleration of N relative to the world, about No, in W (frames.h removes the
  // world's fictitious -g).
  return multibody::relativeAcceleration(model_, *data_, multibody::Frame::node(n),
                                         multibody::Frame::world(), multibody::Frame::world());
}

}  // namespace hopsim
