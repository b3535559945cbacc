#include "hopsim/models/ball_encoder.h"

#include <algorithm>

#include "encoder_quantizer.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

BallEncoder::Declaration::Declaration()
    : ModelSpec("BallEncoder", ModelKind::Encoder,
                "Samples the ball hinge's rotation q_FM at the model's rate and holds it with "
                "its three intrinsic Euler angles of EulerSequence (default ZYX: yaw, pitch, "
                "roll), quantized: counts[i] = floor(angle_i / angle_lsb).") {
  // The outputs change only when a sample is taken, at an I/O step start.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const BallEncoder::Declaration& BallEncoder::declaration() {
  static const Declaration declaration;
  return declaration;
}

void BallEncoder::attach(MultibodySystem& system) {
  EncoderModel::attach(system);
  if (coordinateCount() != 4 || rateCount() != 3) {
    throw ModelError(describe() + ": the hinge of body '" + bodyName() + "' has nq = " +
                     std::to_string(coordinateCount()) + ", nu = " + std::to_string(rateCount()) +
                     " (expected a BALL: a quaternion, nq = 4 and nu = 3)");
  }
}

void BallEncoder::processParams(double /*t*/) {
  try {
    sequence_ = spatial::eulerSequenceFromString(param(d_.sequence));
  } catch (const InputError& e) {
    throw InputError("models." + name() + ".params.EulerSequence: " + e.what());
  }
}

void BallEncoder::startIoStep(double /*tStart*/, double /*tEnd*/) {
  const spatial::Quaternion q = spatial::canonicalQuaternion(
      spatial::normalizeQuaternion(coordinates().head<4>(), "ball hinge quaternion"));
  state(d_.sampledRotation) = q;
  const spatial::Vector3 euler =
      spatial::eulerFromRotation(sequence_, spatial::rotationFromQuaternion(q));
  auto angles = state(d_.sampledAngles);
  auto counts = state(d_.sampledCounts);
  for (Eigen::Index i = 0; i < 3; ++i) {
    const detail::Quantized sample = detail::quantize(euler[i], param(d_.lsb));
    angles[i] = sample.value;
    counts[static_cast<std::size_t>(i)] = sample.counts;
  }
}

void BallEncoder::updateFlowOuts(double /*t*/) {
  out(d_.rotation) = state(d_.sampledRotation);
  const auto angles = state(d_.sampledAngles);
  out(d_.angle1) = angles[0];
  out(d_.angle2) = angles[1];
  out(d_.angle3) = angles[2];
  std::ranges::copy(state(d_.sampledCounts), out(d_.counts).begin());
}

}  // namespace hopsim::models
