#include "hopsim/models/rsda.h"

#include <cmath>
#include <numbers>
#include <string_view>
#include <tuple>

#include "two_node_force.h"

namespace hopsim::models {
namespace {

using spatial::Matrix3;
using spatial::Vector3;

constexpr std::string_view kLawNames[] = {"LINEAR", "DAMPER", "CURVES", "DAMPER_CURVE"};

}  // namespace

Rsda::Declaration::Declaration()
    : ModelSpec("Rsda", ModelKind::Darts,
                "Chrono's rotational spring-damper-actuator about the Z axis of node1 (body1); "
                "node1 and node2 (body2) coincide at t = 0. theta is body2 relative to body1, "
                "atan2(Y1.X2, X1.X2) unwrapped over whole turns (the branch nearest the "
                "continuous state angle, which integrates theta' and is reset to theta at each "
                "integration step); theta' = Z1.(w2 - w1). LINEAR T = P - k (theta - theta0) - "
                "c theta'; DAMPER T = -c theta'; CURVES T = P - Kt(theta - theta0) - "
                "Ct(theta'); DAMPER_CURVE T = -Ct(theta'); Kt and Ct piecewise linear, clamped "
                "outside their range, [0, 0] (the default) the zero curve. +T Z1 acts on body2, -T "
                "Z1 on body1.") {
  // The outputs change only with the state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const Rsda::Declaration& Rsda::declaration() {
  static const Declaration declaration;
  return declaration;
}

void Rsda::configure() {
  law_ = static_cast<Law>(detail::parseLaw(*this, "law", param(d_.law), kLawNames));
  detail::checkCurve(*this, "spring_curve", param(d_.springCurve));
  detail::checkCurve(*this, "damping_curve", param(d_.dampingCurve));
}

void Rsda::attach(MultibodySystem& system) {
  std::tie(node1_, node2_) =
      detail::resolveNodePair(*this, system.model(), param(d_.node1), param(d_.node2));
  configure();
  DartsModel::attach(system);
}

void Rsda::processParams(double /*t*/) { configure(); }

Rsda::Geometry Rsda::geometry() const {
  const Matrix3 R1 = multibody().nodePose(node1_).rotation();
  const Vector3 x2 = multibody().nodePose(node2_).rotation().col(0);
  const double principal = std::atan2(R1.col(1).dot(x2), R1.col(0).dot(x2));
  // The branch nearest the integrated angle.
  constexpr double kTurn = 2.0 * std::numbers::pi;
  const double angle = principal + kTurn * std::round((state(d_.angleState) - principal) / kTurn);
  const Vector3 z1 = R1.col(2);
  const double rate = z1.dot(multibody().nodeVelocity(node2_).rotational() -
                             multibody().nodeVelocity(node1_).rotational());
  return {angle, rate, z1};
}

double Rsda::torqueAt(double angle, double rate) const {
  switch (law_) {
    case Law::Linear:
      return param(d_.preload) - param(d_.stiffness) * (angle - param(d_.freeAngle)) -
             param(d_.damping) * rate;
    case Law::Damper:
      return -param(d_.damping) * rate;
    case Law::Curves:
      return param(d_.preload) -
             detail::interpolateCurve(param(d_.springCurve), angle - param(d_.freeAngle)) -
             detail::interpolateCurve(param(d_.dampingCurve), rate);
    case Law::DamperCurve:
      return -detail::interpolateCurve(param(d_.dampingCurve), rate);
  }
  return 0.0;
}

void Rsda::startIntegrationStep(double /*t0*/, double /*t1*/) {
  state(d_.angleState) = geometry().angle;
}

void Rsda::updateFlowOuts(double /*t*/) {
  const Geometry g = geometry();
  out(d_.angle) = g.angle;
  out(d_.rate) = g.rate;
  out(d_.torque) = torqueAt(g.angle, g.rate);
}

void Rsda::preDeriv(double /*t*/) {
  const Geometry g = geometry();
  const Vector3 torque = torqueAt(g.angle, g.rate) * g.z1;
  multibody().addNodeForce(node2_, Vector3::Zero(), torque, ForceFrame::World);
  multibody().addNodeForce(node1_, Vector3::Zero(), -torque, ForceFrame::World);
}

void Rsda::postDeriv(double /*t*/) { derivative(d_.angleState) = geometry().rate; }

}  // namespace hopsim::models
