#pragma once
/// @file
/// Locomotion: splits a rover motion command into sub-moves, one per I/O step.

#include <Eigen/Geometry>
#include <cstdint>
#include <vector>

#include "hopsim/core/flow_model.h"

namespace hopsim::models {

/// Locomotion's equations, conventions and choices: docs/models/Locomotion.md.
class Locomotion final : public FlowModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> stepDist = param<double>("step_dist")
                                    .unit("m")
                                    .defaultValue(0.1)
                                    .above(0.0)
                                    .describe("longest sub-move of a move (path length)");
    ParamKey<double> stepAngle = param<double>("step_angle")
                                     .unit("rad")
                                     .defaultValue(0.1)
                                     .above(0.0)
                                     .describe("largest heading change of a turn-in-place step");
    ParamKey<double> pivotOffsetX =
        param<double>("pivot_offset_x")
            .unit("m")
            .defaultValue(0.0)
            .describe("the pivot's offset from the chassis origin along the forward direction");
    ParamKey<Eigen::VectorXd> lookMoveDirection =
        param<Eigen::VectorXd>("look_move_direction")
            .length(2)
            .defaultValue(std::vector<double>{1.0, 0.0})
            .describe("world x/y direction of forward motion at heading 0 (non-zero)");

    InKey<std::int64_t> mode =
        flowIn<std::int64_t>("mode").describe("0 turn in place, 1 forward, -1 reverse");
    InKey<double> radius = flowIn<double>("radius").unit("m").describe(
        "turn radius of a move: 0 straight, > 0 left, < 0 right");
    InKey<double> distance =
        flowIn<double>("distance").unit("m").describe("path length of a move (its magnitude)");
    InKey<double> angle =
        flowIn<double>("angle").unit("rad").describe("heading change of a turn in place, + left");
    InKey<double> xpos = flowIn<double>("xpos").unit("m").describe("current chassis x");
    InKey<double> ypos = flowIn<double>("ypos").unit("m").describe("current chassis y");
    InKey<double> headingIn = flowIn<double>("heading_in").unit("rad").describe("current heading");

    DiscreteStateKey<bool> hasCommand =
        discreteState<bool>("has_command").defaultValue(false).describe("a command has been read");
    DiscreteStateKey<std::int64_t> commandMode = discreteState<std::int64_t>("command_mode")
                                                     .defaultValue(std::int64_t{0})
                                                     .describe("mode of the command in progress");
    DiscreteStateKey<double> commandRadius =
        discreteState<double>("command_radius").unit("m").defaultValue(0.0).describe("its radius");
    DiscreteStateKey<double> commandDistance = discreteState<double>("command_distance")
                                                   .unit("m")
                                                   .defaultValue(0.0)
                                                   .describe("its distance");
    DiscreteStateKey<double> commandAngle =
        discreteState<double>("command_angle").unit("rad").defaultValue(0.0).describe("its angle");
    DiscreteStateKey<double> accumDist = discreteState<double>("accum_dist")
                                             .unit("m")
                                             .defaultValue(0.0)
                                             .describe("path length commanded so far");
    DiscreteStateKey<double> accumAngle = discreteState<double>("accum_angle")
                                              .unit("rad")
                                              .defaultValue(0.0)
                                              .describe("turn commanded so far (magnitude)");
    DiscreteStateKey<std::int64_t> statusState =
        discreteState<std::int64_t>("status")
            .defaultValue(std::int64_t{1})
            .describe("0 moving, 1 done (ready for a new command)");
    DiscreteStateKey<double> targetX =
        discreteState<double>("target_x").unit("m").defaultValue(0.0).describe("commanded x");
    DiscreteStateKey<double> targetY =
        discreteState<double>("target_y").unit("m").defaultValue(0.0).describe("commanded y");
    DiscreteStateKey<double> targetHeading = discreteState<double>("target_heading")
                                                 .unit("rad")
                                                 .defaultValue(0.0)
                                                 .describe("commanded heading");
    DiscreteStateKey<std::int64_t> directionState =
        discreteState<std::int64_t>("direction")
            .defaultValue(std::int64_t{0})
            .describe("+1 forward or left turn in place, -1 reverse or right, 0 none");

    OutKey<double> x =
        flowOut<double>("x").unit("m").noFeedThrough().describe("commanded chassis x");
    OutKey<double> y =
        flowOut<double>("y").unit("m").noFeedThrough().describe("commanded chassis y");
    OutKey<double> heading =
        flowOut<double>("heading").unit("rad").noFeedThrough().describe("commanded heading");
    OutKey<std::int64_t> direction =
        flowOut<std::int64_t>("direction")
            .noFeedThrough()
            .describe("+1 forward or left turn in place, -1 reverse or right, 0 none");
    OutKey<std::int64_t> status = flowOut<std::int64_t>("status").noFeedThrough().describe(
        "0 moving, 1 done (ready for a new command)");
  };
  static const Declaration& declaration();

  explicit Locomotion(std::string name) : FlowModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void startIoStep(double tStart, double tEnd) override;
  void updateFlowOuts(double t) override;

 private:
  /// Resets the accumulators when the inputs carry a command other than the stored one.
  void acceptCommand();
  /// Commands the pose one sub-move further from (x, y, h).
  void stepMove(double x, double y, double h);
  void stepTurn(double x, double y, double h);
  /// f(h), the forward unit vector at heading h.
  Eigen::Vector2d forward(double h) const;

  const Declaration& d_ = declaration();
  Eigen::Vector2d lookDirection_ = Eigen::Vector2d::UnitX();  // d̂, from the param
};

}  // namespace hopsim::models
