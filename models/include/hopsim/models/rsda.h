#pragma once
/// @file
/// Rsda: Chrono's rotational spring-damper-actuator (ChLinkRSDA) between two bodies, with the
/// torque laws of Chrono's YAML parser and a properly unwrapped angle.

#include <cstdint>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Rsda's equations, conventions and choices: docs/models/Rsda.md.
class Rsda final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> node1 =
        param<std::string>("node1").describe("the frame on body1 whose Z axis is the RSDA axis");
    ParamKey<std::string> node2 = param<std::string>("node2").describe(
        "the frame on body2, coinciding with node1 when θ = 0");
    ParamKey<std::string> law = param<std::string>("law")
                                    .defaultValue(std::string("LINEAR"))
                                    .describe("LINEAR, DAMPER, CURVES or DAMPER_CURVE (any case)");
    ParamKey<double> stiffness = param<double>("stiffness")
                                     .unit("N*m/rad")
                                     .defaultValue(0.0)
                                     .min(0.0)
                                     .describe("k (LINEAR)");
    ParamKey<double> damping = param<double>("damping")
                                   .unit("N*m*s/rad")
                                   .defaultValue(0.0)
                                   .min(0.0)
                                   .describe("c (LINEAR, DAMPER)");
    ParamKey<double> freeAngle =
        param<double>("free_angle").unit("rad").defaultValue(0.0).describe("θ0 (LINEAR, CURVES)");
    ParamKey<double> preload =
        param<double>("preload").unit("N*m").defaultValue(0.0).describe("P (LINEAR, CURVES)");
    // A variable-length param cannot be empty (an empty value fixes no length): the default
    // [0, 0] is the zero curve.
    ParamKey<Eigen::VectorXd> springCurve =
        param<Eigen::VectorXd>("spring_curve")
            .length("ns")
            .defaultValue(std::vector<double>{0.0, 0.0})
            .describe(
                "Kt as [x0, y0, x1, y1, ...]: torque (N*m) of θ - θ0 (rad), x strictly "
                "increasing; the default is the zero curve (CURVES)");
    ParamKey<Eigen::VectorXd> dampingCurve =
        param<Eigen::VectorXd>("damping_curve")
            .length("nd")
            .defaultValue(std::vector<double>{0.0, 0.0})
            .describe(
                "Ct as [x0, y0, x1, y1, ...]: torque (N*m) of θ̇ (rad/s), x strictly "
                "increasing; the default is the zero curve (CURVES, DAMPER_CURVE)");
    ContinuousStateKey<double> angleState =
        continuousState<double>("angle").unit("rad").defaultValue(0.0).describe(
            "θ integrated from θ̇, reset to θ at every integration step: picks the turn");
    OutKey<double> angle = flowOut<double>("angle").unit("rad").noFeedThrough().describe("θ");
    OutKey<double> rate = flowOut<double>("rate").unit("rad/s").noFeedThrough().describe("θ̇");
    OutKey<double> torque = flowOut<double>("torque").unit("N*m").noFeedThrough().describe(
        "T (> 0 turns body2 positively about Z1)");
  };
  static const Declaration& declaration();

  /// The laws, in the order of their names.
  enum class Law : std::uint8_t { Linear, Damper, Curves, DamperCurve };

  explicit Rsda(std::string name) : DartsModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void startIntegrationStep(double t0, double t1) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;
  void postDeriv(double t) override;

 protected:
  /// @throws ModelError for an unknown node or both nodes on one body; InputError for an
  /// unknown law or a malformed curve.
  void attach(MultibodySystem& system) override;

 private:
  /// The current θ, θ̇ and Z1 (in W).
  struct Geometry {
    double angle, rate;
    spatial::Vector3 z1;
  };
  Geometry geometry() const;
  /// T at (θ, θ̇) by the law.
  double torqueAt(double angle, double rate) const;
  /// Parses the law and checks the curves.
  void configure();

  const Declaration& d_ = declaration();
  Law law_ = Law::Linear;
  MultibodySystem::NodeIndex node1_ = -1, node2_ = -1;
};

}  // namespace hopsim::models
