#pragma once
/// @file
/// ModelFileAssembly: a Chrono MBS model file or an MBSE planar mechanism file as an assembly
/// (Chrono's Populate(system, frame) with a name prefix).

#include <memory>
#include <string>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/mechanism.h"
#include "hopsim/assemblies/mechanism_lowering.h"

namespace hopsim {

/// Reads config.file (a Chrono model file or an MBSE file; relative paths are taken from the
/// file that named it) and lowers it (mechanism_lowering.h): bodies and hinges in addModels,
/// cut-joint constraints in bindParams, initial velocities in bindState. Multibody names
/// (bodies, nodes, constraints) start with config.prefix; the file's world frame is placed at
/// context.location / context.orientation. Its signals are the mechanism's outputs
/// (`bodies.<name>.position`, `joints.<name>.q`, ...) and the setpoints of its CONTROLLER
/// motors and load controllers (`controllers.<name>`), which a parent ties or models write.
class ModelFileAssembly : public Assembly {
 public:
  static constexpr const char* kClassName = "ModelFile";
  static constexpr const char* kDoc =
      "A Chrono MBS model file or an MBSE planar mechanism file, lowered into bodies, hinges, "
      "constraints and models; placed at context.location/orientation with names prefixed by "
      "config.prefix.";

  /// Which file, and the prefix of the multibody names it creates.
  struct Config : Assembly::Config {
    Config();
    SchemaKey<std::string> file = field<std::string>("file").describe(
        "the model file; a relative path is relative to the file that names it");
    SchemaKey<std::string> prefix = field<std::string>("prefix").defaultValue("").describe(
        "prepended to the names of its bodies, nodes and constraints");
  };
  /// Where the file's world frame goes.
  struct Context : Assembly::Context {
    Context();
    SchemaKey<std::vector<double>> location =
        field<std::vector<double>>("location")
            .unit("m")
            .length(3)
            .defaultValue({0.0, 0.0, 0.0})
            .describe("the origin of the file's world frame, in the world");
    SchemaKey<std::vector<double>> orientation =
        field<std::vector<double>>("orientation")
            .length(4)
            .defaultValue({1.0, 0.0, 0.0, 0.0})
            .describe("the file's world frame in the world, a unit quaternion [e0, e1, e2, e3]");
  };

  ModelFileAssembly();
  ~ModelFileAssembly() override;

  /// The mechanism read and its lowering (after addSignals).
  const mechanism::MechanismBuilder& builder() const;

 protected:
  /// Reads the file and declares the signals.
  void addSignals() override;
  void addModels() override;
  void bindParams() override;
  void bindState() override;

 private:
  std::shared_ptr<const mechanism::Mechanism> mechanism_;  // shared by every placement of the file
  std::unique_ptr<mechanism::MechanismBuilder> builder_;
};

}  // namespace hopsim
