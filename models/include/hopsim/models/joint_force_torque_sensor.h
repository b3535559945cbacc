#pragma once
/// @file
/// JointForceTorqueSensor: the force and torque a hinge transmits between its two bodies
/// (GeneralSGModels::JointForceTorqueSensor).

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Senses the spatial force the hinge of the attached body transmits (seed 29.15), from the
/// multibody system's inter-body forces (MultibodySystem::hingeForces: Newton-Euler of the
/// outboard subtree with the applied and constraint forces). senseMode BODY reports the force
/// and torque the parent exerts on the body, PARENT the reaction the body exerts on its parent
/// (their negatives); both about the hinge's outboard frame origin Mo and expressed in the
/// outboard frame M (the seed's 'p-node'). Unlike the seed, which reports only the constraint
/// part, the torque and force include the joint's free directions, so their projection on the
/// hinge axes is the hinge's generalized force (a motor's torque on a PIN). The values come
/// from the last derivative evaluation: updated at every POSTDERIV sweep, and at a hop end
/// they belong to the accepted state only with Simulation::setBonusDerivativeEvaluation(true).
/// The whole hinge is sensed: attach with subhinge -1.
class JointForceTorqueSensor final : public EncoderModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> senseMode =
        param<std::string>("senseMode")
            .defaultValue(std::string("BODY"))
            .describe(
                "BODY: the parent's force on the body; PARENT: the body's force on its parent");
    OutKey<Eigen::VectorXd> force =
        flowOut<Eigen::VectorXd>("force").length(3).unit("N").noFeedThrough().describe(
            "joint force, in M");
    OutKey<Eigen::VectorXd> torque =
        flowOut<Eigen::VectorXd>("torque").length(3).unit("N*m").noFeedThrough().describe(
            "joint torque about Mo, in M");
  };
  static const Declaration& declaration();

  explicit JointForceTorqueSensor(std::string name)
      : EncoderModel(std::move(name), declaration()) {}
  /// @throws InputError for a senseMode other than BODY or PARENT.
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError for a subhinge attachment.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  double sign_ = 1.0;  // +1 BODY, -1 PARENT
};

}  // namespace hopsim::models
