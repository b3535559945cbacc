#pragma once
/// @file
/// BodyAssembly: one rigid body, with its hinge and nodes, from BodyParams.
#include <optional>
#include <string>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/body_params.h"

namespace hopsim {

/// One body joined to its parent by a hinge, with nodes: the smallest multibody building block.
/// Its params are the body itself (BodyParams: mass properties about the CM in the body frame,
/// hinge, nodes); the body is named `config.body`, or after the assembly.
class BodyAssembly : public Assembly {
 public:
  static constexpr const char* kClassName = "BodyAssembly";
  static constexpr const char* kDoc =
      "One rigid body with its hinge and nodes, built from BodyParams; named config.body or "
      "after the assembly, attached under context.parentBody (else the nearest enclosing "
      "assembly's body, else the world).";

  /// What to build.
  struct Config : Assembly::Config {
    Config();
    SchemaKey<std::string> body = field<std::string>("body").optional().describe(
        "the body's name (unique in the multibody system); default: the assembly's name");
  };
  /// What to attach to.
  struct Context : Assembly::Context {
    Context();
    SchemaKey<std::string> parentBody =
        field<std::string>("parentBody")
            .optional()
            .describe(
                "the parent body; default: the nearest enclosing assembly's context body, else the "
                "world");
  };
  /// The body: mass properties, hinge (with initial Q and U) and nodes.
  struct Params : BodyParams {};

  BodyAssembly() = default;

  /// The name of the body this assembly builds.
  std::string bodyName() const;

 protected:
  /// Creates the body and its nodes.
  void addModels() override;
  /// Sets the hinge's initial Q and U from params.hinge.q and .u, where given.
  void bindState() override;
};

}  // namespace hopsim
