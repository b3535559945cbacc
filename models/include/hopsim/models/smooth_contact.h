#pragma once
/// @file
/// SmoothContact: penalty (SMC) contact between the collision shapes of a multibody system.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/events.h"
#include "hopsim/core/zero_crossing.h"
#include "hopsim/models/collision_shape.h"
#include "hopsim/models/contact_law.h"
#include "hopsim/models/contact_material.h"

namespace hopsim::models {

namespace detail {
class CollisionWorld;
struct ContactPoint;
}  // namespace detail

/// SmoothContact's equations, conventions and choices: docs/models/SmoothContact.md.
class SmoothContact final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> law = param<std::string>("law")
                                    .defaultValue(std::string("HERTZ"))
                                    .describe("the normal law: HERTZ or HOOKE (any case)");
    ParamKey<bool> useMaterialProperties =
        param<bool>("use_material_properties")
            .defaultValue(true)
            .describe(
                "stiffness and damping from Young's modulus, Poisson's ratio and the "
                "restitution (true) or from the materials' coefficients (false)");
    ParamKey<double> characteristicVelocity =
        param<double>("characteristic_velocity")
            .unit("m/s")
            .defaultValue(1.0)
            .above(0.0)
            .describe("the impact speed HOOKE with material properties is sized for");
    ParamKey<double> defaultEffectiveRadius =
        param<double>("default_effective_radius")
            .unit("m")
            .defaultValue(0.2)
            .above(0.0)
            .describe("R* of pairs without a sphere or capsule (Chrono's YAML default 0.2)");
    ParamKey<bool> collideJoined =
        param<bool>("collide_joined")
            .defaultValue(false)
            .describe("let bodies joined by a hinge or a constraint collide with each other");
    ParamKey<std::int64_t> maxContacts =
        param<std::int64_t>("max_contacts")
            .defaultValue(std::int64_t{256})
            .min(1.0)
            .describe("the capacity of the contact table: more simultaneous contacts is an error");
    DiscreteStateKey<IntVector> contactKeys =
        discreteState<IntVector>("contact_keys")
            .length("max_contacts")
            .defaultValue(std::int64_t{-1})
            .describe("the live contacts' keys (shape a, shape b, feature), ascending; -1 unused");
    DiscreteStateKey<std::int64_t> liveContacts =
        discreteState<std::int64_t>("live_contacts")
            .defaultValue(std::int64_t{0})
            .describe("how many leading rows of the contact table are live");
    DiscreteStateKey<Eigen::VectorXd> slipX =
        discreteState<Eigen::VectorXd>("slip_x")
            .length("max_contacts")
            .unit("m")
            .defaultValue(0.0)
            .describe("x of each live contact's tangential stretch ξ (world)");
    DiscreteStateKey<Eigen::VectorXd> slipY = discreteState<Eigen::VectorXd>("slip_y")
                                                  .length("max_contacts")
                                                  .unit("m")
                                                  .defaultValue(0.0)
                                                  .describe("y of ξ");
    DiscreteStateKey<Eigen::VectorXd> slipZ = discreteState<Eigen::VectorXd>("slip_z")
                                                  .length("max_contacts")
                                                  .unit("m")
                                                  .defaultValue(0.0)
                                                  .describe("z of ξ");
    OutKey<double> contactCount =
        flowOut<double>("contact_count").noFeedThrough().describe("the number of contact points");
    OutKey<double> maxPenetration = flowOut<double>("max_penetration")
                                        .unit("m")
                                        .noFeedThrough()
                                        .describe("the deepest penetration (0 without contact)");
    OutKey<double> normalForce = flowOut<double>("normal_force")
                                     .unit("N")
                                     .noFeedThrough()
                                     .describe("the sum of the normal force magnitudes");
    OutKey<double> frictionForce = flowOut<double>("friction_force")
                                       .unit("N")
                                       .noFeedThrough()
                                       .describe("the sum of the friction force magnitudes");
    ScratchKey<IntVector> shapeA =
        scratch<IntVector>("shape_a")
            .length("max_contacts")
            .defaultValue(std::int64_t{-1})
            .describe("per contact (at the last output update): shape a, -1 unused");
    ScratchKey<IntVector> shapeB = scratch<IntVector>("shape_b")
                                       .length("max_contacts")
                                       .defaultValue(std::int64_t{-1})
                                       .describe("shape b (the contact pushes b along the normal)");
    ScratchKey<Eigen::VectorXd> penetrations = scratch<Eigen::VectorXd>("penetration")
                                                   .length("max_contacts")
                                                   .unit("m")
                                                   .defaultValue(0.0)
                                                   .describe("δ");
    ScratchKey<Eigen::VectorXd> pointX =
        scratch<Eigen::VectorXd>("point_x")
            .length("max_contacts")
            .unit("m")
            .defaultValue(0.0)
            .describe("x of the contact point (world), midway between the surfaces");
    ScratchKey<Eigen::VectorXd> pointY = scratch<Eigen::VectorXd>("point_y")
                                             .length("max_contacts")
                                             .unit("m")
                                             .defaultValue(0.0)
                                             .describe("y");
    ScratchKey<Eigen::VectorXd> pointZ = scratch<Eigen::VectorXd>("point_z")
                                             .length("max_contacts")
                                             .unit("m")
                                             .defaultValue(0.0)
                                             .describe("z");
    ScratchKey<Eigen::VectorXd> normalX = scratch<Eigen::VectorXd>("normal_x")
                                              .length("max_contacts")
                                              .defaultValue(0.0)
                                              .describe("x of the unit normal from a to b (world)");
    ScratchKey<Eigen::VectorXd> normalY =
        scratch<Eigen::VectorXd>("normal_y").length("max_contacts").defaultValue(0.0).describe("y");
    ScratchKey<Eigen::VectorXd> normalZ =
        scratch<Eigen::VectorXd>("normal_z").length("max_contacts").defaultValue(0.0).describe("z");
    ScratchKey<Eigen::VectorXd> forceX =
        scratch<Eigen::VectorXd>("force_x")
            .length("max_contacts")
            .unit("N")
            .defaultValue(0.0)
            .describe("x of the contact force on b (world; -force acts on a)");
    ScratchKey<Eigen::VectorXd> forceY = scratch<Eigen::VectorXd>("force_y")
                                             .length("max_contacts")
                                             .unit("N")
                                             .defaultValue(0.0)
                                             .describe("y");
    ScratchKey<Eigen::VectorXd> forceZ = scratch<Eigen::VectorXd>("force_z")
                                             .length("max_contacts")
                                             .unit("N")
                                             .defaultValue(0.0)
                                             .describe("z");
  };
  static const Declaration& declaration();

  explicit SmoothContact(std::string name);
  ~SmoothContact() override;

  /// Adds a material; returns its index for CollisionShape::material.
  /// @throws InputError for a duplicate name or a value out of range (checkContactMaterial).
  int addMaterial(std::string name, const ContactMaterial& material);
  /// Adds a shape; returns its index. Its body is resolved at lock().
  /// @throws InputError for an unknown material index or a non-positive size.
  int addShape(CollisionShape shape);
  /// Bodies `a` and `b` never collide with each other.
  void excludePair(std::string a, std::string b);

  const std::vector<CollisionShape>& shapes() const { return shapes_; }
  const std::vector<std::pair<std::string, ContactMaterial>>& materials() const {
    return materials_;
  }

  /// The shape pairs that may touch (on different bodies, not both static, not excluded), as
  /// shape index pairs a < b. After lock().
  std::vector<std::pair<int, int>> candidatePairs() const;
  /// The signed gap between shapes a and b in the current state (m): their distance apart, or
  /// minus their deepest penetration. After lock(); reads the multibody kinematics.
  double signedGap(int a, int b) const;

  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;
  void endIntegrationStep(double t0, double t1) override;

 protected:
  /// @throws ModelError for a shape on an unknown body (with a suggestion) or a half space on
  /// a body that moves.
  void attach(MultibodySystem& system) override;

 private:
  /// What one contact does at the current state.
  struct Response {
    spatial::Vector3 force_W;             ///< on body b (N)
    double normalForce;                   ///< Fₙ (N)
    spatial::Vector3 tangentialVelocity;  ///< of b relative to a at the point (m/s)
    ContactCoefficients coefficients;
    double friction;  ///< the pair's μ
  };
  Response respond(const detail::ContactPoint& contact) const;
  /// The stored stretch of a live contact (zero for a new one).
  spatial::Vector3 storedSlip(std::int64_t key) const;
  void detect();
  void checkCapacity() const;

  const Declaration& d_ = declaration();
  std::vector<std::pair<std::string, ContactMaterial>> materials_;
  std::vector<CollisionShape> shapes_;
  std::vector<std::pair<std::string, std::string>> excludedNames_;
  // Resolved at attach():
  std::vector<int> shapeBodies_;
  std::vector<double> bodyMass_;  // +inf for static bodies
  std::vector<bool> staticBody_;
  std::vector<CompositeMaterial> pairMaterials_;  // materials x materials
  // signedGap(), const, places the two shapes it measures in the world: scratch, not state.
  std::unique_ptr<detail::CollisionWorld> world_;
  std::vector<detail::ContactPoint> contacts_;
  std::vector<spatial::Vector3> nextSlip_;  // endIntegrationStep's new stretches
  ContactLawOptions options_;
};

/// Makes contact onset and separation events (docs/contact.md, "Event-accurate contact"): one
/// zero-crossing condition per candidate shape pair, named "<model>:<a>-<b>" by shape index,
/// whose residual is the pair's signed gap, in either direction, so that every hop ends exactly
/// where a contact starts or ends and the integrator restarts there. `onEvent`, if given, is
/// called at each. Call it after lock(), between hops; the conditions are as many as the
/// candidate pairs, which suits a few bodies rather than a pile.
/// @throws ModelError before lock(); InputError from registerZeroCrossing.
void registerContactEvents(Simulation& sim, SmoothContact& contact, EventCallback onEvent = {},
                           ZeroCrossingOptions options = {});

}  // namespace hopsim::models
