#pragma once
/// @file
/// CmFrameStateSensor: a node's orientation relative to an orbital frame (velocity-aligned,
/// LVLH, UVW or Clohessy-Wiltshire) built at the centre of mass of its body or vehicle from the
/// CM's position and inertial or planet-relative velocity.

#include <string>
#include <utility>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/spatial/rotation.h"

namespace hopsim::models {

/// CmFrameStateSensor's equations, conventions and choices: docs/models/CmFrameStateSensor.md.
class CmFrameStateSensor final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> frameType = param<std::string>("frameType")
                                          .defaultValue(std::string("LVLH"))
                                          .describe("the frame F: VELOCITY_ALIGN, LVLH, UVW or CW");
    ParamKey<std::string> centerOfMassType =
        param<std::string>("centerOfMassType")
            .defaultValue(std::string("COMPOSITE"))
            .describe(
                "the frame origin: FIXED (the node origin), COMPONENT (the CM of the node's "
                "body) or COMPOSITE (the CM of the node's vehicle, the subtree below the world)");
    ParamKey<std::string> velocityReference =
        param<std::string>("velocityReference")
            .defaultValue(std::string("INERTIAL"))
            .describe(
                "INERTIAL: the origin's velocity in W; RELATIVE: relative to the planet frame "
                "rotating at planetRate");
    ParamKey<Eigen::VectorXd> planetRate =
        param<Eigen::VectorXd>("planetRate")
            .length(3)
            .unit("rad/s")
            .defaultValue(0.0)
            .describe("angular velocity of the planet-fixed frame in W, world axes (for RELATIVE)");
    ParamKey<std::string> eulerSequence = param<std::string>("eulerSequence")
                                              .defaultValue(std::string("ZYX"))
                                              .describe("the intrinsic Euler sequence of angles");
    ParamKey<std::string> angleModulo =
        param<std::string>("angleModulo")
            .defaultValue(std::string("MINUS_PI_TO_PI"))
            .describe("range of each output angle: ZERO_TO_TWO_PI or MINUS_PI_TO_PI");

    OutKey<Eigen::VectorXd> quat =
        flowOut<Eigen::VectorXd>("quat").length(4).noFeedThrough().describe(
            "q_FN, the node's attitude relative to F, scalar first, e0 >= 0");
    OutKey<Eigen::VectorXd> angles =
        flowOut<Eigen::VectorXd>("angles").length(3).unit("rad").noFeedThrough().describe(
            "Euler angles of R_FN in eulerSequence, each in the angleModulo range");
    OutKey<Eigen::VectorXd> framePosition = flowOut<Eigen::VectorXd>("framePosition")
                                                .length(3)
                                                .unit("m")
                                                .noFeedThrough()
                                                .describe("origin r of F, world axes");
    OutKey<Eigen::VectorXd> frameVelocity =
        flowOut<Eigen::VectorXd>("frameVelocity")
            .length(3)
            .unit("m/s")
            .noFeedThrough()
            .describe("the velocity v that orients F (inertial or planet-relative), world axes");
  };
  static const Declaration& declaration();

  explicit CmFrameStateSensor(std::string name) : SensorModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

  enum class FrameType { VelocityAlign, Lvlh, Uvw, Cw };
  enum class CenterOfMass { Fixed, Component, Composite };

  /// R_WF of `type` for an origin at r moving at v (world axes).
  /// @throws InputError when r and v do not define the frame (zero or parallel).
  static spatial::Matrix3 frameRotation(FrameType type, const spatial::Vector3& r,
                                        const spatial::Vector3& v);

 private:
  /// The frame origin's position and velocity in W.
  std::pair<spatial::Vector3, spatial::Vector3> originState() const;

  const Declaration& d_ = declaration();
  FrameType frameType_ = FrameType::Lvlh;
  CenterOfMass centerOfMass_ = CenterOfMass::Composite;
  bool relative_ = false;
  bool zeroToTwoPi_ = false;
  spatial::EulerSequence sequence_ = spatial::EulerSequence::ZYX;
};

}  // namespace hopsim::models
