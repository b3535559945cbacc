#include "hopsim/models/attitude_error_sensor.h"

#include <cmath>

#include "hopsim/models/random_stream.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Quaternion;

namespace {

/// Four independent draws, uniform on (-1, 1).
Quaternion drawUniforms(RandomStream& stream) {
  Quaternion u;
  for (int i = 0; i < 4; ++i) u[i] = 2.0 * stream.uniform() - 1.0;
  return u;
}

/// q or -q, whichever has e0 >= 0 (the same rotation).
Quaternion withNonNegativeScalar(const Quaternion& q) { return q[0] < 0.0 ? Quaternion(-q) : q; }

}  // namespace

AttitudeErrorDeclaration::AttitudeErrorDeclaration(const char* className, const char* doc)
    : ModelSpec(className, ModelKind::Sensor, doc) {}

void AttitudeErrorSensor::startIoStep(double tStart, double /*tEnd*/) {
  if (!param(d_.noiseSwitch)) return;
  const bool first = state(d_.samples) == 0;
  if (first) state(d_.stream) = RandomStream::initialState(param(d_.seed));
  RandomStream stream(state(d_.stream));
  if (first) {
    state(d_.initialError) =
        spatial::quaternionIdentity() + param(d_.sigInitError) * drawUniforms(stream);
  } else {
    const double h = tStart - state(d_.sampleTime);
    const Quaternion drift = drawUniforms(stream);
    const Quaternion walk = drawUniforms(stream);
    state(d_.driftRandState) +=
        (param(d_.sigGyroDrift) * h) * drift + (param(d_.gyroRandomWalk) * std::sqrt(h)) * walk;
  }
  const Quaternion white = drawUniforms(stream);
  const Quaternion raw = Quaternion(state(d_.initialError)) + Quaternion(state(d_.driftRandState)) +
                         param(d_.sigAttNoise) * white;
  const double norm = raw.norm();
  if (!(norm > 0.0) || !std::isfinite(norm)) {
    throw InputError(describe() +
                     ": the error quaternion's elements sum to zero or are not "
                     "finite; expected noise small against the identity");
  }
  state(d_.errorOut) = withNonNegativeScalar(raw / norm);
  state(d_.sampleTime) = tStart;
  ++state(d_.samples);
}

void AttitudeErrorSensor::writeNoisyAttitude(const Quaternion& q_WN) {
  const Quaternion e =
      param(d_.noiseSwitch) ? Quaternion(state(d_.errorOut)) : spatial::quaternionIdentity();
  out(d_.noiseLevel) = e;
  out(d_.noisyAttitude) = withNonNegativeScalar(spatial::quaternionProduct(q_WN, e));
}

}  // namespace hopsim::models
