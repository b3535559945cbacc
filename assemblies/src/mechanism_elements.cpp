// One function per element kind: the signals, nodes, model and ties a mechanism element becomes.

#include "mechanism_elements.h"

#include <algorithm>

#include "hopsim/core/multibody/coordinate_units.h"
#include "hopsim/models/body_load.h"
#include "hopsim/models/body_state_sensor.h"
#include "hopsim/models/bushing.h"
#include "hopsim/models/chrono_force_motor.h"
#include "hopsim/models/chrono_motor.h"
#include "hopsim/models/hinge_encoder.h"
#include "hopsim/models/relative_angle.h"
#include "hopsim/models/rsda.h"
#include "hopsim/models/tsda.h"
#include "hopsim/signals/error.h"

namespace hopsim::mechanism::detail {

namespace {

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

/// The `function`, `coefficients` and `repeat` params of the models driven by a function.
template <class M>
void setFunction(LoweredModel<M>& model, const Function& f) {
  // The models' params encode "none" as [0] (a CONTROLLER's coefficients) and [0, 0, 0] (no
  // repeat): vector params have at least one element (models/time_function.h).
  model.set(&models::TimeFunctionSpec::function, f.type)
      .set(&models::TimeFunctionSpec::coefficients,
           f.coefficients.empty() ? std::vector<double>{0.0} : f.coefficients)
      .set(&models::TimeFunctionSpec::repeat,
           f.repeat.empty() ? std::vector<double>{0.0, 0.0, 0.0} : f.repeat);
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

/// The unit of what a motor applies: a torque or a force.
std::string effortUnit(const Motor& motor) {
  return motor.kind == MotorKind::Rotation ? "N*m" : "N";
}

/// A BodyStateSensor `modelName` at `node` whose outputs are `<base>.<output>`.
void stateSensor(LoweredElement& e, std::string modelName, const std::string& base,
                 std::string node, const SourceLocation& where) {
  using D = models::BodyStateSensor::Declaration;
  LoweredModel<models::BodyStateSensor>(e, std::move(modelName), where)
      .signal(&D::position, base)
      // A quaternion: dimensionless, said so in the signal's unit.
      .signal(&D::orientation, base, std::nullopt, "1")
      .signal(&D::velocity, base)
      .signal(&D::angularVelocity, base)
      .attach({std::move(node), "", -1});
}

/// The two nodes of a two-frame force element `<base>.1` on body1 and `<base>.2` on body2, at
/// the world poses X_W1 and X_W2; their multibody names.
std::pair<std::string, std::string> twoNodes(const LoweringContext& c, LoweredElement& e,
                                             const std::string& base, const std::string& body1,
                                             const RigidTransform& X_W1, const std::string& body2,
                                             const RigidTransform& X_W2) {
  e.nodes.push_back({base + ".1", body1, X_W1});
  e.nodes.push_back({base + ".2", body2, X_W2});
  return {c.placement.prefix + base + ".1", c.placement.prefix + base + ".2"};
}

}  // namespace

bool LoweringContext::grounded(const std::string& body1, const std::string& body2) const {
  return mechanism.body(body1).fixed && mechanism.body(body2).fixed;
}

std::optional<std::string> LoweringContext::groundedWarning(const std::string& body1,
                                                            const std::string& body2,
                                                            const std::string& what,
                                                            const SourceLocation& where) const {
  if (!grounded(body1, body2)) return std::nullopt;
  return locateMessage(where, "", what + " joins two fixed bodies and has no effect");
}

std::string hingeSignalBase(const Mechanism& m, const TreeHinge& h) {
  return h.source == TreeHinge::Source::Motor
             ? "motors." + m.motors[static_cast<std::size_t>(h.index)].name
             : "joints." + m.joints[static_cast<std::size_t>(h.index)].name;
}

LoweredElement lowerBody(const LoweringContext& c, std::size_t b) {
  const Body& body = c.mechanism.bodies[b];
  LoweredElement e;
  e.nodes.push_back({"sensors." + body.name, body.name, c.plan.X_WB[b]});
  stateSensor(e, "sensors." + body.name, "bodies." + body.name,
              c.placement.prefix + "sensors." + body.name, body.where);
  return e;
}

LoweredElement lowerHingeEncoder(const LoweringContext& c, const TreeHinge& h) {
  using D = models::HingeEncoder::Declaration;
  const Body& body = c.mechanism.bodies[static_cast<std::size_t>(h.body)];
  const std::string base = hingeSignalBase(c.mechanism, h);
  LoweredElement e;
  LoweredModel<models::HingeEncoder>(e, "encoders." + base, body.where)
      .signal(&D::q, base, static_cast<std::size_t>(h.hinge.nq()),
              std::string(multibody::commonCoordinateUnit(h.hinge, multibody::CoordinatePart::Q)))
      .signal(&D::u, base, static_cast<std::size_t>(h.hinge.nu()),
              std::string(multibody::commonCoordinateUnit(h.hinge, multibody::CoordinatePart::U)))
      .attach({"", c.bodyName(body.name), -1});
  return e;
}

LoweredElement lowerOutputPoint(const LoweringContext& c, const OutputPoint& p) {
  LoweredElement e;
  const std::string base = "points." + p.label;
  e.nodes.push_back({base, p.body, RigidTransform::fromTranslation(c.place(p.point))});
  stateSensor(e, base, base, c.placement.prefix + base, {});
  return e;
}

LoweredElement lowerOutputAngle(const OutputAngle& a) {
  using D = models::RelativeAngle::Declaration;
  LoweredElement e;
  const std::string base = "relative_coordinates." + a.label;
  LoweredModel<models::RelativeAngle>(e, base, a.where)
      .set(&D::initial, a.initial)
      .tie(&D::from, "points." + a.from + ".position")
      .tie(&D::to, "points." + a.to + ".position")
      .signal(&D::angle, base);
  return e;
}

LoweredElement lowerTreeMotor(const LoweringContext& c, const TreeHinge& h) {
  using D = models::ChronoMotor::Declaration;
  const Motor& motor = c.mechanism.motors[static_cast<std::size_t>(h.index)];
  const std::string body = c.bodyName(c.mechanism.bodies[static_cast<std::size_t>(h.body)].name);
  // A CYLINDRICAL spindle is [slider, pin]: the motor drives the pin.
  const int subhinge = h.hinge.type() == multibody::HingeType::Cylindrical ? 1 : -1;
  LoweredElement e;
  if (motor.actuation != Actuation::Force) {
    // The motor prescribes the coordinate, which the integrator must not see.
    e.masked = MaskedCoordinate{body, std::max(subhinge, 0)};
  }
  const std::string base = "motors." + motor.name;
  LoweredModel<models::ChronoMotor> model(e, base, motor.where);
  model.set(&D::actuation, actuationName(motor.actuation))
      .set(&D::sign, h.childIsBody1 ? 1.0 : -1.0)
      .namedSignal(&D::setpoint, setpointSignal(motor), setpointUnit(motor),
                   motor.function.isController())
      .signal(&D::force, base, std::nullopt, effortUnit(motor))
      .attach({"", body, subhinge});
  setFunction(model, motor.function);
  return e;
}

LoweredElement lowerCutMotor(const LoweringContext& c, const Motor& motor) {
  using D = models::ChronoForceMotor::Declaration;
  LoweredElement e;
  const std::string what = "motor '" + motor.name + "'";
  if ((e.warning = c.groundedWarning(motor.body1, motor.body2, what, motor.where))) {
    // Its setpoint is still a signal of the assembly, which a parent may tie.
    e.signals.push_back({setpointSignal(motor), ElementType::Double, 1, setpointUnit(motor),
                         motor.function.isController()});
    return e;
  }
  if (motor.actuation != Actuation::Force) {
    throw InputError(locateMessage(
        motor.where, what,
        std::string("a ") + actuationName(motor.actuation) +
            " motor must be a hinge of the spanning tree, but this one " +
            (motor.support == MotorSupport::Free || motor.support == MotorSupport::Spherical
                 ? "has a FREE or SPHERICAL support"
                 : "closes a loop of motors") +
            "; hopsim prescribes motion only on tree hinges (use a REVOLUTE or CYLINDRICAL "
            "spindle or a PRISMATIC guide, or a FORCE motor)"));
  }
  const std::string base = "motors." + motor.name;
  const RigidTransform X_WF = c.place(motor.X_WF);
  const auto [n1, n2] = twoNodes(c, e, base, motor.body1, X_WF, motor.body2, X_WF);
  LoweredModel<models::ChronoForceMotor> model(e, base, motor.where);
  model.set(&D::kind, motor.kind == MotorKind::Rotation ? "ROTATION" : "LINEAR")
      .set(&D::node1, n1)
      .set(&D::node2, n2)
      .namedSignal(&D::setpoint, setpointSignal(motor), setpointUnit(motor),
                   motor.function.isController());
  setFunction(model, motor.function);
  return e;
}

LoweredElement lowerTsda(const LoweringContext& c, const Tsda& t) {
  using D = models::Tsda::Declaration;
  LoweredElement e;
  if ((e.warning = c.groundedWarning(t.body1, t.body2, "TSDA '" + t.name + "'", t.where))) return e;
  const std::string base = "tsdas." + t.name;
  const auto [n1, n2] =
      twoNodes(c, e, base, t.body1, RigidTransform::fromTranslation(c.place(t.point1)), t.body2,
               RigidTransform::fromTranslation(c.place(t.point2)));
  LoweredModel<models::Tsda> model(e, base, t.where);
  model.set(&D::node1, n1)
      .set(&D::node2, n2)
      .set(&D::law, tsdaLawName(t.law))
      .set(&D::stiffness, t.stiffness)
      .set(&D::damping, t.damping)
      .set(&D::freeLength, t.freeLength)
      .set(&D::preload, t.preload)
      .set(&D::degressivityCompression, t.degressivityCompression)
      .set(&D::degressivityExpansion, t.degressivityExpansion)
      .set(&D::springCurve, flatten(t.springCurve))
      .set(&D::dampingCurve, flatten(t.dampingCurve));
  if (t.law == TsdaLaw::Map) {
    std::vector<double> forces;
    for (const auto& row : t.mapForces) forces.insert(forces.end(), row.begin(), row.end());
    model.set(&D::mapLengths, t.mapLengths)
        .set(&D::mapSpeeds, t.mapSpeeds)
        .set(&D::mapForces, forces);
  }
  if (t.lengthLimits) {
    model.set(&D::lengthLimits,
              std::vector<double>(t.lengthLimits->begin(), t.lengthLimits->end()));
  }
  model.signal(&D::length, base).signal(&D::speed, base).signal(&D::force, base);
  return e;
}

LoweredElement lowerRsda(const LoweringContext& c, const Rsda& r) {
  using D = models::Rsda::Declaration;
  LoweredElement e;
  if ((e.warning = c.groundedWarning(r.body1, r.body2, "RSDA '" + r.name + "'", r.where))) return e;
  const std::string base = "rsdas." + r.name;
  const RigidTransform X_WF = c.place(r.X_WF);
  const auto [n1, n2] = twoNodes(c, e, base, r.body1, X_WF, r.body2, X_WF);
  LoweredModel<models::Rsda>(e, base, r.where)
      .set(&D::node1, n1)
      .set(&D::node2, n2)
      .set(&D::law, rsdaLawName(r.law))
      .set(&D::stiffness, r.stiffness)
      .set(&D::damping, r.damping)
      .set(&D::freeAngle, r.freeAngle)
      .set(&D::preload, r.preload)
      .set(&D::springCurve, flatten(r.springCurve))
      .set(&D::dampingCurve, flatten(r.dampingCurve))
      .signal(&D::angle, base)
      .signal(&D::rate, base)
      .signal(&D::torque, base);
  return e;
}

LoweredElement lowerBushing(const LoweringContext& c, const Joint& j) {
  using D = models::Bushing::Declaration;
  LoweredElement e;
  if ((e.warning = c.groundedWarning(j.body1, j.body2, "joint '" + j.name + "'", j.where)))
    return e;
  const std::string base = "bushings." + j.name;
  const RigidTransform X_WF = c.place(j.X_WF);
  const auto [n1, n2] = twoNodes(c, e, base, j.body1, X_WF, j.body2, X_WF);
  LoweredModel<models::Bushing>(e, base, j.where)
      .set(&D::node1, n1)
      .set(&D::node2, n2)
      .set(&D::stiffness,
           std::vector<double>(j.bushing->stiffness.begin(), j.bushing->stiffness.end()))
      .set(&D::damping, std::vector<double>(j.bushing->damping.begin(), j.bushing->damping.end()))
      .signal(&D::deflection, base)
      .signal(&D::wrench, base);
  return e;
}

LoweredElement lowerBodyLoad(const LoweringContext& c, const BodyLoad& load) {
  using D = models::BodyLoad::Declaration;
  LoweredElement e;
  const int b = c.mechanism.bodyIndex(load.body);
  const Body& body = c.mechanism.bodies[static_cast<std::size_t>(b)];
  if (body.fixed) {
    e.warning = locateMessage(load.where, "",
                              "body load '" + load.name + "' acts on the fixed body '" + load.body +
                                  "' and has no effect");
    return e;
  }
  // "Local" is the centre-of-mass frame; a global point is a world point fixed in the world.
  const std::string base = "loads." + load.name;
  e.nodes.push_back({base, load.body, c.plan.X_WB[static_cast<std::size_t>(b)] * body.X_RC});
  // The command: controllers.<name> for a load controller, which users drive; otherwise
  // loads.<name>.command, which the load ignores.
  const std::string command = load.controlled ? "controllers." + load.name : base + ".command";
  LoweredModel<models::BodyLoad> model(e, base, load.where);
  model.set(&D::type, load.torque ? "TORQUE" : "FORCE")
      .set(&D::load, load.localLoad ? load.load : Vector3(c.placement.X_WP.rotation() * load.load))
      .set(&D::localLoad, load.localLoad)
      .set(&D::point, load.localPoint ? load.point : c.place(load.point))
      .set(&D::localPoint, load.localPoint)
      .set(&D::controlled, load.controlled)
      .namedSignal(&D::command, command, load.torque ? "N*m" : "N", load.controlled)
      .attach({c.placement.prefix + base, "", -1});
  setFunction(model, load.modulation);
  return e;
}

}  // namespace hopsim::mechanism::detail
