#pragma once
/// @file
/// BekkerWheelSoilContact: a rigid wheel on deformable soil, Bekker-Wong pressure-sinkage with
/// Janosi-Hanamoto shear.

#include "hopsim/core/darts_model.h"
#include "hopsim/models/bekker_wong.h"

namespace hopsim::models {

/// BekkerWheelSoilContact's equations, conventions and choices:
/// docs/models/BekkerWheelSoilContact.md.
class BekkerWheelSoilContact final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> radius =
        param<double>("radius").unit("m").above(0.0).describe("wheel radius r");
    ParamKey<double> width = param<double>("width").unit("m").above(0.0).describe("wheel width b");
    ParamKey<Eigen::VectorXd> maxStressAngleCoeffs =
        param<Eigen::VectorXd>("max_stress_angle_coeffs")
            .length(2)
            .defaultValue(std::vector<double>{0.4, 0.15})
            .min(0.0)
            .describe("[c1, c2] of the maximum-stress angle θm = (c1 + c2 i) θ1");
    ParamKey<double> exitAngleRatio =
        param<double>("exit_angle_ratio")
            .defaultValue(0.0)
            .bounds(0.0, 1.0)
            .describe("λ: the rear contact angle θ2 = -λ θ1 (0: no rebound)");
    ParamKey<double> soilDamping = param<double>("soil_damping")
                                       .unit("N*s/m")
                                       .defaultValue(0.0)
                                       .min(0.0)
                                       .describe("c_s, normal damping on the sinkage rate");
    ParamKey<double> restSpeed =
        param<double>("rest_speed")
            .unit("m/s")
            .defaultValue(0.01)
            .min(0.0)
            .describe("v_rest: below this speed the footprint turns static and the shear fades");
    ParamKey<std::int64_t> quadratureIntervals =
        param<std::int64_t>("quadrature_intervals")
            .defaultValue(std::int64_t{64})
            .bounds(std::int64_t{2}, std::int64_t{4096})
            .describe("Simpson intervals on each side of θm (even)");
    InKey<double> penetration =
        flowIn<double>("penetration").unit("m").describe("δ of the hub below the surface");
    InKey<double> penetrationRate =
        flowIn<double>("penetration_rate").unit("m/s").describe("δ̇, > 0 while sinking");
    InKey<Eigen::VectorXd> normal =
        flowIn<Eigen::VectorXd>("normal").length(3).describe("unit surface normal n̂, world axes");
    InKey<Eigen::VectorXd> soil = flowIn<Eigen::VectorXd>("soil")
                                      .length(BekkerSoil::kSize)
                                      .describe("[kc, kphi, n, cohesion, phi, K] under the wheel");
    OutKey<double> sinkage =
        flowOut<double>("sinkage").unit("m").feedsFrom(penetration).describe("z = r + δ");
    OutKey<double> normalForce = flowOut<double>("normal_force")
                                     .unit("N")
                                     .feedsFrom(penetration, penetrationRate, normal, soil)
                                     .describe("Fn along n̂");
    OutKey<double> drawbarPull = flowOut<double>("drawbar_pull")
                                     .unit("N")
                                     .feedsFrom(penetration, normal, soil)
                                     .describe("DP along the rolling direction e_x");
    OutKey<double> lateralForce = flowOut<double>("lateral_force")
                                      .unit("N")
                                      .feedsFrom(penetration, normal, soil)
                                      .describe("Fy along e_y");
    OutKey<double> resistiveTorque = flowOut<double>("resistive_torque")
                                         .unit("N*m")
                                         .feedsFrom(penetration, normal, soil)
                                         .describe("T, the soil's moment against the wheel's spin");
    OutKey<double> slip =
        flowOut<double>("slip").feedsFrom(normal).describe("i, the longitudinal slip");
  };
  static const Declaration& declaration();

  explicit BekkerWheelSoilContact(std::string name)
      : ActuatorModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;

 private:
  struct Contact {
    WheelSoilForces forces;
    double sinkage = 0.0;
    double normalForce = 0.0;
    spatial::Vector3 force = spatial::Vector3::Zero();   // on the hub, world
    spatial::Vector3 torque = spatial::Vector3::Zero();  // on the wheel, world
  };
  Contact evaluate();

  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
