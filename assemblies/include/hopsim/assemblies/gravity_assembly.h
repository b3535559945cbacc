#pragma once
/// @file
/// GravityAssembly: the uniform gravity field of the multibody system.
#include <vector>

#include "hopsim/assemblies/assembly.h"

namespace hopsim {

/// Sets the multibody system's uniform gravity acceleration g_W (m/s², in the world frame W).
/// The field is one for the whole system, so a simulation needs one GravityAssembly at most.
class GravityAssembly : public Assembly {
 public:
  static constexpr const char* kClassName = "GravityAssembly";
  static constexpr const char* kDoc =
      "The uniform gravity acceleration g of the whole multibody system, in the world frame.";

  /// The field.
  struct Params : Assembly::Params {
    Params();
    SchemaKey<std::vector<double>> g =
        field<std::vector<double>>("g")
            .unit("m/s^2")
            .length(3)
            .defaultValue({0.0, 0.0, -9.81})
            .describe("gravity acceleration g_W in the world frame W");
  };

  GravityAssembly() = default;

 protected:
  /// Sets the multibody system's gravity to params.g.
  void bindParams() override;
};

}  // namespace hopsim
