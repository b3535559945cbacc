#pragma once
/// @file
/// SignalMux: picks and reorders the elements of a vector (GeneralSGModels::SignalMux).

#include "hopsim/core/continuous_model.h"

namespace hopsim::models {

/// SignalMux's equations, conventions and choices: docs/models/SignalMux.md.
class SignalMux final : public ContinuousModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<IntVector> muxTable = param<IntVector>("muxTable")
                                       .length("m")
                                       .describe("0-based index into in for each element of out");
    InKey<Eigen::VectorXd> in = flowIn<Eigen::VectorXd>("in").length("n").describe(
        "the vector to select from (any length n)");
    OutKey<Eigen::VectorXd> out =
        flowOut<Eigen::VectorXd>("out").length("m").feedsFrom(in).describe(
            "out[i] = in[muxTable[i]]");
  };
  static const Declaration& declaration();

  explicit SignalMux(std::string name) : ContinuousModel(std::move(name), declaration()) {}
  /// @throws InputError for an index outside [0, size(in)).
  void setup() override;
  /// @throws InputError as setup, after muxTable is set.
  void processParams(double t) override;
  void updateFlowOuts(double t) override;

 private:
  void checkTable();

  const Declaration& d_ = declaration();
  Eigen::Index inputLength_ = 0;
};

}  // namespace hopsim::models
