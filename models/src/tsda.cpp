#include "hopsim/models/tsda.h"

#include <string_view>
#include <tuple>

#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"
#include "two_node_force.h"

namespace hopsim::models {
namespace {

using spatial::Vector3;

constexpr std::string_view kLawNames[] = {"LINEAR", "DAMPER",       "DEGRESSIVE",
                                          "CURVES", "DAMPER_CURVE", "MAP"};

/// Chrono's stop table (ChLinkTSDA via the YAML parser): overshoot past a length limit (mm) to
/// force (N), as a curve [x0, y0, x1, y1, ...]; clamped beyond 60 mm.
const Eigen::Matrix<double, 22, 1>& stopTable() {
  static const Eigen::Matrix<double, 22, 1> table = [] {
    Eigen::Matrix<double, 22, 1> t;
    t << 0, 0, 2, 200, 4, 400, 6, 600, 8, 800, 10, 1000, 20, 2500, 30, 4500, 40, 7500, 50, 12500,
        60, 125000;
    return t;
  }();
  return table;
}

}  // namespace

Tsda::Declaration::Declaration()
    : ModelSpec("Tsda", ModelKind::Darts,
                "Chrono's translational spring-damper-actuator between the origins p1 of node1 "
                "(body1) and p2 of node2 (body2): with u = unit(p1 - p2), L = |p1 - p2| and "
                "L' = u.(v1 - v2), +F u acts on body1 at p1 and -F u on body2 at p2 (F > 0 "
                "pushes apart). LINEAR F = P - k (L - L0) - c L' + S; DAMPER F = -c L'; "
                "DEGRESSIVE F = -c L' / (1 + de L') for L' >= 0, else -c L' / (1 - dc L'); "
                "CURVES F = P - Kt(L - L0) - Ct(L') + S; DAMPER_CURVE F = -Ct(L'); MAP F = P - "
                "M(L, L'). Kt and Ct are piecewise linear, clamped outside their range, [0, 0] "
                "(the default) the zero curve; M is bilinear in the length (not the deformation) "
                "and the speed, extrapolated linearly. The stop force S needs length_limits "
                "[min, max]: S = B(min - L) below min, -B(L - max) above max, B Chrono's table "
                "of overshoot (mm) to force (N), 0 -> 0, 10 -> 1000, 20 -> 2500, ..., 60 -> "
                "125000, clamped beyond; infinite limits (the default) give none. No force at "
                "L = 0.") {
  // The outputs change only with the state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const Tsda::Declaration& Tsda::declaration() {
  static const Declaration declaration;
  return declaration;
}

void Tsda::configure() {
  law_ = static_cast<Law>(detail::parseLaw(*this, "law", param(d_.law), kLawNames));
  detail::checkCurve(*this, "spring_curve", param(d_.springCurve));
  detail::checkCurve(*this, "damping_curve", param(d_.dampingCurve));
  const auto limits = param(d_.lengthLimits);
  if (!(limits[0] < limits[1]) || limits[0] == kInfinity || limits[1] == -kInfinity) {
    throw InputError("models." + name() +
                     ".params.length_limits: expected [min, max] with "
                     "min < max (either may be infinite, on its own side), got [" +
                     describeValue(Value(limits[0])) + ", " + describeValue(Value(limits[1])) +
                     "]");
  }
  if (law_ == Law::Map) {
    detail::checkAscending(*this, "map_lengths", param(d_.mapLengths), 2);
    detail::checkAscending(*this, "map_speeds", param(d_.mapSpeeds), 2);
    const Eigen::Index expected = param(d_.mapLengths).size() * param(d_.mapSpeeds).size();
    if (param(d_.mapForces).size() != expected) {
      throw InputError("models." + name() + ".params.map_forces: the map has " +
                       std::to_string(param(d_.mapSpeeds).size()) + " speeds by " +
                       std::to_string(param(d_.mapLengths).size()) + " lengths, so " +
                       std::to_string(expected) + " forces, but " +
                       std::to_string(param(d_.mapForces).size()) + " were given");
    }
  }
}

void Tsda::attach(MultibodySystem& system) {
  std::tie(node1_, node2_) =
      detail::resolveNodePair(*this, system.model(), param(d_.node1), param(d_.node2));
  configure();
  DartsModel::attach(system);
}

void Tsda::processParams(double /*t*/) { configure(); }

Tsda::Geometry Tsda::geometry() const {
  const Vector3 d =
      multibody().nodePose(node1_).translation() - multibody().nodePose(node2_).translation();
  const Vector3 v = multibody().nodeVelocity(node1_).translational() -
                    multibody().nodeVelocity(node2_).translational();
  const double length = d.norm();
  const Vector3 u = length > 0.0 ? Vector3(d / length) : Vector3::Zero();
  return {length, u.dot(v), u};
}

double Tsda::stopForce(double length) const {
  const auto limits = param(d_.lengthLimits);
  if (length < limits[0]) return detail::interpolateCurve(stopTable(), 1e3 * (limits[0] - length));
  if (length > limits[1]) return -detail::interpolateCurve(stopTable(), 1e3 * (length - limits[1]));
  return 0.0;
}

double Tsda::forceAt(double length, double speed) const {
  const double c = param(d_.damping);
  switch (law_) {
    case Law::Linear:
      return param(d_.preload) - param(d_.stiffness) * (length - param(d_.freeLength)) - c * speed +
             stopForce(length);
    case Law::Damper:
      return -c * speed;
    case Law::Degressive:
      return speed >= 0.0 ? -c * speed / (1.0 + param(d_.degressivityExpansion) * speed)
                          : -c * speed / (1.0 - param(d_.degressivityCompression) * speed);
    case Law::Curves:
      return param(d_.preload) -
             detail::interpolateCurve(param(d_.springCurve), length - param(d_.freeLength)) -
             detail::interpolateCurve(param(d_.dampingCurve), speed) + stopForce(length);
    case Law::DamperCurve:
      return -detail::interpolateCurve(param(d_.dampingCurve), speed);
    case Law::Map: {
      const auto [j, a] = detail::segmentOf(param(d_.mapLengths), length);
      const auto [i, b] = detail::segmentOf(param(d_.mapSpeeds), speed);
      const auto f = param(d_.mapForces);
      const Eigen::Index columns = param(d_.mapLengths).size();
      const auto at = [&](Eigen::Index row, Eigen::Index column) {
        return f[row * columns + column];
      };
      const double m = (1.0 - b) * ((1.0 - a) * at(i, j) + a * at(i, j + 1)) +
                       b * ((1.0 - a) * at(i + 1, j) + a * at(i + 1, j + 1));
      return param(d_.preload) - m;
    }
  }
  return 0.0;
}

void Tsda::updateFlowOuts(double /*t*/) {
  const Geometry g = geometry();
  out(d_.length) = g.length;
  out(d_.speed) = g.speed;
  out(d_.force) = forceAt(g.length, g.speed);
}

void Tsda::preDeriv(double /*t*/) {
  const Geometry g = geometry();
  const Vector3 f = forceAt(g.length, g.speed) * g.u;
  multibody().addNodeForce(node1_, f, Vector3::Zero(), ForceFrame::World);
  multibody().addNodeForce(node2_, -f, Vector3::Zero(), ForceFrame::World);
}

}  // namespace hopsim::models
