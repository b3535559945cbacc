#pragma once
/// @file
/// GeneralizedForceMotor: applies f = scale * force to a hinge or subhinge.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Applies generalized forces to the hinge or subhinge it is attached to
/// (attachToHinge(body, subhinge)): f = scale * force, one entry per attached rate U (N*m for a
/// rotation, N for a translation), added in every derivative evaluation. An input written by a
/// FlowModel is constant across each hop; one written by a ContinuousModel is current at every
/// evaluation. lock() checks the length of the tied signal against the attached nu.
class GeneralizedForceMotor final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> scale = param<double>("scale").unit("1").defaultValue(1.0).describe(
        "factor applied to the input force");
    InKey<Eigen::VectorXd> force = flowIn<Eigen::VectorXd>("force").length("nu").describe(
        "generalized force, one entry per attached rate (N*m or N)");
  };
  static const Declaration& declaration();

  explicit GeneralizedForceMotor(std::string name) : MotorModel(std::move(name), declaration()) {}
  void setup() override;
  void preDeriv(double t) override;

 protected:
  /// @throws ModelError when force is tied to a signal whose length is not the attached nu.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  Eigen::VectorXd applied_;  // scale * force, sized in setup() so preDeriv does not allocate
};

}  // namespace hopsim::models
