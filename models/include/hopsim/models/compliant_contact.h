#pragma once
/// @file
/// CompliantContact: a one-point Hunt-Crossley contact with stick-slip friction.

#include <cstdint>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/zero_crossing.h"
#include "hopsim/models/contact_law.h"

namespace hopsim::models {

/// CompliantContact's equations, conventions and choices: docs/models/CompliantContact.md.
class CompliantContact final : public ActuatorModel {
 public:
  /// The contact regime, numbered as the seed's ContactType.
  enum class ContactType : std::int64_t { NoContact = 0, Sliding = 1, Rolling = 2 };

  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> normalForceModel =
        param<std::string>("normal_force_model")
            .defaultValue(std::string("NONLINEAR"))
            .describe(
                "NONLINEAR (Hunt-Crossley, kp_n δ^n + alpha_n δ^n δ̇) or LINEAR "
                "(kp_n δ + alpha_n δ̇), any case");
    ParamKey<double> kpNormal =
        param<double>("kp_normal")
            .unit("N/m")
            .defaultValue(1.0e5)
            .above(0.0)
            .describe(
                "normal stiffness kp_n, N/m^n (the declared unit is that of n = 1 "
                "and LINEAR: give other n in SI numbers)");
    ParamKey<double> alphaNormal =
        param<double>("alpha_normal")
            .unit("N*s/m^2")
            .defaultValue(0.0)
            .min(0.0)
            .describe(
                "normal damping alpha_n, N*s/m^(n+1) (N*s/m when LINEAR; the "
                "declared unit is that of n = 1)");
    ParamKey<double> exponent = param<double>("n").defaultValue(1.5).min(1.0).describe(
        "exponent n of δ in the NONLINEAR law (1.5: Hertz sphere)");
    ParamKey<double> kpTangent = param<double>("kp_tangent")
                                     .unit("N/m")
                                     .defaultValue(1.0e5)
                                     .above(0.0)
                                     .describe("stiffness kp_t of the tangential spring");
    ParamKey<double> alphaTangent = param<double>("alpha_tangent")
                                        .unit("N*s/m")
                                        .defaultValue(0.0)
                                        .min(0.0)
                                        .describe("damping alpha_t of the tangential spring");
    ParamKey<double> mu = param<double>("mu").defaultValue(0.5).min(0.0).describe(
        "Coulomb friction coefficient: |Ft| <= mu Fn");
    ParamKey<double> maxForce =
        param<double>("max_force")
            .unit("N")
            .defaultValue(1.0e12)
            .above(0.0)
            .describe("upper clamp on the normal force (keeps a deep penetration finite)");
    ContinuousStateKey<Eigen::VectorXd> tangentDeflection =
        continuousState<Eigen::VectorXd>("tangent_deflection")
            .length(3)
            .unit("m")
            .defaultValue(0.0)
            .describe("deflection s of the tangential spring, world axes");
    InKey<double> penetration =
        flowIn<double>("penetration").unit("m").describe("δ, > 0 in contact");
    InKey<double> penetrationRate =
        flowIn<double>("penetration_rate").unit("m/s").describe("δ̇, > 0 while sinking");
    InKey<Eigen::VectorXd> normal =
        flowIn<Eigen::VectorXd>("normal").length(3).describe("unit outward normal n̂, world axes");
    OutKey<double> normalForce = flowOut<double>("normal_force")
                                     .unit("N")
                                     .feedsFrom(penetration, penetrationRate)
                                     .describe("Fn, the normal force magnitude");
    OutKey<Eigen::VectorXd> tangentForce =
        flowOut<Eigen::VectorXd>("tangent_force")
            .length(3)
            .unit("N")
            .feedsFrom(penetration, penetrationRate, normal)
            .describe("Ft, the friction force on the node, world axes");
    OutKey<std::int64_t> contactType =
        flowOut<std::int64_t>("contact_type")
            .feedsFrom(penetration, penetrationRate, normal)
            .describe("0 no contact, 1 sliding, 2 rolling (sticking)");
    CrossingKey onset = zeroCrossing("onset", CrossingDirection::Rising)
                            .describe("δ rises through 0: the node touches; resets s to 0");
  };
  static const Declaration& declaration();

  explicit CompliantContact(std::string name) : ActuatorModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void updateFlowOuts(double t) override;
  void preDeriv(double t) override;
  void postDeriv(double t) override;
  double crossingResidual(CrossingKey c, double t) override;
  void onCrossing(CrossingKey c, double t) override;

 private:
  /// The forces and regime at the current inputs and state.
  struct Contact {
    double normalForce = 0.0;
    spatial::Vector3 tangentForce = spatial::Vector3::Zero();
    spatial::Vector3 tangentVelocity = spatial::Vector3::Zero();
    ContactType type = ContactType::NoContact;
  };
  Contact evaluate();

  const Declaration& d_ = declaration();
  bool linear_ = false;  // from normal_force_model
};

}  // namespace hopsim::models
