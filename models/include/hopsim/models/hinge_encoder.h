#pragma once
/// @file
/// HingeEncoder: reads the coordinates and rates of a hinge or subhinge, q = Q, u = U.

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// Outputs the generalized coordinates and rates of the hinge or subhinge it is attached to
/// (attachToHinge(body, subhinge)): q = Q and u = U of the current state. The outputs are the
/// multibody states, so the model has no feed-through: a controller reading q and u and driving
/// a GeneralizedForceMotor closes the loop without a break. q has the attached nq entries and u
/// the nu entries (rad or m for a PIN or SLIDER; a BALL's q is its unit quaternion, scalar
/// first, nq = 4, nu = 3); lock() checks the lengths of the tied signals against the
/// attachment. The declared output granularity is the hop boundaries; lock() adds the
/// derivative evaluations when a ContinuousModel reads the outputs.
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
