#pragma once
/// @file
/// ExternalSingleDofDisturbance: a force or torque along one axis of a node, from a signal
/// (GeneralSGModels).

#include <cstdint>

#include "hopsim/core/darts_model.h"

namespace hopsim::models {

/// ExternalSingleDofDisturbance's equations, conventions and choices:
/// docs/models/ExternalSingleDofDisturbance.md.
class ExternalSingleDofDisturbance final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<std::string> activeDof =
        param<std::string>("activeDof")
            .defaultValue(std::string("IGNORE"))
            .describe(
                "MX, MY, MZ (torque about a node axis), FX, FY, FZ (force along it) or "
                "IGNORE (any case)");
    InKey<double> dof =
        flowIn<double>("dof").describe("the magnitude: N*m for MX..MZ, N for FX..FZ");
  };
  static const Declaration& declaration();

  /// The axes in the seed's order.
  enum class Axis : std::uint8_t { MX, MY, MZ, FX, FY, FZ, Ignore };

  explicit ExternalSingleDofDisturbance(std::string name)
      : ActuatorModel(std::move(name), declaration()) {}
  void processParams(double t) override;
  void preDeriv(double t) override;

 protected:
  /// @throws InputError for an unknown activeDof.
  void attach(MultibodySystem& system) override;

 private:
  const Declaration& d_ = declaration();
  Axis axis_ = Axis::Ignore;  // parsed from activeDof
};

}  // namespace hopsim::models
