#pragma once
/// @file
/// The DartsModel family: continuous models connected to the multibody system — actuators and
/// sensors on nodes, motors and encoders on hinges (DESIGN.md section 5; docs/model-authors.md).

#include <Eigen/Core>
#include <string>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/multibody_system.h"

namespace hopsim {

/// A ContinuousModel with direct inputs to or outputs from the multibody system (seed
/// 1.2.1.1.3.3.2). Besides the continuous methods it may compute masked coordinates and run-time
/// mass or kinematic changes in maskedCoordinates, which the executive calls for every active
/// DartsModel at the sweeps of its declared masking granularity
/// (ModelSpec::setMaskingGranularity), before positions and velocities are computed.
class DartsModel : public ContinuousModel {
 protected:
  DartsModel(std::string name, const ModelSpec& spec)
      : DartsModel(std::move(name), spec, ModelKind::Darts) {}
  DartsModel(std::string name, const ModelSpec& spec, ModelKind classKind)
      : ContinuousModel(std::move(name), spec, classKind) {}

  /// The simulation's multibody system. @throws ModelError before the simulation is locked.
  MultibodySystem& multibody() const;

  /// Resolves the model's attachment by name against the tree being locked; overrides call
  /// this base last. @throws ModelError naming the model and the missing body, node or
  /// subhinge.
  virtual void attach(MultibodySystem& system);

 private:
  friend class Simulation;
  MultibodySystem* multibody_ = nullptr;
};

/// A DartsModel fixed to a node: the common part of ActuatorModel and SensorModel.
class NodeModel : public DartsModel {
 public:
  /// Attaches the model to the node called `node` (resolved at lock()).
  void attachToNode(std::string node) { nodeName_ = std::move(node); }
  /// The node's name ("" until attached).
  const std::string& nodeName() const { return nodeName_; }

 protected:
  NodeModel(std::string name, const ModelSpec& spec, ModelKind classKind)
      : DartsModel(std::move(name), spec, classKind) {}

  /// The node's index in the tree (after lock()).
  MultibodySystem::NodeIndex node() const { return node_; }
  /// Pose X_WN of the node in W.
  spatial::RigidTransform nodePose() const { return multibody().nodePose(node_); }
  /// Spatial velocity [ω; v_No] of the node in W, expressed in W.
  spatial::SpatialMotion nodeVelocity() const { return multibody().nodeVelocity(node_); }
  /// Acceleration [α; a_No] of the node in W, expressed in W: valid in postDeriv.
  spatial::SpatialMotion nodeAcceleration() const { return multibody().nodeAcceleration(node_); }

 protected:
  void attach(MultibodySystem& system) override;

 private:
  std::string nodeName_;
  MultibodySystem::NodeIndex node_ = -1;
};

/// A DartsModel attached to a body node, where it applies spatial forces (in preDeriv) and
/// senses the node.
class ActuatorModel : public NodeModel {
 protected:
  ActuatorModel(std::string name, const ModelSpec& spec)
      : NodeModel(std::move(name), spec, ModelKind::Actuator) {}

  /// Applies a force (N) at the node origin and a couple (N·m), both expressed in `frame`, for
  /// this derivative evaluation; call from preDeriv.
  void applyForce(const spatial::Vector3& force, const spatial::Vector3& torque,
                  ForceFrame frame = ForceFrame::Node) {
    multibody().addNodeForce(node(), force, torque, frame);
  }
};

/// A DartsModel attached to a body node, where it senses pose, velocity and acceleration; it
/// sets no multibody inputs.
class SensorModel : public NodeModel {
 protected:
  SensorModel(std::string name, const ModelSpec& spec)
      : NodeModel(std::move(name), spec, ModelKind::Sensor) {}
};

/// A DartsModel attached to a hinge or one of its subhinges: the common part of MotorModel and
/// EncoderModel. Its coordinates are the attached subhinge's (or the whole hinge's) Q and U.
class HingeModel : public DartsModel {
 public:
  /// Attaches the model to the hinge of body `body`: the whole hinge (subhinge -1) or one
  /// subhinge (0-based, in chain order). Resolved at lock().
  void attachToHinge(std::string body, int subhinge = -1) {
    bodyName_ = std::move(body);
    subhinge_ = subhinge;
  }
  /// The body whose hinge the model is attached to ("" until attached).
  const std::string& bodyName() const { return bodyName_; }
  /// The attached subhinge, or -1 for the whole hinge.
  int subhinge() const { return subhinge_; }

 protected:
  HingeModel(std::string name, const ModelSpec& spec, ModelKind classKind)
      : DartsModel(std::move(name), spec, classKind) {}

  /// The body index of the hinge (after lock()).
  MultibodySystem::BodyIndex body() const { return body_; }
  /// Number of Q and U entries attached.
  int coordinateCount() const { return nq_; }
  int rateCount() const { return nu_; }
  /// The attached Q, U, and U̇ and generalized forces of the last derivative evaluation (the
  /// forces: applied ones for free entries, needed ones for prescribed entries).
  Eigen::Map<Eigen::VectorXd> coordinates() const { return {multibody().q().data() + q0_, nq_}; }
  Eigen::Map<Eigen::VectorXd> rates() const { return {multibody().u().data() + u0_, nu_}; }
  Eigen::Map<const Eigen::VectorXd> accelerations() const {
    return {multibody().udot().data() + u0_, nu_};
  }
  Eigen::VectorBlock<const Eigen::VectorXd> generalizedForces() const {
    return multibody().generalizedForces().segment(u0_, nu_);
  }
  /// First index of the attached entries in the system Q and U.
  int qStart() const { return q0_; }
  int uStart() const { return u0_; }

 protected:
  void attach(MultibodySystem& system) override;

 private:
  std::string bodyName_;
  int subhinge_ = -1;
  MultibodySystem::BodyIndex body_ = -1;
  int q0_ = 0, nq_ = 0, u0_ = 0, nu_ = 0;
};

/// A DartsModel attached to a hinge or subhinge, where it applies generalized forces or
/// prescribed accelerations (in preDeriv) and senses the subhinge.
class MotorModel : public HingeModel {
 protected:
  MotorModel(std::string name, const ModelSpec& spec)
      : HingeModel(std::move(name), spec, ModelKind::Motor) {}

  /// Adds generalized forces (N·m or N, one per attached U entry) for this evaluation.
  void applyGeneralizedForce(const Eigen::Ref<const Eigen::VectorXd>& f) const;
  /// Sets the accelerations of the attached entries, which must be prescribed or masked.
  void prescribeAcceleration(const Eigen::Ref<const Eigen::VectorXd>& udot) const;
};

/// A DartsModel attached to a hinge or subhinge, where it senses coordinates, rates and
/// accelerations; it sets no multibody inputs.
class EncoderModel : public HingeModel {
 protected:
  EncoderModel(std::string name, const ModelSpec& spec)
      : HingeModel(std::move(name), spec, ModelKind::Encoder) {}
};

}  // namespace hopsim
