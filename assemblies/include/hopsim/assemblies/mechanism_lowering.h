#pragma once
/// @file
/// Lowering a Mechanism (mechanism.h) into an assembly: a spanning tree of hinges over the
/// bodies and joints, cut-joint constraints for the joints that close loops, and models for
/// the force elements, motors, loads and outputs (docs/chrono-yaml.md, "Lowering").

#include <string>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/mechanism.h"
#include "hopsim/core/multibody/hinge.h"

namespace hopsim::mechanism {

/// Where a mechanism goes in the simulation: every name it creates in the multibody system
/// (bodies, nodes, constraints) starts with `prefix`, and its world frame is placed at X_WP
/// (Chrono's Populate(system, frame)).
struct Placement {
  std::string prefix;
  RigidTransform X_WP;
};

/// One tree hinge of the plan: the body it moves, its parent and the joint or motor it stands
/// for.
struct TreeHinge {
  enum class Source { Joint, Motor, Free };
  int body{-1};    ///< index in Mechanism::bodies
  int parent{-1};  ///< index in Mechanism::bodies, or -1 for the world
  Source source{Source::Free};
  int index{-1};            ///< index in Mechanism::joints or ::motors (-1 for Free)
  bool childIsBody1{true};  ///< the hinge moves the joint's body1 relative to its body2
  multibody::Hinge hinge;
  RigidTransform X_PF;  ///< F on the parent (world frame for the world)
  RigidTransform X_CM;  ///< M on the child
};

/// What a mechanism becomes, decided before anything is built: tree hinges in build order
/// (parents first) and the joints and motors that close loops.
struct LoweringPlan {
  std::vector<TreeHinge> tree;
  std::vector<int> cutJoints;  ///< indices in Mechanism::joints (bushings excluded)
  std::vector<int> cutMotors;  ///< indices in Mechanism::motors not on the tree
  /// Per body of Mechanism::bodies: its pose in hopsim's world (placement applied).
  std::vector<RigidTransform> X_WB;
};

/// Chooses the spanning tree: fixed bodies are the world; motors (prescribed ones first) then
/// kinematic joints, in file order, join the tree when they connect two bodies not yet
/// connected, the rest become cut joints; a body the tree does not reach gets a FULL6DOF
/// hinge to the world (the first body of each free-floating group, which carries the group).
/// @throws InputError (with the file:line:col of the entry) for a joint or motor whose two
/// bodies are the same.
LoweringPlan planMechanism(const Mechanism& mechanism, const Placement& placement);

/// The OBJ file of a MESH or HULL shape of `mechanism` (or its `model_file`), where the
/// lowering reads it: an absolute name as it is; else under the model's data_path when it has
/// one; else beside the model file, or in the working directory when only that has it.
std::string shapeFilePath(const Mechanism& mechanism, const std::string& name);

namespace detail {
struct LoweredElement;
struct LoweringContext;
struct NodeRequest;
}  // namespace detail

/// Builds a planned mechanism into an assembly, in the assembly's stages. Each element of the
/// mechanism (a moving body, a tree hinge, a motor, a TSDA, ...) is lowered by one function of
/// its kind into its signals, nodes and model with its params and ties, all named by the
/// model's declaration; the builder declares the signals in addSignals and adds the rest in
/// addModels (docs/chrono-yaml.md, "Lowering").
class MechanismBuilder {
 public:
  MechanismBuilder(const Mechanism& mechanism, Placement placement);
  ~MechanismBuilder();
  MechanismBuilder(const MechanismBuilder&) = delete;
  MechanismBuilder& operator=(const MechanismBuilder&) = delete;

  const Mechanism& mechanism() const { return mechanism_; }
  const LoweringPlan& plan() const { return plan_; }

  /// The multibody name of body `name` (fixed bodies have none: they are the world).
  std::string bodyName(const std::string& name) const { return placement_.prefix + name; }

  /// addSignals: lowers every element and declares its signals:
  /// `bodies.<name>.{position,orientation,velocity,angular_velocity}` for every moving body
  /// and `points.<label>.*` likewise, `joints.<name>.{q,u}` and `motors.<name>.{q,u}` for
  /// every tree hinge with coordinates, the force elements' outputs (`tsdas.<name>.force`,
  /// ...), `relative_coordinates.<label>.angle`, and the setpoints: `controllers.<name>` for
  /// every CONTROLLER motor (length 1) and load controller (length 3),
  /// `motors.<name>.setpoint` / `loads.<name>.command` (ignored) for the others
  /// (docs/chrono-yaml.md, "Signals and outputs").
  /// @throws InputError (located at the motor) for a POSITION or SPEED motor off the tree.
  void addSignals(Assembly& assembly);
  /// addModels: bodies and hinges, then each element's nodes and model (sensors, encoders,
  /// TSDAs, RSDAs, bushings, motors, body loads), and a SmoothContact "contact" with every
  /// body's collision shapes when there are any.
  void addModels(Assembly& assembly) const;
  /// bindParams: the cut-joint constraints (every body of every assembly exists by then).
  void addConstraints(Assembly& assembly) const;
  /// bindState: initial hinge coordinates of free bodies and hinge rates from the bodies'
  /// initial velocities (the part each hinge can take; a warning names what it cannot).
  void setInitialState(Assembly& assembly) const;

  /// The named CSV columns of hopsim run for this mechanism: `bodies.<name>.position.x`, ...,
  /// `joints.<name>.q[i]`, `points.<label>.position.{x,y}`, each the element of a signal of
  /// the assembly at `signalPrefix` ("" for the top).
  std::vector<std::pair<std::string, std::string>> outputColumns(
      const std::string& signalPrefix) const;

 private:
  detail::LoweringContext context() const;
  /// The bodies and their hinges, parents first.
  void addBodies(Assembly& assembly) const;
  /// A node an element asked for.
  void addNode(Assembly& assembly, const detail::NodeRequest& node) const;
  /// Whether some body has a collision shape.
  bool hasContactShapes() const;
  /// The SmoothContact of the bodies' collision shapes (fixed bodies' on the world).
  void addContact(Assembly& assembly) const;
  /// Writes 0 into a signal nothing has written yet (a controller's setpoint, as Chrono's
  /// ChFunctionSetpoint); a signal tied from above keeps the value it has.
  static void startAtZero(Assembly& assembly, const SignalRef& ref);
  /// Declares a signal `<base>.<output>` for every flowOut of the model class `spec`, with its
  /// length and unit (the contact and energy models' outputs).
  static void addOutputSignals(Assembly& assembly, const ModelSpec& spec, const std::string& base);
  /// Ties every flowOut of `model` to `<base>.<output>`.
  static void tieOutputs(Assembly& assembly, Model& model, const std::string& base);

  const Mechanism& mechanism_;
  Placement placement_;
  LoweringPlan plan_;
  /// What addSignals lowered, in the order addModels adds it.
  std::vector<detail::LoweredElement> elements_;
};

}  // namespace hopsim::mechanism
