#pragma once
/// @file
/// Tsda: Chrono's translational spring-damper-actuator (ChLinkTSDA) between points on two
/// bodies, with the force laws of Chrono's YAML parser.

#include <cstdint>
#include <limits>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Tsda's equations, conventions and choices: docs/models/Tsda.md.
class Tsda final : public DartsModel {
 public:
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> node1 =
        param<std::string>("node1").describe("the node on body1 whose origin is point1");
    ParamKey<std::string> node2 =
        param<std::string>("node2").describe("the node on body2 whose origin is point2");
    ParamKey<std::string> law =
        param<std::string>("law")
            .defaultValue(std::string("LINEAR"))
            .describe("LINEAR, DAMPER, DEGRESSIVE, CURVES, DAMPER_CURVE or MAP (any case)");
    ParamKey<double> stiffness =
        param<double>("stiffness").unit("N/m").defaultValue(0.0).min(0.0).describe("k (LINEAR)");
    ParamKey<double> damping =
        param<double>("damping").unit("N*s/m").defaultValue(0.0).min(0.0).describe(
            "c (LINEAR, DAMPER, DEGRESSIVE)");
    ParamKey<double> freeLength =
        param<double>("free_length").unit("m").defaultValue(0.0).describe("L0 (LINEAR, CURVES)");
    ParamKey<double> preload =
        param<double>("preload").unit("N").defaultValue(0.0).describe("P (LINEAR, CURVES, MAP)");
    ParamKey<double> degressivityCompression = param<double>("degressivity_compression")
                                                   .unit("s/m")
                                                   .defaultValue(0.0)
                                                   .min(0.0)
                                                   .describe("dc (DEGRESSIVE, L̇ < 0)");
    ParamKey<double> degressivityExpansion = param<double>("degressivity_expansion")
                                                 .unit("s/m")
                                                 .defaultValue(0.0)
                                                 .min(0.0)
                                                 .describe("de (DEGRESSIVE, L̇ >= 0)");
    // Variable-length params cannot be empty (an empty value fixes no length), so the defaults
    // are the neutral tables: the zero curve [0, 0], the zero map, and infinite limits.
    ParamKey<Eigen::VectorXd> springCurve =
        param<Eigen::VectorXd>("spring_curve")
            .length("ns")
            .defaultValue(std::vector<double>{0.0, 0.0})
            .describe(
                "Kt as [x0, y0, x1, y1, ...]: force (N) of L - L0 (m), x strictly increasing; "
                "the default is the zero curve (CURVES)");
    ParamKey<Eigen::VectorXd> dampingCurve =
        param<Eigen::VectorXd>("damping_curve")
            .length("nd")
            .defaultValue(std::vector<double>{0.0, 0.0})
            .describe(
                "Ct as [x0, y0, x1, y1, ...]: force (N) of L̇ (m/s), x strictly increasing; "
                "the default is the zero curve (CURVES, DAMPER_CURVE)");
    ParamKey<Eigen::VectorXd> mapLengths =
        param<Eigen::VectorXd>("map_lengths")
            .unit("m")
            .length("nl")
            .defaultValue(std::vector<double>{0.0, 1.0})
            .describe("the map's columns: lengths L, strictly increasing, at least 2 (MAP)");
    ParamKey<Eigen::VectorXd> mapSpeeds =
        param<Eigen::VectorXd>("map_speeds")
            .unit("m/s")
            .length("nv")
            .defaultValue(std::vector<double>{0.0, 1.0})
            .describe("the map's rows: speeds L̇, strictly increasing, at least 2 (MAP)");
    ParamKey<Eigen::VectorXd> mapForces =
        param<Eigen::VectorXd>("map_forces")
            .unit("N")
            .length("nf")
            .defaultValue(std::vector<double>{0.0, 0.0, 0.0, 0.0})
            .describe(
                "M row by row: the force at (map_lengths[j], map_speeds[i]) is entry "
                "i * columns + j; the default is the zero map (MAP)");
    ParamKey<Eigen::VectorXd> lengthLimits =
        param<Eigen::VectorXd>("length_limits")
            .unit("m")
            .length(2)
            .defaultValue(std::vector<double>{-kInfinity, kInfinity})
            .describe(
                "[min, max], min < max: the stops; infinite limits (the default) have none "
                "(LINEAR, CURVES)");
    OutKey<double> length = flowOut<double>("length").unit("m").noFeedThrough().describe("L");
    OutKey<double> speed = flowOut<double>("speed").unit("m/s").noFeedThrough().describe("L̇");
    OutKey<double> force = flowOut<double>("force").unit("N").noFeedThrough().describe(
        "F (> 0 pushes the bodies apart)");
  };
  static const Declaration& declaration();

  /// The laws, in the order of their names.
  enum class Law : std::uint8_t { Linear, Damper, Degressive, Curves, DamperCurve, Map };

  explicit Tsda(std::string name) : DartsModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError for an unknown node or both nodes on one body; InputError for bad
  /// params (an unknown law, a malformed curve or map, bad length limits).
  void attach(MultibodySystem& system) override;

 private:
  /// The current geometry: L, L̇ and u (in W).
  struct Geometry {
    double length, speed;
    spatial::Vector3 u;
  };
  Geometry geometry() const;
  /// F at (L, L̇) by the law.
  double forceAt(double length, double speed) const;
  /// The stop force S at L (0 without length limits).
  double stopForce(double length) const;
  /// Parses the law and checks the tables it uses.
  void configure();

  const Declaration& d_ = declaration();
  Law law_ = Law::Linear;
  MultibodySystem::NodeIndex node1_ = -1, node2_ = -1;
};

}  // namespace hopsim::models
