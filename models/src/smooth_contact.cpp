#include "hopsim/models/smooth_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "collision_world.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "two_node_force.h"

namespace hopsim::models {
namespace {

using spatial::SpatialForce;
using spatial::Vector3;

constexpr std::string_view kLawNames[] = {"HOOKE", "HERTZ"};
constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// The radius a shape contributes to the pair's effective radius R* (0 for shapes whose
/// curvature Chrono's collision detection does not report).
double curvatureRadius(const CollisionShape& shape) {
  if (shape.type == ShapeType::Mesh) return shape.contactRadius;
  return shape.type == ShapeType::Sphere || shape.type == ShapeType::Capsule ? shape.radius : 0.0;
}

}  // namespace

SmoothContact::Declaration::Declaration()
    : ModelSpec("SmoothContact", ModelKind::Darts,
                "Smooth (penalty) contact as Chrono's SMC between the collision shapes added "
                "with addShape: a contact of penetration d, separation speed vn and tangential "
                "velocity vt pushes body b along the normal n (from a to b) with Fn = kn d - gn "
                "vn (never negative) and rubs it with Ft = -(kt xi + gt vt), limited to mu Fn; "
                "xi, the tangential stretch, is kept per contact and advanced at each "
                "integration step end. HERTZ with material properties: kn = 4/3 E* sqrt(R* d), "
                "damping from the restitution; HOOKE: constant kn. The pair's material combines "
                "the two shapes' (mu and e the minima, E* and G* in series, coefficients "
                "averaged).") {
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const SmoothContact::Declaration& SmoothContact::declaration() {
  static const Declaration declaration;
  return declaration;
}

SmoothContact::SmoothContact(std::string name)
    : DartsModel(std::move(name), declaration()),
      world_(std::make_unique<detail::CollisionWorld>()) {}

SmoothContact::~SmoothContact() = default;

int SmoothContact::addMaterial(std::string name, const ContactMaterial& material) {
  const std::string where = describe() + ": material '" + name + "'";
  for (const auto& [existing, m] : materials_) {
    if (existing == name) throw InputError(where + " is defined twice");
  }
  checkContactMaterial(material, where);
  materials_.emplace_back(std::move(name), material);
  return static_cast<int>(materials_.size()) - 1;
}

int SmoothContact::addShape(CollisionShape shape) {
  const std::string where = describe() + ": shape " + std::to_string(shapes_.size()) + " (" +
                            toString(shape.type) + " on '" + shape.body + "')";
  if (shape.material < 0 || shape.material >= static_cast<int>(materials_.size())) {
    throw InputError(where + ": material index " + std::to_string(shape.material) +
                     " is not one of the " + std::to_string(materials_.size()) +
                     " materials added");
  }
  const auto positive = [&](const char* what, double value) {
    if (!(value > 0.0 && std::isfinite(value))) {
      throw InputError(where + ": " + what + " = " + std::to_string(value) +
                       ", expected a finite value > 0");
    }
  };
  switch (shape.type) {
    case ShapeType::Sphere:
      positive("radius", shape.radius);
      break;
    case ShapeType::Box:
      for (int i = 0; i < 3; ++i) positive("dimensions", shape.dimensions[i]);
      break;
    case ShapeType::Cylinder:
      positive("radius", shape.radius);
      positive("length", shape.length);
      break;
    case ShapeType::Capsule:
      positive("radius", shape.radius);
      if (!(shape.length >= 0.0 && std::isfinite(shape.length))) {
        throw InputError(where + ": length = " + std::to_string(shape.length) +
                         ", expected a finite value >= 0");
      }
      break;
    case ShapeType::HalfSpace:
      break;
    case ShapeType::Hull:
    case ShapeType::Mesh: {
      const std::size_t least = shape.type == ShapeType::Hull ? 4 : 3;
      constexpr auto most = static_cast<std::size_t>(detail::CollisionWorld::kMaxFeatures);
      if (shape.mesh &&
          (shape.mesh->vertices.size() > most || shape.mesh->triangles.size() > most)) {
        throw InputError(where + ": " + std::to_string(shape.mesh->vertices.size()) +
                         " vertices and " + std::to_string(shape.mesh->triangles.size()) +
                         " triangles; at most " + std::to_string(most) + " of each");
      }
      if (!shape.mesh || shape.mesh->vertices.size() < least ||
          (shape.type == ShapeType::Mesh && shape.mesh->triangles.empty())) {
        throw InputError(where + ": expected a mesh with at least " + std::to_string(least) +
                         " vertices" + (shape.type == ShapeType::Mesh ? " and a triangle" : ""));
      }
      for (const auto& triangle : shape.mesh->triangles) {
        for (int v : triangle) {
          if (v < 0 || v >= static_cast<int>(shape.mesh->vertices.size())) {
            throw InputError(where + ": a triangle names vertex " + std::to_string(v) + " of " +
                             std::to_string(shape.mesh->vertices.size()));
          }
        }
      }
      if (!(shape.contactRadius >= 0.0 && std::isfinite(shape.contactRadius))) {
        throw InputError(where + ": contact_radius = " + std::to_string(shape.contactRadius) +
                         ", expected a finite value >= 0");
      }
      break;
    }
  }
  if (shapes_.size() >= static_cast<std::size_t>(detail::CollisionWorld::kMaxShapes)) {
    throw InputError(where + ": more than " + std::to_string(detail::CollisionWorld::kMaxShapes) +
                     " shapes");
  }
  shapes_.push_back(std::move(shape));
  return static_cast<int>(shapes_.size()) - 1;
}

void SmoothContact::excludePair(std::string a, std::string b) {
  excludedNames_.emplace_back(std::move(a), std::move(b));
}

void SmoothContact::attach(MultibodySystem& system) {
  DartsModel::attach(system);
  const multibody::MultibodyModel& tree = system.model();
  const auto bodyOf = [&](const std::string& name, const std::string& what) {
    std::vector<std::string> names;
    for (int b = 0; b < tree.bodyCount(); ++b) {
      if (tree.bodyName(b) == name) return b;
      names.push_back(tree.bodyName(b));
    }
    throw ModelError(describe() + ": " + what + " names body '" + name + "', which does not exist" +
                     didYouMean(name, names));
  };
  // Static bodies: the world and whatever is welded to it.
  const auto bodies = static_cast<std::size_t>(tree.bodyCount());
  staticBody_.assign(bodies, false);
  bodyMass_.assign(bodies, kInfinity);
  for (int b = 0; b < tree.bodyCount(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    staticBody_[i] =
        b == multibody::kWorldBody || (tree.hinge(b).type() == multibody::HingeType::Locked &&
                                       staticBody_[static_cast<std::size_t>(tree.parent(b))]);
    if (!staticBody_[i]) bodyMass_[i] = tree.massProperties(b).mass();
  }
  shapeBodies_.clear();
  for (std::size_t s = 0; s < shapes_.size(); ++s) {
    const std::string what = "shape " + std::to_string(s) + " (" + toString(shapes_[s].type) + ")";
    const int body = bodyOf(shapes_[s].body, what);
    if (shapes_[s].type == ShapeType::HalfSpace && !staticBody_[static_cast<std::size_t>(body)]) {
      throw ModelError(describe() + ": " + what + " is on body '" + shapes_[s].body +
                       "', which moves; a half space (the ground) must be on the world or on a "
                       "body welded to it");
    }
    shapeBodies_.push_back(body);
  }
  std::vector<std::pair<int, int>> excluded;
  const auto exclude = [&](int a, int b) { excluded.push_back(std::minmax(a, b)); };
  for (const auto& [a, b] : excludedNames_) {
    exclude(bodyOf(a, "excludePair"), bodyOf(b, "excludePair"));
  }
  if (!param(d_.collideJoined)) {
    for (int b = 1; b < tree.bodyCount(); ++b) {
      const multibody::HingeType type = tree.hinge(b).type();
      if (type != multibody::HingeType::Full6Dof &&
          type != multibody::HingeType::Full6DofInertial) {
        exclude(b, tree.parent(b));
      }
    }
    const multibody::ConstraintSet& constraints = system.constraints();
    for (int c = 0; c < constraints.size(); ++c) {
      exclude(constraints.constraint(c).bodyA, constraints.constraint(c).bodyB);
    }
  }
  pairMaterials_.clear();
  for (const auto& [na, a] : materials_) {
    for (const auto& [nb, b] : materials_) pairMaterials_.push_back(combine(a, b));
  }
  world_->build(shapes_, shapeBodies_, staticBody_, std::move(excluded));
  contacts_.clear();
  // One more than the table holds, so that an overflow is reported rather than reallocated.
  contacts_.reserve(static_cast<std::size_t>(param(d_.maxContacts)) + 1);
  nextSlip_.reserve(static_cast<std::size_t>(param(d_.maxContacts)));
}

std::vector<std::pair<int, int>> SmoothContact::candidatePairs() const {
  return world_->candidatePairs();
}

double SmoothContact::signedGap(int a, int b) const {
  return world_->signedGap(a, b, multibody().data().X_WB);
}

void registerContactEvents(Simulation& sim, SmoothContact& contact, EventCallback onEvent,
                           ZeroCrossingOptions options) {
  if (!sim.locked()) {
    throw ModelError(contact.describe() +
                     ": registerContactEvents needs a locked simulation "
                     "(the shapes' bodies are resolved at lock())");
  }
  for (const auto& [a, b] : contact.candidatePairs()) {
    sim.registerZeroCrossing(
        contact.name() + ":" + std::to_string(a) + "-" + std::to_string(b),
        [&contact, a, b](Simulation&, double) { return contact.signedGap(a, b); },
        CrossingDirection::Either,
        [onEvent](Simulation& s, double t) {
          if (onEvent) onEvent(s, t);
        },
        options);
  }
}

void SmoothContact::processParams(double /*t*/) {
  options_.law = static_cast<NormalLaw>(detail::parseLaw(*this, "law", param(d_.law), kLawNames));
  options_.useMaterialProperties = param(d_.useMaterialProperties);
  options_.characteristicVelocity = param(d_.characteristicVelocity);
}

void SmoothContact::detect() {
  world_->detect(multibody().data().X_WB, contacts_);
  checkCapacity();
}

void SmoothContact::checkCapacity() const {
  // The table's length, fixed at lock() (a max_contacts set later takes effect at the next lock).
  const auto capacity = static_cast<std::size_t>(state(d_.contactKeys).size());
  if (contacts_.size() > capacity) {
    throw NumericalError(describe() + ": " + std::to_string(contacts_.size()) +
                         " simultaneous contacts exceed the contact table's " +
                         std::to_string(capacity) + " entries (raise models." + name() +
                         ".params.max_contacts)");
  }
}

Vector3 SmoothContact::storedSlip(std::int64_t key) const {
  // The live keys are the ascending first live_contacts rows: a binary search, O(log n).
  const auto keys = state(d_.contactKeys);
  const auto* first = keys.data();
  const auto* last = first + state(d_.liveContacts);
  const auto* it = std::lower_bound(first, last, key);
  if (it == last || *it != key) return Vector3::Zero();
  const auto i = it - first;
  return {state(d_.slipX)[i], state(d_.slipY)[i], state(d_.slipZ)[i]};
}

SmoothContact::Response SmoothContact::respond(const detail::ContactPoint& contact) const {
  const auto& data = multibody().data();
  const auto& a = shapes_[static_cast<std::size_t>(contact.shapeA)];
  const auto& b = shapes_[static_cast<std::size_t>(contact.shapeB)];
  const auto bodyA =
      static_cast<std::size_t>(shapeBodies_[static_cast<std::size_t>(contact.shapeA)]);
  const auto bodyB =
      static_cast<std::size_t>(shapeBodies_[static_cast<std::size_t>(contact.shapeB)]);
  const auto velocityAt = [&](std::size_t body) -> Vector3 {
    const auto& X = data.X_WB[body];
    const auto& V = data.V_WB_B[body];
    const Vector3 r_B = X.inverseApplyToVector(contact.point_W - X.translation());
    return X.applyToVector(Vector3(V.translational()) + Vector3(V.rotational()).cross(r_B));
  };
  const Vector3 v = velocityAt(bodyB) - velocityAt(bodyA);
  const Vector3& n = contact.normal_W;
  const double vn = v.dot(n);
  const Vector3 vt = v - vn * n;
  const double ma = bodyMass_[bodyA], mb = bodyMass_[bodyB];
  const double mass = std::isinf(ma) ? mb : std::isinf(mb) ? ma : ma * mb / (ma + mb);
  const double ra = curvatureRadius(a), rb = curvatureRadius(b);
  const double radius = ra > 0.0 && rb > 0.0 ? ra * rb / (ra + rb)
                        : ra > 0.0           ? ra
                        : rb > 0.0           ? rb
                                             : param(d_.defaultEffectiveRadius);
  const CompositeMaterial& material =
      pairMaterials_[static_cast<std::size_t>(a.material) * materials_.size() +
                     static_cast<std::size_t>(b.material)];
  const ContactCoefficients c =
      contactCoefficients(options_, material, mass, radius, contact.depth);
  const double fn = normalForce(c, contact.depth, vn);
  // A contact that does not push does not rub either (ChContactSMC).
  const Vector3 ft = fn > 0.0
                         ? frictionForce(c, material.friction, fn, storedSlip(contact.key()), vt)
                         : Vector3(Vector3::Zero());
  return {fn * n + ft, fn, vt, c, material.friction};
}

void SmoothContact::preDeriv(double /*t*/) {
  detect();
  MultibodySystem& system = multibody();
  const auto& data = system.data();
  for (const detail::ContactPoint& contact : contacts_) {
    const Vector3 f = respond(contact).force_W;
    for (const auto& [shape, sign] :
         {std::pair{contact.shapeB, 1.0}, std::pair{contact.shapeA, -1.0}}) {
      const int body = shapeBodies_[static_cast<std::size_t>(shape)];
      if (staticBody_[static_cast<std::size_t>(body)]) continue;
      const auto& X = data.X_WB[static_cast<std::size_t>(body)];
      const Vector3 f_B = X.inverseApplyToVector(sign * f);
      const Vector3 r_B = X.inverseApplyToVector(contact.point_W - X.translation());
      system.addBodyForce(body, SpatialForce(r_B.cross(f_B), f_B));
    }
  }
}

void SmoothContact::updateFlowOuts(double /*t*/) {
  detect();
  double deepest = 0.0, normalSum = 0.0, frictionSum = 0.0;
  auto shapeA = scratch(d_.shapeA);
  auto shapeB = scratch(d_.shapeB);
  std::fill(shapeA.begin(), shapeA.end(), std::int64_t{-1});
  std::fill(shapeB.begin(), shapeB.end(), std::int64_t{-1});
  for (std::size_t i = 0; i < contacts_.size(); ++i) {
    const detail::ContactPoint& contact = contacts_[i];
    const Response r = respond(contact);
    const auto k = static_cast<Eigen::Index>(i);
    shapeA[i] = contact.shapeA;
    shapeB[i] = contact.shapeB;
    scratch(d_.penetrations)[k] = contact.depth;
    scratch(d_.pointX)[k] = contact.point_W.x();
    scratch(d_.pointY)[k] = contact.point_W.y();
    scratch(d_.pointZ)[k] = contact.point_W.z();
    scratch(d_.normalX)[k] = contact.normal_W.x();
    scratch(d_.normalY)[k] = contact.normal_W.y();
    scratch(d_.normalZ)[k] = contact.normal_W.z();
    scratch(d_.forceX)[k] = r.force_W.x();
    scratch(d_.forceY)[k] = r.force_W.y();
    scratch(d_.forceZ)[k] = r.force_W.z();
    deepest = std::max(deepest, contact.depth);
    normalSum += r.normalForce;
    frictionSum += (r.force_W - r.normalForce * contact.normal_W).norm();
  }
  out(d_.contactCount) = static_cast<double>(contacts_.size());
  out(d_.maxPenetration) = deepest;
  out(d_.normalForce) = normalSum;
  out(d_.frictionForce) = frictionSum;
}

void SmoothContact::endIntegrationStep(double t0, double t1) {
  // The contacts at the accepted end state: advance each one's stretch over the step, then store
  // the live ones in key order (contacts_ is sorted by key), which forgets the separated ones.
  // Every stretch is read before the table is overwritten.
  detect();
  nextSlip_.clear();
  for (const detail::ContactPoint& contact : contacts_) {
    const Response r = respond(contact);
    nextSlip_.push_back(r.normalForce > 0.0
                            ? advanceSlip(r.coefficients, r.friction, r.normalForce,
                                          storedSlip(contact.key()), r.tangentialVelocity,
                                          contact.normal_W, t1 - t0)
                            : Vector3(Vector3::Zero()));
  }
  auto keys = state(d_.contactKeys);
  std::fill(keys.begin(), keys.end(), std::int64_t{-1});
  state(d_.liveContacts) = static_cast<std::int64_t>(contacts_.size());
  for (std::size_t i = 0; i < contacts_.size(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    keys[i] = contacts_[i].key();
    state(d_.slipX)[row] = nextSlip_[i].x();
    state(d_.slipY)[row] = nextSlip_[i].y();
    state(d_.slipZ)[row] = nextSlip_[i].z();
  }
}

}  // namespace hopsim::models
