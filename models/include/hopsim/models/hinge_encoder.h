#pragma once
/// @file
/// HingeEncoder: reads the coordinates and rates of a hinge or subhinge.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// HingeEncoder's equations, conventions and choices: docs/models/HingeEncoder.md.
class HingeEncoder final : public EncoderModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    OutKey<Eigen::VectorXd> q = flowOut<Eigen::VectorXd>("q").length("nq").noFeedThrough().describe(
        "the attached coordinates Q (rad, m or quaternion)");
    OutKey<Eigen::VectorXd> u = flowOut<Eigen::VectorXd>("u").length("nu").noFeedThrough().describe(
        "the attached rates U (rad/s or m/s)");
  };
  static const Declaration& declaration();

  explicit HingeEncoder(std::string name) : EncoderModel(std::move(name), declaration()) {}
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError when q or u is tied to a signal whose length is not the attached nq
  /// or nu.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
};

}  // namespace hopsim::models
