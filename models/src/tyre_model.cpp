#include "hopsim/models/tyre_model.h"

namespace hopsim::models {

TyreDeclaration::TyreDeclaration(const char* className, const char* doc)
    : ModelSpec(className, ModelKind::Actuator, doc) {}

std::optional<TyreState> TyreModel::state() {
  return tyreState(nodePose(), nodeVelocity(), in(d_.normal), param(d_.radius), in(d_.penetration),
                   in(d_.penetrationRate), param(d_.normalStiffness), param(d_.normalDamping),
                   param(d_.minSpeed));
}

void TyreModel::updateFlowOuts(double /*t*/) {
  const auto s = state();
  const Eigen::Vector2d f = s ? forces(*s) : Eigen::Vector2d::Zero();
  out(d_.normalForce) = s ? s->normalForce : 0.0;
  out(d_.longitudinalForce) = f.x();
  out(d_.lateralForce) = f.y();
  out(d_.slipRatio) = s ? s->slipRatio : 0.0;
  out(d_.slipAngle) = s ? s->slipAngle : 0.0;
}

void TyreModel::preDeriv(double /*t*/) {
  const auto s = state();
  if (!s) return;
  const Eigen::Vector2d f = forces(*s);
  const HubWrench w = hubWrench(*s, param(d_.radius), f.x(), f.y(), axleCouple(*s));
  applyForce(w.force, w.torque, ForceFrame::World);
}

}  // namespace hopsim::models
