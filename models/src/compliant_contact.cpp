#include "hopsim/models/compliant_contact.h"

#include <algorithm>
#include <cmath>

#include "ascii_case.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Vector3;

CompliantContact::Declaration::Declaration()
    : ModelSpec("CompliantContact", ModelKind::Actuator,
                "One-point compliant contact at the node from the penetration δ, its rate δ̇ and "
                "the unit normal n̂ (world) of a sensor such as ComputePlanePenetration. Normal "
                "force clamped to [0, max_force]: Hunt-Crossley kp_n δ^n + alpha_n δ^n δ̇ "
                "(NONLINEAR) or kp_n δ + alpha_n δ̇ (LINEAR). Tangential: trial Ft = -kp_t s - "
                "alpha_t v_t with s the continuous-state deflection; sticks (ROLLING, ṡ = v_t) "
                "while |Ft| <= mu Fn, else slides (SLIDING, |Ft| = mu Fn, ṡ = 0). No force and "
                "ṡ = 0 for δ <= 0; the onset δ = 0 is a zero crossing that resets s.") {}

const CompliantContact::Declaration& CompliantContact::declaration() {
  static const Declaration declaration;
  return declaration;
}

void CompliantContact::processParams(double /*t*/) {
  const std::string& model = param(d_.normalForceModel);
  if (equalsIgnoringCase(model, "NONLINEAR")) {
    linear_ = false;
  } else if (equalsIgnoringCase(model, "LINEAR")) {
    linear_ = true;
  } else {
    throw InputError("models." + name() + ".params.normal_force_model: value '" + model +
                     "' is not NONLINEAR or LINEAR");
  }
}

CompliantContact::Contact CompliantContact::evaluate() {
  Contact contact;
  const double delta = in(d_.penetration);
  const Vector3 n = in(d_.normal);
  const Vector3 v = nodeVelocity().translational();
  contact.tangentVelocity = v - v.dot(n) * n;
  if (!(delta > 0.0)) return contact;

  // Hunt-Crossley as contact_law.h's spring-dashpot kn δ - gn vₙ, with the separation speed
  // vₙ = -δ̇: kn = kp δ^(n-1), gn = alpha δ^n (n >= 1, so δ^(n-1) is finite at δ -> 0).
  ContactCoefficients c{.kt = param(d_.kpTangent), .gt = param(d_.alphaTangent)};
  if (linear_) {
    c.kn = param(d_.kpNormal);
    c.gn = param(d_.alphaNormal);
  } else {
    const double n1 = param(d_.exponent);
    c.kn = param(d_.kpNormal) * std::pow(delta, n1 - 1.0);
    c.gn = param(d_.alphaNormal) * std::pow(delta, n1);
  }
  contact.normalForce =
      std::min(normalForce(c, delta, -in(d_.penetrationRate)), param(d_.maxForce));

  const Vector3 s = state(d_.tangentDeflection);
  const double mu = param(d_.mu);
  const Vector3 trial = -(c.kt * s + c.gt * contact.tangentVelocity);
  contact.type =
      trial.norm() <= mu * contact.normalForce ? ContactType::Rolling : ContactType::Sliding;
  contact.tangentForce = frictionForce(c, mu, contact.normalForce, s, contact.tangentVelocity);
  return contact;
}

void CompliantContact::updateFlowOuts(double /*t*/) {
  const Contact contact = evaluate();
  out(d_.normalForce) = contact.normalForce;
  out(d_.tangentForce) = contact.tangentForce;
  out(d_.contactType) = static_cast<std::int64_t>(contact.type);
}

void CompliantContact::preDeriv(double /*t*/) {
  const Contact contact = evaluate();
  if (contact.type == ContactType::NoContact) return;
  const Vector3 n = in(d_.normal);
  applyForce(contact.normalForce * n + contact.tangentForce, Vector3::Zero(), ForceFrame::World);
}

void CompliantContact::postDeriv(double /*t*/) {
  const Contact contact = evaluate();
  // The spring follows the contact point while it sticks; it holds its stretch while the
  // contact slides (the seed's ṡ = 0) and while there is no contact (reset at the next onset).
  if (contact.type == ContactType::Rolling) {
    derivative(d_.tangentDeflection) = contact.tangentVelocity;
  } else {
    derivative(d_.tangentDeflection).setZero();
  }
}

double CompliantContact::crossingResidual(CrossingKey /*c*/, double /*t*/) {
  return in(d_.penetration);
}

void CompliantContact::onCrossing(CrossingKey /*c*/, double /*t*/) {
  state(d_.tangentDeflection).setZero();
}

}  // namespace hopsim::models
