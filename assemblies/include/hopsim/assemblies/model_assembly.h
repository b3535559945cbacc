#pragma once
/// @file
/// ModelAssembly: one registered model as an assembly, its ports as the assembly's signals.
#include <cstdint>
#include <memory>
#include <string>

#include "hopsim/assemblies/assembly.h"

namespace hopsim {

/// Wraps one model of the standard registry (config.model): the model's simulation name is the
/// assembly's path, each of its flowIns and flowOuts is tied to a signal of the assembly named
/// after the port (so a parent ties them like any child's signals), and its params are the
/// assembly's params, with the model's declared types, units, defaults and bounds. Actuators
/// and sensors attach to config.node; motors and encoders to the hinge of config.body
/// (config.subhinge).
///
/// Ports of variable length (Gain's u[n]) take their length from config.lengths ({n: 3}), or
/// else from the parent's tie of a port with the same length symbol.
class ModelAssembly : public Assembly {
 public:
  static constexpr const char* kClassName = "ModelAssembly";
  static constexpr const char* kDoc =
      "One registered model: its ports are the assembly's signals (named after the ports) and "
      "its params the assembly's params.";

  /// Which model, where it attaches, its rate and the lengths of its variable-length ports.
  struct Config : Assembly::Config {
    Config();
    SchemaKey<std::string> model =
        field<std::string>("model").describe("the registered model class (\"Gain\")");
    SchemaKey<std::string> node = field<std::string>("node").optional().describe(
        "the node an actuator or sensor attaches to");
    SchemaKey<std::string> body = field<std::string>("body").optional().describe(
        "the body whose hinge a motor or encoder attaches to");
    SchemaKey<std::int64_t> subhinge =
        field<std::int64_t>("subhinge")
            .defaultValue(-1)
            .min(-1)
            .describe(
                "the subhinge a motor or encoder attaches to (0-based); -1 for the whole hinge");
    SchemaKey<double> rate = field<double>("rate").unit("Hz").above(0.0).optional().describe(
        "the model's I/O rate; default: the simulation's I/O period");
    SchemaKey<StringMap> lengths = field<StringMap>("lengths")
                                       .defaultValue(InputNode::mapping({}))
                                       .describe(
                                           "the lengths of variable-length ports by length symbol "
                                           "({n: 3}), positive integers");
    /// The class is registered, the attachment fits its kind, the lengths are positive
    /// integers for symbols its ports use, and every symbol its ports use has one.
    void validate(const ParamSet& set) const override;
  };

  ModelAssembly() = default;

  /// The wrapped model (after construction).
  Model& model() const;

 protected:
  /// The params schema of the class config.model.
  std::shared_ptr<const ParamSchema> makeParamsSchema() const override;
  /// One signal per port, named after it.
  void addSignals() override;
  /// Creates the model, attaches it, ties its ports and sets its rate.
  void addModels() override;
  /// Sets every given param on the model.
  void bindParams() override;

 private:
  /// The length of a port of config.model: fixed, from config.lengths, or from a tie.
  std::size_t portLength(const FieldSpec& port, const ModelSpec& spec) const;
};

}  // namespace hopsim
