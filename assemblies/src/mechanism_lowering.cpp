// Building a planned mechanism: bodies and hinges, nodes, models, constraints, initial state.

#include "hopsim/assemblies/mechanism_lowering.h"

#include <cmath>

#include "contact_input.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/multibody_energy.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/signals/error.h"
#include "mechanism_elements.h"

namespace hopsim::mechanism {

namespace {

using BodyIndex = MultibodySystem::BodyIndex;

}  // namespace

MechanismBuilder::MechanismBuilder(const Mechanism& mechanism, Placement placement)
    : mechanism_(mechanism),
      placement_(std::move(placement)),
      plan_(planMechanism(mechanism, placement_)) {}

MechanismBuilder::~MechanismBuilder() = default;

detail::LoweringContext MechanismBuilder::context() const {
  return {mechanism_, placement_, plan_};
}

// ---- signals ----------------------------------------------------------------------------------

void MechanismBuilder::addSignals(Assembly& assembly) {
  const Mechanism& m = mechanism_;
  const detail::LoweringContext c = context();
  // The elements in the order their models are added.
  elements_.clear();
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    if (!m.bodies[b].fixed) elements_.push_back(detail::lowerBody(c, b));
  }
  for (const TreeHinge& h : plan_.tree) {
    if (h.source != TreeHinge::Source::Free && h.hinge.nq() > 0) {
      elements_.push_back(detail::lowerHingeEncoder(c, h));
    }
  }
  for (const OutputPoint& p : m.outputPoints) elements_.push_back(detail::lowerOutputPoint(c, p));
  for (const OutputAngle& a : m.outputAngles) elements_.push_back(detail::lowerOutputAngle(a));
  // Motors on the tree drive their hinge; the others apply forces between two frames.
  for (const TreeHinge& h : plan_.tree) {
    if (h.source == TreeHinge::Source::Motor) elements_.push_back(detail::lowerTreeMotor(c, h));
  }
  for (int i : plan_.cutMotors) {
    elements_.push_back(detail::lowerCutMotor(c, m.motors[static_cast<std::size_t>(i)]));
  }
  for (const Tsda& t : m.tsdas) elements_.push_back(detail::lowerTsda(c, t));
  for (const Rsda& r : m.rsdas) elements_.push_back(detail::lowerRsda(c, r));
  for (const Joint& j : m.joints) {
    if (j.bushing) elements_.push_back(detail::lowerBushing(c, j));
  }
  for (const BodyLoad& load : m.loads) elements_.push_back(detail::lowerBodyLoad(c, load));

  for (const detail::LoweredElement& e : elements_) {
    for (const detail::SignalDeclaration& s : e.signals) {
      const SignalRef ref = assembly.addSignal(s.name, s.type, s.length, s.unit);
      if (s.zeroUntilWritten) startAtZero(assembly, ref);
    }
  }
  if (hasContactShapes()) {
    addOutputSignals(assembly, models::SmoothContact::declaration(), "contact");
    addOutputSignals(assembly, models::MultibodyEnergy::declaration(), "system");
  }
}

void MechanismBuilder::startAtZero(Assembly& assembly, const SignalRef& ref) {
  Signal& signal = assembly.sim().signal(ref.signal);
  if (signal.everWritten()) return;
  signal.buffer().set(ref.offset, ref.length, Value(std::vector<double>(ref.length, 0.0)),
                      "signals." + ref.signal);
  signal.markWritten();
}

void MechanismBuilder::addOutputSignals(Assembly& assembly, const ModelSpec& spec,
                                        const std::string& base) {
  for (const FieldSpec& f : spec.fields(FieldRole::FlowOut)) {
    assembly.addSignal(base + "." + f.name, f.type, f.length, f.unit);
  }
}

void MechanismBuilder::tieOutputs(Assembly& assembly, Model& model, const std::string& base) {
  for (const FieldSpec& f : model.spec().fields(FieldRole::FlowOut)) {
    assembly.tie(model, f.name, base + "." + f.name);
  }
}

// ---- contact ----------------------------------------------------------------------------------

bool MechanismBuilder::hasContactShapes() const {
  for (const Body& b : mechanism_.bodies) {
    if (!b.contactShapes.empty()) return true;
  }
  return false;
}

void MechanismBuilder::addContact(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  if (!hasContactShapes()) return;
  auto& contact = assembly.addModel<models::SmoothContact>("contact");
  tieOutputs(assembly, contact, "contact");
  // With contact, the log keeps the books: where the energy and momentum went.
  tieOutputs(assembly, assembly.addModel<models::MultibodyEnergy>("energy"), "system");
  for (const Body& b : m.bodies) {
    // Material names are the body's own in the file: "<body>.<material>" in the model.
    const auto firstMaterial = static_cast<int>(contact.materials().size());
    for (const ContactMaterial& material : b.contactMaterials) {
      try {
        contact.addMaterial(b.name + "." + material.name, material.properties);
      } catch (const InputError& e) {
        throw InputError(locateMessage(material.where, "", e.what()));
      }
    }
    for (const ContactShape& shape : b.contactShapes) {
      auto [s, warning] =
          chrono::detail::lowerShape(shape, b.contactMaterials, firstMaterial, m.file, m.dataRoot);
      if (!warning.empty()) assembly.warn(warning);
      // A fixed body is the world: its shapes sit there at their world pose.
      s.body = b.fixed ? std::string("world") : bodyName(b.name);
      s.X_BS = b.fixed ? placement_.X_WP * b.X_WR * shape.X_RS : shape.X_RS;
      try {
        contact.addShape(std::move(s));
      } catch (const InputError& e) {
        throw InputError(locateMessage(shape.where, "", e.what()));
      }
    }
  }
  // A bushing joins its bodies as a joint does, though no hinge or constraint shows it.
  const detail::LoweringContext c = context();
  for (const Joint& j : m.joints) {
    if (!j.bushing || c.grounded(j.body1, j.body2)) continue;
    const auto name = [&](const std::string& body) {
      return m.body(body).fixed ? std::string("world") : bodyName(body);
    };
    contact.excludePair(name(j.body1), name(j.body2));
  }
}

// ---- bodies, nodes and models -----------------------------------------------------------------

void MechanismBuilder::addBodies(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  // Bodies, parents first, with their mass properties about the reference frame.
  for (const TreeHinge& h : plan_.tree) {
    const Body& b = m.bodies[static_cast<std::size_t>(h.body)];
    std::optional<std::string> parent =
        h.parent < 0 ? std::optional<std::string>("world")
                     : std::optional<std::string>(
                           bodyName(m.bodies[static_cast<std::size_t>(h.parent)].name));
    try {
      // Mass properties about the reference frame. The readers checked the mass and that the
      // inertia is positive (semi-)definite; Chrono also takes moments that break the triangle
      // inequality (a warning), which the checked constructor would refuse.
      const Matrix3& R_RC = b.X_RC.rotation();
      const spatial::SpatialInertia M = spatial::SpatialInertia::fromCmInertiaUnchecked(
          b.mass, b.X_RC.translation(), R_RC * b.inertia * R_RC.transpose());
      assembly.addBody(bodyName(b.name), M, h.hinge, h.X_PF, h.X_CM, parent);
    } catch (const InputError& e) {
      throw InputError(locateMessage(b.where, "body '" + b.name + "'", e.what()));
    }
  }
}

void MechanismBuilder::addNode(Assembly& assembly, const detail::NodeRequest& node) const {
  multibody::MultibodyModel& tree = assembly.sim().multibody().editModel();
  const std::string name = placement_.prefix + node.name;
  const int b = node.body.empty() ? -1 : mechanism_.bodyIndex(node.body);
  if (b < 0 || mechanism_.bodies[static_cast<std::size_t>(b)].fixed) {
    tree.addNode(name, 0, node.X_WN);
  } else {
    tree.addNode(name, tree.bodyIndex(bodyName(node.body)),
                 plan_.X_WB[static_cast<std::size_t>(b)].inverse() * node.X_WN);
  }
}

void MechanismBuilder::addModels(Assembly& assembly) const {
  addBodies(assembly);
  MultibodySystem& system = assembly.sim().multibody();
  for (const detail::LoweredElement& e : elements_) {
    if (e.warning) assembly.warn(*e.warning);
    for (const detail::NodeRequest& node : e.nodes) addNode(assembly, node);
    if (e.masked)
      system.setMasked(system.model().bodyIndex(e.masked->body), e.masked->subhinge, true);
    if (e.model) assembly.addDefinedModel(*e.model);
  }
  addContact(assembly);
}

// ---- constraints ------------------------------------------------------------------------------

void MechanismBuilder::addConstraints(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  const detail::LoweringContext c = context();
  const detail::ConstraintLowering lowering(c, assembly.sim().multibody());
  const auto skipGrounded = [&](const std::string& body1, const std::string& body2,
                                const std::string& what, const SourceLocation& where) {
    const std::optional<std::string> warning = c.groundedWarning(body1, body2, what, where);
    if (warning) assembly.warn(*warning);
    return warning.has_value();
  };
  for (int i : plan_.cutJoints) {
    const Joint& j = m.joints[static_cast<std::size_t>(i)];
    if (!skipGrounded(j.body1, j.body2, "joint '" + j.name + "'", j.where)) lowering.addCutJoint(j);
  }
  // The supports of motors that are not tree hinges (their force comes from ChronoForceMotor).
  for (int i : plan_.cutMotors) {
    const Motor& motor = m.motors[static_cast<std::size_t>(i)];
    if (motor.support != MotorSupport::Free &&
        !skipGrounded(motor.body1, motor.body2, "motor '" + motor.name + "'", motor.where)) {
      lowering.addMotorSupport(motor);
    }
  }
  for (const Constraint& constraint : m.constraints) {
    if (!skipGrounded(constraint.body1, constraint.body2, "constraint '" + constraint.name + "'",
                      constraint.where)) {
      lowering.addConstraint(constraint);
    }
  }
}

// ---- initial state ----------------------------------------------------------------------------

void MechanismBuilder::setInitialState(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  MultibodySystem& system = assembly.sim().multibody();
  const multibody::MultibodyModel& tree = system.model();
  // Each body's velocity as the tree gives it: ω (world) and the velocity of its origin.
  std::vector<Vector3> omega(m.bodies.size(), Vector3::Zero());
  std::vector<Vector3> velocity(m.bodies.size(), Vector3::Zero());
  const Matrix3& R_WP = placement_.X_WP.rotation();
  for (const TreeHinge& h : plan_.tree) {
    const std::size_t c = static_cast<std::size_t>(h.body);
    const Body& body = m.bodies[c];
    const RigidTransform& X_WC = plan_.X_WB[c];
    // The file's velocities: COM velocity in the world, ω in COM axes.
    const RigidTransform X_Wcom = X_WC * body.X_RC;
    const Vector3 w_W = R_WP * (body.X_WR.rotation() * body.X_RC.rotation() * body.w_WC_C);
    const Vector3 v_com = R_WP * body.v_WC_W;
    const Vector3 v_origin = v_com + w_W.cross(X_WC.translation() - X_Wcom.translation());
    const BodyIndex bi = tree.bodyIndex(bodyName(body.name));
    Eigen::Map<Eigen::VectorXd> q = system.q(bi);
    Eigen::Map<Eigen::VectorXd> u = system.u(bi);
    if (h.source == TreeHinge::Source::Free) {
      // FULL6DOF from the world: Q = [q_WC; p_WC], U = [ω; v] in the body frame.
      const spatial::Quaternion q_WC = spatial::quaternionFromRotation(X_WC.rotation());
      q << q_WC, X_WC.translation();  // scalar first [e0, e1, e2, e3]
      u << X_WC.rotation().transpose() * w_W, X_WC.rotation().transpose() * v_origin;
      omega[c] = w_W;
      velocity[c] = v_origin;
      continue;
    }
    // The hinge takes the part of the relative velocity (at Mo, in M) its free motions allow;
    // at t = 0 every hinge is at its neutral pose, where its motion subspace is its axes.
    const Vector3 p_Mo = X_WC * h.X_CM.translation();
    Vector3 wP = Vector3::Zero();
    Vector3 vP = Vector3::Zero();
    if (h.parent >= 0) {
      const std::size_t p = static_cast<std::size_t>(h.parent);
      wP = omega[p];
      vP = velocity[p] + omega[p].cross(p_Mo - plan_.X_WB[p].translation());
    }
    const Vector3 vC = v_origin + w_W.cross(p_Mo - X_WC.translation());
    const Matrix3 R_MW = (X_WC.rotation() * h.X_CM.rotation()).transpose();
    const Vector3 w_rel = R_MW * (w_W - wP);
    const Vector3 v_rel = R_MW * (vC - vP);
    Vector3 w_taken = Vector3::Zero();
    Vector3 v_taken = Vector3::Zero();
    for (int k = 0; k < h.hinge.subhingeCount(); ++k) {
      const multibody::Subhinge& s = h.hinge.subhinge(k);
      switch (s.type) {
        case multibody::SubhingeType::Pin:
          u[s.uOffset] = s.axis.dot(w_rel);
          w_taken += s.axis * u[s.uOffset];
          break;
        case multibody::SubhingeType::Slider:
          u[s.uOffset] = s.axis.dot(v_rel);
          v_taken += s.axis * u[s.uOffset];
          break;
        case multibody::SubhingeType::Ball:
          u.segment<3>(s.uOffset) = w_rel;
          w_taken = w_rel;
          break;
        case multibody::SubhingeType::Free:
        case multibody::SubhingeType::FreeInertial:
          break;  // only FULL6DOF hinges, handled above
      }
    }
    if ((w_taken - w_rel).norm() + (v_taken - v_rel).norm() >
        1e-9 * (1.0 + w_rel.norm() + v_rel.norm())) {
      assembly.warn(locateMessage(
          body.where, "",
          "the initial velocity of body '" + body.name +
              "' is not a motion its hinge allows; it starts with the part the hinge takes"));
    }
    const Matrix3 R_WM = R_MW.transpose();
    omega[c] = wP + R_WM * w_taken;
    velocity[c] = vP + R_WM * v_taken + omega[c].cross(X_WC.translation() - p_Mo);
  }
}

// ---- outputs ----------------------------------------------------------------------------------

std::vector<std::pair<std::string, std::string>> MechanismBuilder::outputColumns(
    const std::string& signalPrefix) const {
  const Mechanism& m = mechanism_;
  std::vector<std::pair<std::string, std::string>> columns;
  const auto add = [&](const std::string& signal, std::initializer_list<const char*> names) {
    int i = 0;
    for (const char* name : names) {
      columns.emplace_back(signal + "." + name,
                           "signals." + signalPrefix + signal + "[" + std::to_string(i++) + "]");
    }
  };
  for (const Body& b : m.bodies) {
    if (b.fixed) continue;
    const std::string base = "bodies." + b.name;
    add(base + ".position", {"x", "y", "z"});
    add(base + ".orientation", {"e0", "e1", "e2", "e3"});
    add(base + ".velocity", {"x", "y", "z"});
    add(base + ".angular_velocity", {"x", "y", "z"});
  }
  for (const TreeHinge& h : plan_.tree) {
    if (h.source == TreeHinge::Source::Free || h.hinge.nq() == 0) continue;
    const std::string base = detail::hingeSignalBase(m, h);
    for (const auto& [part, n] : {std::pair{"q", h.hinge.nq()}, std::pair{"u", h.hinge.nu()}}) {
      for (int i = 0; i < n; ++i) {
        const std::string element = base + "." + part + "[" + std::to_string(i) + "]";
        columns.emplace_back(element, "signals." + signalPrefix + element);
      }
    }
  }
  for (const OutputPoint& p : m.outputPoints) {
    add("points." + p.label + ".position", {"x", "y"});
  }
  for (const OutputAngle& a : m.outputAngles) {
    const std::string signal = "relative_coordinates." + a.label + ".angle";
    columns.emplace_back(signal, "signals." + signalPrefix + signal + "[0]");
  }
  if (hasContactShapes()) {
    // The outputs of the contact and energy models: scalars as they are, 3-vectors by axis.
    for (const auto& [spec, base] : {std::pair<const ModelSpec*, const char*>{
                                         &models::SmoothContact::declaration(), "contact"},
                                     {&models::MultibodyEnergy::declaration(), "system"}}) {
      for (const FieldSpec& f : spec->fields(FieldRole::FlowOut)) {
        const std::string signal = std::string(base) + "." + f.name;
        if (f.length == 3) {
          add(signal, {"x", "y", "z"});
        } else {
          columns.emplace_back(signal, "signals." + signalPrefix + signal + "[0]");
        }
      }
    }
  }
  return columns;
}

}  // namespace hopsim::mechanism
