#pragma once
/// @file
/// MultibodySystem: the multibody engine as the executive runs it — the tree, its coordinates
/// Q and U as part of the continuous state X, the inputs models set in preDeriv and the
/// results they read in postDeriv (docs/multibody.md, "In a simulation").

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hopsim/core/multibody/constraint_set.h"
#include "hopsim/core/multibody/constraints.h"
#include "hopsim/core/multibody/multibody_data.h"
#include "hopsim/core/multibody/multibody_model.h"
#include "hopsim/signals/buffer.h"

namespace hopsim {

class Simulation;
class StateVector;
class VariableTree;

/// The frame a force or torque applied at a node is expressed in.
enum class ForceFrame : std::uint8_t {
  Node,   ///< the node frame N
  Body,   ///< the frame B of the body the node is fixed on
  World,  ///< the world frame W
};

/// The multibody system of one Simulation (Simulation::multibody()).
///
/// Structure — bodies, hinges, nodes, which coordinates are prescribed or masked — changes only
/// while the simulation is unlocked; lock() sizes Q and U (keeping the values of bodies that
/// existed before, by name), adds their free elements to X and resolves the DartsModels'
/// attachments. Mass properties and gravity may change at any time and act at the next
/// derivative evaluation; U is left as it is.
///
/// Per derivative evaluation the executive: clears the inputs (forces, prescribed
/// accelerations), runs the DartsModels' maskedCoordinates, computes positions and velocities,
/// runs preDeriv (actuators and motors add inputs), computes the dynamics (U̇, Q̇, the
/// generalized forces of prescribed coordinates, accelerations), then runs postDeriv (sensors
/// read them).
class MultibodySystem {
 public:
  using BodyIndex = multibody::BodyIndex;
  using NodeIndex = multibody::NodeIndex;

  MultibodySystem();
  ~MultibodySystem();
  MultibodySystem(const MultibodySystem&) = delete;
  MultibodySystem& operator=(const MultibodySystem&) = delete;

  // ---- structure ---------------------------------------------------------------------------

  /// The tree.
  const multibody::MultibodyModel& model() const { return model_; }
  /// The tree for building (addBody, addNode, setPrescribed, ...).
  /// @throws ModelError while the simulation is locked.
  multibody::MultibodyModel& editModel();
  /// Whether there is any body besides the world.
  bool hasBodies() const { return model_.bodyCount() > 1; }
  /// How many elements Q and U add to the simulation's state X: those not masked (after lock()).
  Eigen::Index stateCount() const;
  /// Replaces body b's mass properties (about Bo, in B); allowed at any time, also from a
  /// DartsModel's maskedCoordinates. @throws InputError as MultibodyModel::setMassProperties.
  void setMassProperties(BodyIndex b, const spatial::SpatialInertia& M_BBo_B);
  /// Sets the uniform gravity g_W (m/s², in W); allowed at any time.
  void setGravity(const spatial::Vector3& g_W) { model_.setGravity(g_W); }

  /// Masks (true) or unmasks the Q and U of subhinge `subhinge` of body b's hinge (-1: every
  /// subhinge). Masked coordinates are not integrated: DartsModels set them in
  /// maskedCoordinates. Masking also makes the subhinge prescribed in the dynamics (its U̇
  /// from setPrescribedAcceleration, zero unless set); unmasking makes it free again. While
  /// unlocked; a mask goes away with its body. @throws InputError for a bad body or subhinge;
  /// ModelError when locked.
  void setMasked(BodyIndex b, int subhinge, bool masked);

  /// The closed-loop and extra constraints (cut joints, DISTANCE, REVOLUTE-SPHERICAL,
  /// REVOLUTE-TRANSLATIONAL) on the tree's bodies.
  const multibody::ConstraintSet& constraints() const { return constraints_; }
  /// The constraints for adding to, made for the tree as it is now: an empty set follows the
  /// tree; a non-empty one must be cleared (clearConstraints) before the tree changes.
  /// @throws ModelError while the simulation is locked.
  multibody::ConstraintSet& editConstraints();
  /// Removes every constraint. @throws ModelError while locked.
  void clearConstraints();
  /// Drift projection after every integration sub-step: Q onto φ(Q) = 0 to `positionTolerance`
  /// (largest |φ|, m) in at most `maxIterations` Gauss-Newton steps, then U onto G U = 0 to
  /// `velocityTolerance`. Defaults 1e-12, 1e-12 and 20. @throws InputError unless the
  /// tolerances are finite and positive and maxIterations >= 1.
  void setProjection(double positionTolerance, double velocityTolerance, int maxIterations);
  /// The constraint residuals, Jacobian, multipliers and reaction forces of the last
  /// derivative evaluation (see ConstraintData). @throws ModelError without constraints.
  const multibody::ConstraintData& constraintData() const;

  // ---- coordinates -------------------------------------------------------------------------

  /// The system Q (nq entries) and U (nu entries). They follow the model's layout: after the
  /// tree changes, the values of bodies that keep their name and hinge type are kept, others
  /// start neutral (Q) and at rest (U). The const versions throw ModelError when the tree has
  /// changed since Q and U were last sized (the non-const ones resize them).
  Eigen::Map<Eigen::VectorXd> q();
  Eigen::Map<Eigen::VectorXd> u();
  Eigen::Map<const Eigen::VectorXd> q() const;
  Eigen::Map<const Eigen::VectorXd> u() const;
  /// Body b's hinge coordinates and rates (views into q() and u()).
  Eigen::Map<Eigen::VectorXd> q(BodyIndex b);
  Eigen::Map<Eigen::VectorXd> u(BodyIndex b);
  /// Q̇ and U̇ of the last derivative evaluation.
  Eigen::Map<const Eigen::VectorXd> qdot() const;
  Eigen::Map<const Eigen::VectorXd> udot() const;
  /// The generalized forces of the last derivative evaluation: for free entries the applied
  /// ones, for prescribed and masked entries the force their motion needed.
  const Eigen::VectorXd& generalizedForces() const { return data().tau; }

  // ---- inputs, from preDeriv (cleared at the start of every derivative evaluation) ----------

  /// Adds a force (N) acting at node n's origin and a couple (N·m), both expressed in `frame`.
  void addNodeForce(NodeIndex n, const spatial::Vector3& force, const spatial::Vector3& torque,
                    ForceFrame frame);
  /// Adds a spatial force on body b, about its origin Bo, expressed in B.
  void addBodyForce(BodyIndex b, const spatial::SpatialForce& F_BBo_B);
  /// Adds a generalized force to U entry k (N·m or N). @throws InputError for a bad k.
  void addGeneralizedForce(int k, double f);
  /// Sets the acceleration U̇ of a prescribed or masked U entry k.
  /// @throws InputError for a bad k or a free entry.
  void setPrescribedAcceleration(int k, double udot);

  // ---- results -----------------------------------------------------------------------------

  /// The kinematics and dynamics of the current state (see MultibodyData).
  const multibody::MultibodyData& data() const { return *data_; }
  /// Pose X_WN of node n in W.
  spatial::RigidTransform nodePose(NodeIndex n) const;
  /// Spatial velocity of node n in W: [ω; v_No] (rad/s; m/s), expressed in W.
  spatial::SpatialMotion nodeVelocity(NodeIndex n) const;
  /// The spatial force each hinge transmits from parent to child in the last derivative
  /// evaluation, about its outboard frame origin Mo, expressed in M (index 0, the world, is
  /// zero): joint forces of the tree, with the applied forces and the constraint forces on each
  /// body accounted for. Computed on each call, from postDeriv on. Does not allocate.
  const std::vector<spatial::SpatialForce>& hingeForces();
  /// The whole system's kinetic and potential energy (J; the potential of the uniform gravity,
  /// zero at the world origin), mass (kg), CM in W (m), linear momentum (kg·m/s) and angular
  /// momentum about Wo (kg·m²/s) in W, at the current Q and U: the energy.h fields of the
  /// result. Computed in a workspace of its own, so the dynamics' data is not touched; computed
  /// again only when Q, U, the mass properties (MultibodyModel::massPropertiesRevision) or the
  /// gravity changed. After lock(); does not allocate.
  const multibody::MultibodyData& energyAndMomentum() const;
  /// How many times energyAndMomentum() has computed the energies rather than returned the
  /// cached ones: a statistic, like Simulation's derivativeEvaluations.
  std::uint64_t energyEvaluations() const { return energyEvaluations_; }
  /// The forward kinematics (poses X_WB, velocities V_WB_B) at the current Q and U, in the same
  /// workspace as energyAndMomentum(); computed again only when Q or U changed. After lock();
  /// does not allocate.
  const multibody::MultibodyData& kinematicsNow() const;
  /// How many times the executive has computed the dynamics workspace's kinematics (data()'s
  /// X_WB and V_WB_B) rather than kept those of the same Q and U: a statistic. With rk4 that is
  /// four per sub-step (three stages and the end state) where the sweeps ask for nine.
  std::uint64_t kinematicsEvaluations() const { return kinematicsEvaluations_; }
  /// Acceleration of node n in W after the dynamics: [α; a_No], the angular acceleration and
  /// the second time derivative of No's position (rad/s²; m/s²), expressed in W.
  spatial::SpatialMotion nodeAcceleration(NodeIndex n) const;

 private:
  friend class Simulation;

  // Called by the executive (simulation_multibody.cpp).
  void setLocked(bool locked) { locked_ = locked; }
  /// Sizes Q/U and the workspaces for the current tree, sets the prescribed flags the dynamics
  /// uses, and registers the variables. Called by lock().
  void prepare(VariableTree& variables);
  void addStates(StateVector& states);
  void clearInputs();
  void computeKinematics();
  void computeDynamics();
  /// After an integration sub-step: renormalizes the quaternions and projects Q and U onto the
  /// constraints.
  void endIntegrationStep();
  /// Everything a derivative evaluation writes in the system: Q and U (masked coordinates are
  /// prescribed there), their rates, the inputs, the mass properties (models may set them per
  /// evaluation) and the kinematics, dynamics and constraint workspaces.
  struct EvaluationState {
    Buffer q{ElementType::Double, 0};
    Buffer u{ElementType::Double, 0};
    Buffer qdot{ElementType::Double, 0};
    Buffer udot{ElementType::Double, 0};
    Eigen::VectorXd tau;
    Eigen::VectorXd udotPrescribed;
    std::vector<spatial::SpatialForce> forces;
    std::vector<spatial::SpatialForce> loads;
    std::vector<spatial::SpatialForce> hingeForces;
    std::vector<spatial::SpatialInertia> massProperties;
    std::optional<multibody::MultibodyData> data;
    std::optional<multibody::ConstraintData> constraintData;
  };
  /// Copies the evaluation state into `into` (allocating on first use, or after a relock).
  void saveEvaluationState(EvaluationState& into) const;
  /// Puts back a state saved since the last lock, in place.
  void restoreEvaluationState(const EvaluationState& from);
  /// Registers the read-only variables computed from Q and U (energies, poses, velocities).
  void addComputedVariables(VariableTree& variables);
  void requireQuantityData(const char* what) const;
  /// The Q and U a workspace's kinematics (X_WB, V_WB_B) were computed for, so that a state
  /// seen again costs a comparison instead of the recursion. Sized once: no allocation after.
  class KinematicsKey {
   public:
    bool matches(const Eigen::Ref<const Eigen::VectorXd>& q,
                 const Eigen::Ref<const Eigen::VectorXd>& u) const {
      // The sizes differ after a tree edit, until the next lock() rebuilds the workspace.
      return valid_ && q_.size() == q.size() && u_.size() == u.size() && q_.cwiseEqual(q).all() &&
             u_.cwiseEqual(u).all();
    }
    void record(const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& u) {
      q_ = q;
      u_ = u;
      valid_ = true;
    }
    /// The workspace was written by something else (a restore, a projection, a rebuild).
    void invalidate() { valid_ = false; }

   private:
    Eigen::VectorXd q_;
    Eigen::VectorXd u_;
    bool valid_ = false;
  };
  void checkU(int k, const char* what) const;
  bool layoutCurrent() const;
  void checkLayoutCurrent(const char* what) const;
  /// Resizes Q, U and their derivatives to the model, keeping values by body name.
  void syncLayout();

  multibody::MultibodyModel model_;
  std::unique_ptr<multibody::MultibodyData> data_;
  KinematicsKey dataKinematics_;
  std::uint64_t kinematicsEvaluations_ = 0;
  // The workspace of energyAndMomentum() and kinematicsNow(), and the Q and U its kinematics
  // were computed for.
  mutable std::unique_ptr<multibody::MultibodyData> quantityData_;
  mutable KinematicsKey quantityKinematics_;
  // What the workspace's energies were computed with besides those Q and U; energiesValid_ is
  // false until they are computed and again whenever kinematicsNow() moves the kinematics.
  mutable bool energiesValid_ = false;
  mutable std::uint64_t energiesMassRevision_ = 0;
  mutable spatial::Vector3 energiesGravity_ = spatial::Vector3::Zero();
  mutable std::uint64_t energyEvaluations_ = 0;
  multibody::ConstraintSet constraints_{model_};
  std::unique_ptr<multibody::ConstraintData> constraintData_;  // when there are constraints
  double positionTolerance_ = 1e-12;
  double velocityTolerance_ = 1e-12;
  int projectionIterations_ = 20;
  bool locked_ = false;
  // Q, U and their derivatives as Buffers: the StateVector maps X onto them.
  Buffer q_{ElementType::Double, 0};
  Buffer u_{ElementType::Double, 0};
  Buffer qdot_{ElementType::Double, 0};
  Buffer udot_{ElementType::Double, 0};
  // The layout Q and U were last sized for, to carry values across tree edits.
  struct LayoutEntry {
    std::string body;
    multibody::HingeType hinge;
    int qStart, nq, uStart, nu;
  };
  std::vector<LayoutEntry> layout_;
  // Masks: (body name, subhinge or -1).
  std::vector<std::pair<std::string, int>> masks_;
  std::vector<unsigned char> maskedU_;  // per U entry, set by prepare()
  std::vector<unsigned char> maskedQ_;  // per Q entry
  // Inputs of the current evaluation.
  Eigen::VectorXd tau_;
  Eigen::VectorXd udotPrescribed_;
  std::vector<spatial::SpatialForce> forces_;  // per body, about Bo in B
  std::vector<spatial::SpatialForce> loads_;   // forces_ plus the constraint forces
  std::vector<spatial::SpatialForce> hingeForces_;
  std::vector<std::string> variablePaths_;
};

}  // namespace hopsim
