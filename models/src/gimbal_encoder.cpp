#include "hopsim/models/gimbal_encoder.h"

#include <algorithm>

#include "encoder_quantizer.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

GimbalEncoder::Declaration::Declaration()
    : ModelSpec("GimbalEncoder", ModelKind::Encoder,
                "Samples the first three coordinates of the attached hinge (zero-padded) at the "
                "model's rate and holds them, quantized: counts[i] = floor(Q[i] / angle_lsb), "
                "angle[i] = counts[i] * angle_lsb (angle_lsb = 0: exact).") {
  // The outputs change only when a sample is taken, at an I/O step start.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const GimbalEncoder::Declaration& GimbalEncoder::declaration() {
  static const Declaration declaration;
  return declaration;
}

void GimbalEncoder::attach(MultibodySystem& system) {
  EncoderModel::attach(system);
  if (coordinateCount() > 3 || coordinateCount() != rateCount()) {
    throw ModelError(describe() + ": the hinge of body '" + bodyName() + "' has nq = " +
                     std::to_string(coordinateCount()) + ", nu = " + std::to_string(rateCount()) +
                     " (expected at most 3 angle coordinates, nq = nu; use BallEncoder for a "
                     "quaternion)");
  }
}

void GimbalEncoder::startIoStep(double /*tStart*/, double /*tEnd*/) {
  const auto q = coordinates();
  auto angles = state(d_.sampledAngles);
  auto counts = state(d_.sampledCounts);
  for (Eigen::Index i = 0; i < 3; ++i) {
    const detail::Quantized sample = detail::quantize(i < q.size() ? q[i] : 0.0, param(d_.lsb));
    angles[i] = sample.value;
    counts[static_cast<std::size_t>(i)] = sample.counts;
  }
}

void GimbalEncoder::updateFlowOuts(double /*t*/) {
  out(d_.angle) = state(d_.sampledAngles);
  const auto counts = state(d_.sampledCounts);
  std::ranges::copy(counts, out(d_.counts).begin());
}

}  // namespace hopsim::models
