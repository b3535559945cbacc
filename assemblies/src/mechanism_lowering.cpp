// Building a planned mechanism: bodies and hinges, nodes, models, constraints, initial state.

#include "hopsim/assemblies/mechanism_lowering.h"

#include <array>
#include <cmath>

#include "contact_input.h"
#include "hopsim/core/multibody_system.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/multibody_energy.h"
#include "hopsim/models/smooth_contact.h"
#include "hopsim/signals/error.h"

namespace hopsim::mechanism {

namespace {

using BodyIndex = MultibodySystem::BodyIndex;

InputNode numbers(const std::vector<double>& values) {
  std::vector<InputNode> items;
  items.reserve(values.size());
  for (double v : values) items.emplace_back(v);
  return InputNode::sequence(std::move(items));
}

InputNode numbers(const Vector3& v) { return numbers(std::vector<double>{v.x(), v.y(), v.z()}); }

/// [x0, y0, x1, y1, ...]; the models take [0, 0] for "no curve" (a zero curve).
std::vector<double> flatten(const Curve& curve) {
  if (curve.x.empty()) return {0.0, 0.0};
  std::vector<double> out;
  for (std::size_t i = 0; i < curve.x.size(); ++i) {
    out.push_back(curve.x[i]);
    out.push_back(curve.y[i]);
  }
  return out;
}

/// The `function`, `coefficients` and `repeat` params of the motor and load models.
void addFunction(std::vector<InputNode::Entry>& params, const Function& f) {
  params.emplace_back("function", InputNode(f.type));
  // The models' params encode "none" as [0] (a CONTROLLER's coefficients) and [0, 0, 0] (no
  // repeat): vector params have at least one element (models/time_function.h).
  params.emplace_back("coefficients",
                      numbers(f.coefficients.empty() ? std::vector<double>{0.0} : f.coefficients));
  params.emplace_back("repeat",
                      numbers(f.repeat.empty() ? std::vector<double>{0.0, 0.0, 0.0} : f.repeat));
}

const char* tsdaLawName(TsdaLaw law) {
  switch (law) {
    case TsdaLaw::Linear:
      return "LINEAR";
    case TsdaLaw::Damper:
      return "DAMPER";
    case TsdaLaw::Degressive:
      return "DEGRESSIVE";
    case TsdaLaw::Curves:
      return "CURVES";
    case TsdaLaw::DamperCurve:
      return "DAMPER_CURVE";
    case TsdaLaw::Map:
      return "MAP";
  }
  return "LINEAR";
}

const char* rsdaLawName(RsdaLaw law) {
  switch (law) {
    case RsdaLaw::Linear:
      return "LINEAR";
    case RsdaLaw::Damper:
      return "DAMPER";
    case RsdaLaw::Curves:
      return "CURVES";
    case RsdaLaw::DamperCurve:
      return "DAMPER_CURVE";
  }
  return "LINEAR";
}

const char* actuationName(Actuation a) {
  switch (a) {
    case Actuation::Position:
      return "POSITION";
    case Actuation::Speed:
      return "SPEED";
    case Actuation::Force:
      return "FORCE";
  }
  return "FORCE";
}

/// The outputs of a BodyStateSensor: `<base>.{position,orientation,velocity,angular_velocity}`.

constexpr std::array<const char*, 4> kStateOutputs{"position", "orientation", "velocity",
                                                   "angular_velocity"};

std::vector<std::pair<std::string, std::string>> stateTies(const std::string& base) {
  std::vector<std::pair<std::string, std::string>> ties;
  for (const char* output : kStateOutputs) ties.emplace_back(output, base + "." + output);
  return ties;
}

/// The signal a motor's setpoint port is tied to: controllers.<name> for a CONTROLLER function,
/// which users drive; motors.<name>.setpoint, which the motor ignores, otherwise.
std::string setpointSignal(const Motor& motor) {
  return motor.function.isController() ? "controllers." + motor.name
                                       : "motors." + motor.name + ".setpoint";
}

/// The unit of a motor's setpoint: what its function gives.
std::string setpointUnit(const Motor& motor) {
  const bool rotation = motor.kind == MotorKind::Rotation;
  switch (motor.actuation) {
    case Actuation::Position:
      return rotation ? "rad" : "m";
    case Actuation::Speed:
      return rotation ? "rad/s" : "m/s";
    case Actuation::Force:
      return rotation ? "N*m" : "N";
  }
  return "";
}

/// The signal a body load's command port is tied to: controllers.<name> for a load controller;
/// loads.<name>.command, which the load ignores, otherwise.
std::string commandSignal(const BodyLoad& load) {
  return load.controlled ? "controllers." + load.name : "loads." + load.name + ".command";
}

/// The signal name prefix of a tree hinge's coordinates: joints.<name> or motors.<name>.
std::string hingeSignalBase(const Mechanism& m, const TreeHinge& h) {
  return h.source == TreeHinge::Source::Motor
             ? "motors." + m.motors[static_cast<std::size_t>(h.index)].name
             : "joints." + m.joints[static_cast<std::size_t>(h.index)].name;
}

}  // namespace

MechanismBuilder::MechanismBuilder(const Mechanism& mechanism, Placement placement)
    : mechanism_(mechanism),
      placement_(std::move(placement)),
      plan_(planMechanism(mechanism, placement_)) {}

bool MechanismBuilder::grounded(const std::string& body1, const std::string& body2) const {
  const auto fixed = [this](const std::string& name) { return mechanism_.body(name).fixed; };
  return fixed(body1) && fixed(body2);
}

bool MechanismBuilder::skipGrounded(Assembly& assembly, const std::string& body1,
                                    const std::string& body2, const std::string& what,
                                    const SourceLocation& where) const {
  if (!grounded(body1, body2)) return false;
  assembly.warn(locateMessage(where, "", what + " joins two fixed bodies and has no effect"));
  return true;
}

void MechanismBuilder::addStateSignals(Assembly& assembly, const std::string& base) {
  assembly.addSignal(base + ".position", ElementType::Double, 3, "m");
  assembly.addSignal(base + ".orientation", ElementType::Double, 4, "1");
  assembly.addSignal(base + ".velocity", ElementType::Double, 3, "m/s");
  assembly.addSignal(base + ".angular_velocity", ElementType::Double, 3, "rad/s");
}

/// Adds a model, attached and tied, with errors located at the entry it comes from.
void MechanismBuilder::addModel(Assembly& assembly, std::string localName, std::string className,
                                std::vector<InputNode::Entry> params,
                                std::vector<std::pair<std::string, std::string>> ties,
                                std::optional<ModelAttachment> attachment,
                                const SourceLocation& where) {
  ModelDefinition d;
  d.name = std::move(localName);
  d.className = std::move(className);
  d.params = InputNode::mapping(std::move(params), where);
  for (auto& [port, signal] : ties) {
    SignalTie t;
    t.child = port;
    t.parent = signal;
    t.where = where;
    d.ties.push_back(std::move(t));
  }
  d.attachment = std::move(attachment);
  d.where = where;
  assembly.addDefinedModel(d);
}

// ---- signals ----------------------------------------------------------------------------------

void MechanismBuilder::addSignals(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  for (const Body& b : m.bodies) {
    if (!b.fixed) addStateSignals(assembly, "bodies." + b.name);
  }
  for (const TreeHinge& h : plan_.tree) {
    if (h.source == TreeHinge::Source::Free || h.hinge.nq() == 0) continue;
    const std::string base = hingeSignalBase(m, h);
    assembly.addSignal(base + ".q", ElementType::Double, static_cast<std::size_t>(h.hinge.nq()));
    assembly.addSignal(base + ".u", ElementType::Double, static_cast<std::size_t>(h.hinge.nu()));
  }
  for (const OutputPoint& p : m.outputPoints) addStateSignals(assembly, "points." + p.label);
  for (const OutputAngle& a : m.outputAngles) {
    assembly.addSignal("relative_coordinates." + a.label + ".angle", ElementType::Double, 1, "rad");
  }
  // Every port of every model is tied. A CONTROLLER's setpoint is the signal users drive,
  // controllers.<name>; other functions ignore theirs, tied to <kind>.<name>.setpoint/command.
  // A controller's setpoint is 0 until something writes it, as Chrono's ChFunctionSetpoint; a
  // signal tied from above keeps the value it has.
  const auto startAtZero = [&assembly](const SignalRef& ref) {
    Signal& signal = assembly.sim().signal(ref.signal);
    if (signal.everWritten()) return;
    signal.buffer().set(ref.offset, ref.length, Value(std::vector<double>(ref.length, 0.0)),
                        "signals." + ref.signal);
    signal.markWritten();
  };
  for (const Motor& motor : m.motors) {
    const SignalRef ref =
        assembly.addSignal(setpointSignal(motor), ElementType::Double, 1, setpointUnit(motor));
    if (motor.function.isController()) startAtZero(ref);
  }
  for (const TreeHinge& h : plan_.tree) {
    if (h.source != TreeHinge::Source::Motor) continue;
    const Motor& motor = m.motors[static_cast<std::size_t>(h.index)];
    assembly.addSignal("motors." + motor.name + ".force", ElementType::Double, 1,
                       motor.kind == MotorKind::Rotation ? "N*m" : "N");
  }
  for (const BodyLoad& load : m.loads) {
    if (m.body(load.body).fixed) continue;
    const SignalRef ref =
        assembly.addSignal(commandSignal(load), ElementType::Double, 3, load.torque ? "N*m" : "N");
    if (load.controlled) startAtZero(ref);
  }
  for (const Tsda& t : m.tsdas) {
    if (grounded(t.body1, t.body2)) continue;
    assembly.addSignal("tsdas." + t.name + ".length", ElementType::Double, 1, "m");
    assembly.addSignal("tsdas." + t.name + ".speed", ElementType::Double, 1, "m/s");
    assembly.addSignal("tsdas." + t.name + ".force", ElementType::Double, 1, "N");
  }
  for (const Rsda& r : m.rsdas) {
    if (grounded(r.body1, r.body2)) continue;
    assembly.addSignal("rsdas." + r.name + ".angle", ElementType::Double, 1, "rad");
    assembly.addSignal("rsdas." + r.name + ".rate", ElementType::Double, 1, "rad/s");
    assembly.addSignal("rsdas." + r.name + ".torque", ElementType::Double, 1, "N*m");
  }
  for (const Joint& j : m.joints) {
    if (!j.bushing || grounded(j.body1, j.body2)) continue;
    assembly.addSignal("bushings." + j.name + ".deflection", ElementType::Double, 6);
    assembly.addSignal("bushings." + j.name + ".wrench", ElementType::Double, 6);
  }
  if (hasContactShapes()) {
    addOutputSignals(assembly, models::SmoothContact::declaration(), "contact");
    addOutputSignals(assembly, models::MultibodyEnergy::declaration(), "system");
  }
}

void MechanismBuilder::addOutputSignals(Assembly& assembly, const ModelSpec& spec,
                                        const std::string& base) {
  for (const FieldSpec& f : spec.fields(FieldRole::FlowOut)) {
    assembly.addSignal(base + "." + f.name, f.type, f.length, f.unit);
  }
}

void MechanismBuilder::tieOutputs(Assembly& assembly, Model& model, const std::string& base) {
  for (const FieldSpec& f : model.spec().fields(FieldRole::FlowOut)) {
    assembly.tie(model, f.name, base + "." + f.name);
  }
}

// ---- contact ----------------------------------------------------------------------------------

bool MechanismBuilder::hasContactShapes() const {
  for (const Body& b : mechanism_.bodies) {
    if (!b.contactShapes.empty()) return true;
  }
  return false;
}

void MechanismBuilder::addContact(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  if (!hasContactShapes()) return;
  auto& contact = assembly.addModel<models::SmoothContact>("contact");
  tieOutputs(assembly, contact, "contact");
  // With contact, the log keeps the books: where the energy and momentum went.
  tieOutputs(assembly, assembly.addModel<models::MultibodyEnergy>("energy"), "system");
  for (const Body& b : m.bodies) {
    // Material names are the body's own in the file: "<body>.<material>" in the model.
    const auto firstMaterial = static_cast<int>(contact.materials().size());
    for (const ContactMaterial& material : b.contactMaterials) {
      try {
        contact.addMaterial(b.name + "." + material.name, material.properties);
      } catch (const InputError& e) {
        throw InputError(locateMessage(material.where, "", e.what()));
      }
    }
    for (const ContactShape& shape : b.contactShapes) {
      auto [s, warning] =
          chrono::detail::lowerShape(shape, b.contactMaterials, firstMaterial, m.file, m.dataRoot);
      if (!warning.empty()) assembly.warn(warning);
      // A fixed body is the world: its shapes sit there at their world pose.
      s.body = b.fixed ? std::string("world") : bodyName(b.name);
      s.X_BS = b.fixed ? placement_.X_WP * b.X_WR * shape.X_RS : shape.X_RS;
      try {
        contact.addShape(std::move(s));
      } catch (const InputError& e) {
        throw InputError(locateMessage(shape.where, "", e.what()));
      }
    }
  }
  // A bushing joins its bodies as a joint does, though no hinge or constraint shows it.
  for (const Joint& j : m.joints) {
    if (!j.bushing || grounded(j.body1, j.body2)) continue;
    const auto name = [&](const std::string& body) {
      return m.body(body).fixed ? std::string("world") : bodyName(body);
    };
    contact.excludePair(name(j.body1), name(j.body2));
  }
}

// ---- bodies, nodes and models -----------------------------------------------------------------

void MechanismBuilder::addModels(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  // Bodies, parents first, with their mass properties about the reference frame.
  for (const TreeHinge& h : plan_.tree) {
    const Body& b = m.bodies[static_cast<std::size_t>(h.body)];
    std::optional<std::string> parent =
        h.parent < 0 ? std::optional<std::string>("world")
                     : std::optional<std::string>(
                           bodyName(m.bodies[static_cast<std::size_t>(h.parent)].name));
    try {
      // Mass properties about the reference frame. The readers checked the mass and that the
      // inertia is positive (semi-)definite; Chrono also takes moments that break the triangle
      // inequality (a warning), which the checked constructor would refuse.
      const Matrix3& R_RC = b.X_RC.rotation();
      const spatial::SpatialInertia M = spatial::SpatialInertia::fromCmInertiaUnchecked(
          b.mass, b.X_RC.translation(), R_RC * b.inertia * R_RC.transpose());
      assembly.addBody(bodyName(b.name), M, h.hinge, h.X_PF, h.X_CM, parent);
    } catch (const InputError& e) {
      throw InputError(locateMessage(b.where, "body '" + b.name + "'", e.what()));
    }
  }

  MultibodySystem& system = assembly.sim().multibody();
  multibody::MultibodyModel& tree = system.editModel();
  // A node on the body `name` (the world for a fixed body) at the world pose X_WN (t = 0).
  const auto node = [&](const std::string& nodeName, const std::string& bodyName_,
                        const RigidTransform& X_WN) {
    const int b = m.bodyIndex(bodyName_);
    const Body& body = m.bodies[static_cast<std::size_t>(b)];
    const std::string name = placement_.prefix + nodeName;
    if (body.fixed) {
      tree.addNode(name, 0, X_WN);
    } else {
      tree.addNode(name, tree.bodyIndex(bodyName(body.name)),
                   plan_.X_WB[static_cast<std::size_t>(b)].inverse() * X_WN);
    }
    return name;
  };
  const auto place = [this](const Vector3& p_W) { return placement_.X_WP * p_W; };

  // Outputs: a state sensor per moving body, an encoder per tree hinge with coordinates.
  for (std::size_t b = 0; b < m.bodies.size(); ++b) {
    const Body& body = m.bodies[b];
    if (body.fixed) continue;
    const std::string n = node("sensors." + body.name, body.name, plan_.X_WB[b]);
    addModel(assembly, "sensors." + body.name, "BodyStateSensor", {},
             stateTies("bodies." + body.name), ModelAttachment{n, "", -1}, body.where);
  }
  for (const TreeHinge& h : plan_.tree) {
    if (h.source == TreeHinge::Source::Free || h.hinge.nq() == 0) continue;
    const std::string base = hingeSignalBase(m, h);
    addModel(assembly, "encoders." + base, "HingeEncoder", {},
             {{"q", base + ".q"}, {"u", base + ".u"}},
             ModelAttachment{"", bodyName(m.bodies[static_cast<std::size_t>(h.body)].name), -1},
             m.bodies[static_cast<std::size_t>(h.body)].where);
  }
  for (const OutputPoint& p : m.outputPoints) {
    const std::string body = p.body.empty() ? std::string() : p.body;
    const RigidTransform X_WN = RigidTransform::fromTranslation(place(p.point));
    std::string n;
    if (body.empty() || m.body(body).fixed) {
      n = placement_.prefix + "points." + p.label;
      tree.addNode(n, 0, X_WN);
    } else {
      n = node("points." + p.label, body, X_WN);
    }
    addModel(assembly, "points." + p.label, "BodyStateSensor", {}, stateTies("points." + p.label),
             ModelAttachment{n, "", -1}, {});
  }

  for (const OutputAngle& a : m.outputAngles) {
    const std::string base = "relative_coordinates." + a.label;
    addModel(assembly, base, "RelativeAngle", {{"initial", InputNode(a.initial)}},
             {{"from", "points." + a.from + ".position"},
              {"to", "points." + a.to + ".position"},
              {"angle", base + ".angle"}},
             std::nullopt, a.where);
  }

  // Motors on the tree drive their hinge; the others apply forces between two frames.
  for (const TreeHinge& h : plan_.tree) {
    if (h.source != TreeHinge::Source::Motor) continue;
    const Motor& motor = m.motors[static_cast<std::size_t>(h.index)];
    std::vector<InputNode::Entry> params{{"actuation", InputNode(actuationName(motor.actuation))},
                                         {"sign", InputNode(h.childIsBody1 ? 1.0 : -1.0)}};
    addFunction(params, motor.function);
    std::vector<std::pair<std::string, std::string>> ties{
        {"setpoint", setpointSignal(motor)}, {"force", "motors." + motor.name + ".force"}};
    // A CYLINDRICAL spindle is [slider, pin]: the motor drives the pin.
    const int subhinge = h.hinge.type() == multibody::HingeType::Cylindrical ? 1 : -1;
    if (motor.actuation != Actuation::Force) {
      // The motor prescribes the coordinate, which the integrator must not see.
      system.setMasked(tree.bodyIndex(bodyName(m.bodies[static_cast<std::size_t>(h.body)].name)),
                       std::max(subhinge, 0), true);
    }
    addModel(
        assembly, "motors." + motor.name, "ChronoMotor", std::move(params), std::move(ties),
        ModelAttachment{"", bodyName(m.bodies[static_cast<std::size_t>(h.body)].name), subhinge},
        motor.where);
  }
  for (int i : plan_.cutMotors) {
    const Motor& motor = m.motors[static_cast<std::size_t>(i)];
    if (skipGrounded(assembly, motor.body1, motor.body2, "motor '" + motor.name + "'", motor.where))
      continue;
    if (motor.actuation != Actuation::Force) {
      throw InputError(locateMessage(
          motor.where, "motor '" + motor.name + "'",
          std::string("a ") + actuationName(motor.actuation) +
              " motor must be a hinge of the spanning tree, but this one " +
              (motor.support == MotorSupport::Free || motor.support == MotorSupport::Spherical
                   ? "has a FREE or SPHERICAL support"
                   : "closes a loop of motors") +
              "; hopsim prescribes motion only on tree hinges (use a REVOLUTE or CYLINDRICAL "
              "spindle or a PRISMATIC guide, or a FORCE motor)"));
    }
    const RigidTransform X_WF = placement_.X_WP * motor.X_WF;
    const std::string n1 = node("motors." + motor.name + ".1", motor.body1, X_WF);
    const std::string n2 = node("motors." + motor.name + ".2", motor.body2, X_WF);
    std::vector<InputNode::Entry> params{
        {"kind", InputNode(motor.kind == MotorKind::Rotation ? "ROTATION" : "LINEAR")},
        {"node1", InputNode(n1)},
        {"node2", InputNode(n2)}};
    addFunction(params, motor.function);
    addModel(assembly, "motors." + motor.name, "ChronoForceMotor", std::move(params),
             {{"setpoint", setpointSignal(motor)}}, std::nullopt, motor.where);
  }

  for (const Tsda& t : m.tsdas) {
    if (skipGrounded(assembly, t.body1, t.body2, "TSDA '" + t.name + "'", t.where)) continue;
    const std::string n1 =
        node("tsdas." + t.name + ".1", t.body1, RigidTransform::fromTranslation(place(t.point1)));
    const std::string n2 =
        node("tsdas." + t.name + ".2", t.body2, RigidTransform::fromTranslation(place(t.point2)));
    std::vector<InputNode::Entry> params{
        {"node1", InputNode(n1)},
        {"node2", InputNode(n2)},
        {"law", InputNode(tsdaLawName(t.law))},
        {"stiffness", InputNode(t.stiffness)},
        {"damping", InputNode(t.damping)},
        {"free_length", InputNode(t.freeLength)},
        {"preload", InputNode(t.preload)},
        {"degressivity_compression", InputNode(t.degressivityCompression)},
        {"degressivity_expansion", InputNode(t.degressivityExpansion)},
        {"spring_curve", numbers(flatten(t.springCurve))},
        {"damping_curve", numbers(flatten(t.dampingCurve))}};
    if (t.law == TsdaLaw::Map) {
      std::vector<double> forces;
      for (const auto& row : t.mapForces) forces.insert(forces.end(), row.begin(), row.end());
      params.emplace_back("map_lengths", numbers(t.mapLengths));
      params.emplace_back("map_speeds", numbers(t.mapSpeeds));
      params.emplace_back("map_forces", numbers(forces));
    }
    if (t.lengthLimits) {
      params.emplace_back("length_limits",
                          numbers(std::vector<double>{(*t.lengthLimits)[0], (*t.lengthLimits)[1]}));
    }
    const std::string base = "tsdas." + t.name;
    addModel(assembly, base, "Tsda", std::move(params),
             {{"length", base + ".length"}, {"speed", base + ".speed"}, {"force", base + ".force"}},
             std::nullopt, t.where);
  }
  for (const Rsda& r : m.rsdas) {
    if (skipGrounded(assembly, r.body1, r.body2, "RSDA '" + r.name + "'", r.where)) continue;
    const RigidTransform X_WF = placement_.X_WP * r.X_WF;
    const std::string n1 = node("rsdas." + r.name + ".1", r.body1, X_WF);
    const std::string n2 = node("rsdas." + r.name + ".2", r.body2, X_WF);
    addModel(assembly, "rsdas." + r.name, "Rsda",
             {{"node1", InputNode(n1)},
              {"node2", InputNode(n2)},
              {"law", InputNode(rsdaLawName(r.law))},
              {"stiffness", InputNode(r.stiffness)},
              {"damping", InputNode(r.damping)},
              {"free_angle", InputNode(r.freeAngle)},
              {"preload", InputNode(r.preload)},
              {"spring_curve", numbers(flatten(r.springCurve))},
              {"damping_curve", numbers(flatten(r.dampingCurve))}},
             {{"angle", "rsdas." + r.name + ".angle"},
              {"rate", "rsdas." + r.name + ".rate"},
              {"torque", "rsdas." + r.name + ".torque"}},
             std::nullopt, r.where);
  }
  for (const Joint& j : m.joints) {
    if (!j.bushing || skipGrounded(assembly, j.body1, j.body2, "joint '" + j.name + "'", j.where))
      continue;
    const RigidTransform X_WF = placement_.X_WP * j.X_WF;
    const std::string n1 = node("bushings." + j.name + ".1", j.body1, X_WF);
    const std::string n2 = node("bushings." + j.name + ".2", j.body2, X_WF);
    addModel(assembly, "bushings." + j.name, "Bushing",
             {{"node1", InputNode(n1)},
              {"node2", InputNode(n2)},
              {"stiffness", numbers(std::vector<double>(j.bushing->stiffness.begin(),
                                                        j.bushing->stiffness.end()))},
              {"damping",
               numbers(std::vector<double>(j.bushing->damping.begin(), j.bushing->damping.end()))}},
             {{"deflection", "bushings." + j.name + ".deflection"},
              {"wrench", "bushings." + j.name + ".wrench"}},
             std::nullopt, j.where);
  }
  for (const BodyLoad& load : m.loads) {
    const int b = m.bodyIndex(load.body);
    const Body& body = m.bodies[static_cast<std::size_t>(b)];
    if (body.fixed) {
      assembly.warn(locateMessage(load.where, "",
                                  "body load '" + load.name + "' acts on the fixed body '" +
                                      load.body + "' and has no effect"));
      continue;
    }
    // "Local" is the centre-of-mass frame; a global point is a world point fixed in the world.
    const std::string n =
        node("loads." + load.name, load.body, plan_.X_WB[static_cast<std::size_t>(b)] * body.X_RC);
    std::vector<InputNode::Entry> params{
        {"type", InputNode(load.torque ? "TORQUE" : "FORCE")},
        {"load",
         numbers(load.localLoad ? load.load : Vector3(placement_.X_WP.rotation() * load.load))},
        {"local_load", InputNode(load.localLoad)},
        {"point", numbers(load.localPoint ? load.point : place(load.point))},
        {"local_point", InputNode(load.localPoint)},
        {"controlled", InputNode(load.controlled)}};
    addFunction(params, load.modulation);
    addModel(assembly, "loads." + load.name, "BodyLoad", std::move(params),
             {{"command", commandSignal(load)}}, ModelAttachment{n, "", -1}, load.where);
  }
  addContact(assembly);
}

// ---- constraints ------------------------------------------------------------------------------

void MechanismBuilder::addConstraints(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  MultibodySystem& system = assembly.sim().multibody();
  const multibody::MultibodyModel& tree = system.model();
  // A body's multibody index and its pose in the world at t = 0 (the world for fixed bodies).
  const auto frameOf = [&](const std::string& name) {
    const int b = m.bodyIndex(name);
    const Body& body = m.bodies[static_cast<std::size_t>(b)];
    if (body.fixed) return std::pair<BodyIndex, RigidTransform>{0, RigidTransform()};
    return std::pair<BodyIndex, RigidTransform>{tree.bodyIndex(bodyName(body.name)),
                                                plan_.X_WB[static_cast<std::size_t>(b)]};
  };
  const auto located = [](const SourceLocation& where, const std::string& what, auto&& add) {
    try {
      add();
    } catch (const InputError& e) {
      throw InputError(locateMessage(where, what, e.what()));
    }
  };
  // A cut joint restricts marker 1 (body1) relative to marker 2 (body2): A = body2, B = body1.
  const auto cutJoint = [&](const std::string& name, const multibody::Hinge& hinge,
                            const std::string& body1, const std::string& body2,
                            const RigidTransform& X_WF) {
    const auto [a, X_WA] = frameOf(body2);
    const auto [b, X_WB] = frameOf(body1);
    system.editConstraints().addCutJoint(placement_.prefix + name, hinge, a, X_WA.inverse() * X_WF,
                                         b, X_WB.inverse() * X_WF);
  };
  const Vector3 z = Vector3::UnitZ();

  for (int i : plan_.cutJoints) {
    const Joint& j = m.joints[static_cast<std::size_t>(i)];
    const std::string what = "joint '" + j.name + "'";
    if (skipGrounded(assembly, j.body1, j.body2, what, j.where)) continue;
    const RigidTransform X_WF = placement_.X_WP * j.X_WF;
    located(j.where, what, [&] {
      switch (j.type) {
        case JointType::Lock:
          return cutJoint("joints." + j.name, multibody::Hinge::locked(), j.body1, j.body2, X_WF);
        case JointType::Spherical:
          return cutJoint("joints." + j.name, multibody::Hinge::ball(), j.body1, j.body2, X_WF);
        case JointType::Revolute:
          return cutJoint("joints." + j.name, multibody::Hinge::pin(z), j.body1, j.body2, X_WF);
        case JointType::Prismatic:
          return cutJoint("joints." + j.name, multibody::Hinge::slider(z), j.body1, j.body2, X_WF);
        case JointType::Universal:
          return cutJoint("joints." + j.name,
                          multibody::Hinge::ujoint(Vector3::UnitY(), Vector3::UnitX()), j.body1,
                          j.body2, X_WF);
        case JointType::PointLine:
        case JointType::PointPlane: {
          // Marker 1's origin (on body1) stays on marker 2's X line / in its XY plane (body2).
          const auto [a, X_WA] = frameOf(j.body2);
          const auto [b, X_WB] = frameOf(j.body1);
          const Vector3 p_A = X_WA.inverseApplyToPoint(X_WF.translation());
          const Vector3 p_B = X_WB.inverseApplyToPoint(X_WF.translation());
          multibody::ConstraintSet& set = system.editConstraints();
          if (j.type == JointType::PointLine) {
            set.addPointOnLine(placement_.prefix + "joints." + j.name, a, p_A,
                               X_WA.rotation().transpose() * X_WF.rotation().col(0), b, p_B);
          } else {
            set.addPointOnPlane(placement_.prefix + "joints." + j.name, a, p_A,
                                X_WA.rotation().transpose() * X_WF.rotation().col(2), b, p_B);
          }
          return;
        }
      }
    });
  }
  // The supports of motors that are not tree hinges (their force comes from ChronoForceMotor).
  for (int i : plan_.cutMotors) {
    const Motor& motor = m.motors[static_cast<std::size_t>(i)];
    const std::string what = "motor '" + motor.name + "'";
    if (motor.support == MotorSupport::Free ||
        skipGrounded(assembly, motor.body1, motor.body2, what, motor.where)) {
      continue;
    }
    const RigidTransform X_WF = placement_.X_WP * motor.X_WF;
    located(motor.where, what, [&] {
      const std::string name = "motors." + motor.name;
      switch (motor.support) {
        case MotorSupport::Revolute:
          return cutJoint(name, multibody::Hinge::pin(z), motor.body1, motor.body2, X_WF);
        case MotorSupport::Cylindrical:
          return cutJoint(name, multibody::Hinge::cylindrical(z), motor.body1, motor.body2, X_WF);
        case MotorSupport::Prismatic:
          return cutJoint(name, multibody::Hinge::slider(z), motor.body1, motor.body2, X_WF);
        case MotorSupport::Spherical: {
          // Chrono's SPHERICAL guide keeps frame 1's origin on frame 2's Z line.
          const auto [a, X_WA] = frameOf(motor.body2);
          const auto [b, X_WB] = frameOf(motor.body1);
          system.editConstraints().addPointOnLine(
              placement_.prefix + name, a, X_WA.inverseApplyToPoint(X_WF.translation()),
              X_WA.rotation().transpose() * X_WF.rotation().col(2), b,
              X_WB.inverseApplyToPoint(X_WF.translation()));
          return;
        }
        case MotorSupport::Free:
          return;
      }
    });
  }
  for (const Constraint& c : m.constraints) {
    const std::string what = "constraint '" + c.name + "'";
    if (skipGrounded(assembly, c.body1, c.body2, what, c.where)) continue;
    const auto [a, X_WA] = frameOf(c.body1);
    const auto [b, X_WB] = frameOf(c.body2);
    const Vector3 p1 = placement_.X_WP * c.point1;
    const Vector3 p2 = placement_.X_WP * c.point2;
    const Vector3 axis = placement_.X_WP.rotation() * c.axis;
    const Vector3 p_A = X_WA.inverseApplyToPoint(p1);
    const Vector3 p_B = X_WB.inverseApplyToPoint(p2);
    const Matrix3 R_AW = X_WA.rotation().transpose();
    const Matrix3 R_BW = X_WB.rotation().transpose();
    const std::string name = placement_.prefix + "constraints." + c.name;
    located(c.where, what, [&] {
      multibody::ConstraintSet& set = system.editConstraints();
      switch (c.type) {
        case ConstraintType::Distance:
          set.addDistance(name, a, p_A, b, p_B, c.distance.value_or((p2 - p1).norm()));
          return;
        case ConstraintType::RevoluteSpherical:
          set.addRevoluteSpherical(name, a, p_A, R_AW * axis, b, p_B,
                                   c.distance.value_or((p2 - p1).norm()));
          return;
        case ConstraintType::RevoluteTranslational: {
          const Vector3 zn = axis.normalized();
          const Vector3 slide = placement_.X_WP.rotation() * c.axis2;
          const Vector3 x = (slide - zn * zn.dot(slide)).normalized();
          const Vector3 y = zn.cross(x);
          set.addRevoluteTranslational(name, a, p_A, R_AW * zn, b, p_B, R_BW * x, R_BW * y,
                                       c.distance.value_or(x.dot(p2 - p1)));
          return;
        }
      }
    });
  }
}

// ---- initial state ----------------------------------------------------------------------------

void MechanismBuilder::setInitialState(Assembly& assembly) const {
  const Mechanism& m = mechanism_;
  MultibodySystem& system = assembly.sim().multibody();
  const multibody::MultibodyModel& tree = system.model();
  // Each body's velocity as the tree gives it: ω (world) and the velocity of its origin.
  std::vector<Vector3> omega(m.bodies.size(), Vector3::Zero());
  std::vector<Vector3> velocity(m.bodies.size(), Vector3::Zero());
  const Matrix3& R_WP = placement_.X_WP.rotation();
  for (const TreeHinge& h : plan_.tree) {
    const std::size_t c = static_cast<std::size_t>(h.body);
    const Body& body = m.bodies[c];
    const RigidTransform& X_WC = plan_.X_WB[c];
    // The file's velocities: COM velocity in the world, ω in COM axes.
    const RigidTransform X_Wcom = X_WC * body.X_RC;
    const Vector3 w_W = R_WP * (body.X_WR.rotation() * body.X_RC.rotation() * body.w_WC_C);
    const Vector3 v_com = R_WP * body.v_WC_W;
    const Vector3 v_origin = v_com + w_W.cross(X_WC.translation() - X_Wcom.translation());
    const BodyIndex bi = tree.bodyIndex(bodyName(body.name));
    Eigen::Map<Eigen::VectorXd> q = system.q(bi);
    Eigen::Map<Eigen::VectorXd> u = system.u(bi);
    if (h.source == TreeHinge::Source::Free) {
      // FULL6DOF from the world: Q = [q_WC; p_WC], U = [ω; v] in the body frame.
      const spatial::Quaternion q_WC = spatial::quaternionFromRotation(X_WC.rotation());
      q << q_WC, X_WC.translation();  // scalar first [e0, e1, e2, e3]
      u << X_WC.rotation().transpose() * w_W, X_WC.rotation().transpose() * v_origin;
      omega[c] = w_W;
      velocity[c] = v_origin;
      continue;
    }
    // The hinge takes the part of the relative velocity (at Mo, in M) its free motions allow;
    // at t = 0 every hinge is at its neutral pose, where its motion subspace is its axes.
    const Vector3 p_Mo = X_WC * h.X_CM.translation();
    Vector3 wP = Vector3::Zero();
    Vector3 vP = Vector3::Zero();
    if (h.parent >= 0) {
      const std::size_t p = static_cast<std::size_t>(h.parent);
      wP = omega[p];
      vP = velocity[p] + omega[p].cross(p_Mo - plan_.X_WB[p].translation());
    }
    const Vector3 vC = v_origin + w_W.cross(p_Mo - X_WC.translation());
    const Matrix3 R_MW = (X_WC.rotation() * h.X_CM.rotation()).transpose();
    const Vector3 w_rel = R_MW * (w_W - wP);
    const Vector3 v_rel = R_MW * (vC - vP);
    Vector3 w_taken = Vector3::Zero();
    Vector3 v_taken = Vector3::Zero();
    for (int k = 0; k < h.hinge.subhingeCount(); ++k) {
      const multibody::Subhinge& s = h.hinge.subhinge(k);
      switch (s.type) {
        case multibody::SubhingeType::Pin:
          u[s.uOffset] = s.axis.dot(w_rel);
          w_taken += s.axis * u[s.uOffset];
          break;
        case multibody::SubhingeType::Slider:
          u[s.uOffset] = s.axis.dot(v_rel);
          v_taken += s.axis * u[s.uOffset];
          break;
        case multibody::SubhingeType::Ball:
          u.segment<3>(s.uOffset) = w_rel;
          w_taken = w_rel;
          break;
        case multibody::SubhingeType::Free:
        case multibody::SubhingeType::FreeInertial:
          break;  // only FULL6DOF hinges, handled above
      }
    }
    if ((w_taken - w_rel).norm() + (v_taken - v_rel).norm() >
        1e-9 * (1.0 + w_rel.norm() + v_rel.norm())) {
      assembly.warn(locateMessage(
          body.where, "",
          "the initial velocity of body '" + body.name +
              "' is not a motion its hinge allows; it starts with the part the hinge takes"));
    }
    const Matrix3 R_WM = R_MW.transpose();
    omega[c] = wP + R_WM * w_taken;
    velocity[c] = vP + R_WM * v_taken + omega[c].cross(X_WC.translation() - p_Mo);
  }
}

// ---- outputs ----------------------------------------------------------------------------------

std::vector<std::pair<std::string, std::string>> MechanismBuilder::outputColumns(
    const std::string& signalPrefix) const {
  const Mechanism& m = mechanism_;
  std::vector<std::pair<std::string, std::string>> columns;
  const auto add = [&](const std::string& signal, std::initializer_list<const char*> names) {
    int i = 0;
    for (const char* name : names) {
      columns.emplace_back(signal + "." + name,
                           "signals." + signalPrefix + signal + "[" + std::to_string(i++) + "]");
    }
  };
  for (const Body& b : m.bodies) {
    if (b.fixed) continue;
    const std::string base = "bodies." + b.name;
    add(base + ".position", {"x", "y", "z"});
    add(base + ".orientation", {"e0", "e1", "e2", "e3"});
    add(base + ".velocity", {"x", "y", "z"});
    add(base + ".angular_velocity", {"x", "y", "z"});
  }
  for (const TreeHinge& h : plan_.tree) {
    if (h.source == TreeHinge::Source::Free || h.hinge.nq() == 0) continue;
    const std::string base = hingeSignalBase(m, h);
    for (const auto& [part, n] : {std::pair{"q", h.hinge.nq()}, std::pair{"u", h.hinge.nu()}}) {
      for (int i = 0; i < n; ++i) {
        const std::string element = base + "." + part + "[" + std::to_string(i) + "]";
        columns.emplace_back(element, "signals." + signalPrefix + element);
      }
    }
  }
  for (const OutputPoint& p : m.outputPoints) {
    add("points." + p.label + ".position", {"x", "y"});
  }
  for (const OutputAngle& a : m.outputAngles) {
    const std::string signal = "relative_coordinates." + a.label + ".angle";
    columns.emplace_back(signal, "signals." + signalPrefix + signal + "[0]");
  }
  if (hasContactShapes()) {
    // The outputs of the contact and energy models: scalars as they are, 3-vectors by axis.
    for (const auto& [spec, base] : {std::pair<const ModelSpec*, const char*>{
                                         &models::SmoothContact::declaration(), "contact"},
                                     {&models::MultibodyEnergy::declaration(), "system"}}) {
      for (const FieldSpec& f : spec->fields(FieldRole::FlowOut)) {
        const std::string signal = std::string(base) + "." + f.name;
        if (f.length == 3) {
          add(signal, {"x", "y", "z"});
        } else {
          columns.emplace_back(signal, "signals." + signalPrefix + signal + "[0]");
        }
      }
    }
  }
  return columns;
}

}  // namespace hopsim::mechanism
