#pragma once
/// @file
/// VehicleAssembly: a tree of bodies (the seed's VehicleAssembly): a base body, the bodies
/// joined to it by a body graph, and optionally the base's initial position and attitude.
#include <string>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/body_params.h"

namespace hopsim {

/// A vehicle: the bodies of params.bodies, joined as config.bodygraph says ({child: parent}),
/// the base body config.basename attached under context.parentBody (else the nearest enclosing
/// assembly's body, else the world). Every body but the base must appear in the graph as a
/// child; the graph must be a tree. Bodies are created parents first, in the order of
/// params.bodies among bodies whose parent exists.
///
/// params.position and params.attitude (together or not at all) set the base hinge's initial
/// Q = [attitude; position], the pose of the base's outboard frame M in its inboard frame F;
/// the base hinge must then be FULL6DOF or FULL6DOF_INERTIAL. They override the base's
/// hinge.q.
class VehicleAssembly : public Assembly {
 public:
  static constexpr const char* kClassName = "VehicleAssembly";
  static constexpr const char* kDoc =
      "A tree of bodies: a base body and the bodies its body graph {child: parent} joins to it, "
      "with the base's initial position and attitude.";

  /// What to build.
  struct Config : Assembly::Config {
    Config();
    SchemaKey<std::string> basename =
        field<std::string>("basename").describe("the base body: the root of the vehicle's tree");
    SchemaKey<StringMap> bodygraph =
        field<StringMap>("bodygraph")
            .defaultValue(InputNode::mapping({}))
            .describe(
                "the tree below the base, as {child: parent}; the seed's form "
                "{edges: {child: parent}} is accepted too");
    /// Accepts the seed's nested `bodygraph: {edges: {...}}` by flattening it.
    void preCheck(InputNode& input) const override;
  };
  /// What to attach to.
  struct Context : Assembly::Context {
    Context();
    SchemaKey<std::string> parentBody =
        field<std::string>("parentBody")
            .optional()
            .describe(
                "the body the base attaches to; default: the nearest enclosing assembly's context "
                "body, else the world");
  };
  /// The bodies and the base's initial pose.
  struct Params : Assembly::Params {
    Params();
    SchemaKey<RecordMap<BodyParams>> bodies =
        field<RecordMap<BodyParams>>("bodies").describe("the vehicle's bodies by name");
    SchemaKey<std::vector<double>> position =
        field<std::vector<double>>("position")
            .unit("m")
            .length(3)
            .optional()
            .describe(
                "initial position of the base (its hinge's outboard frame M in the "
                "inboard frame F); with attitude");
    SchemaKey<std::vector<double>> attitude =
        field<std::vector<double>>("attitude")
            .length(4)
            .optional()
            .check(unitQuaternionCheck())
            .describe(
                "initial attitude of the base, unit quaternion q_FM scalar first; with "
                "position");
    /// At least one body; position and attitude come together.
    void validate(const ParamSet& set) const override;
  };

  VehicleAssembly() = default;

 protected:
  /// Checks the body graph against params.bodies and creates the bodies, parents first.
  void addModels() override;
  /// Sets every body's initial Q and U from its params, then the base's Q from position and
  /// attitude when given.
  void bindState() override;

 private:
  /// The parent of each body in params.bodies order ("" for the base), after checking that
  /// the graph is a tree over exactly those bodies.
  std::vector<std::string> checkedParents() const;
};

}  // namespace hopsim
