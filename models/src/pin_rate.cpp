#include "hopsim/models/pin_rate.h"

#include "encoder_quantizer.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

PinRate::Declaration::Declaration()
    : ModelSpec("PinRate", ModelKind::Encoder,
                "Samples the rate U[0] of the attached hinge's first degree of freedom at the "
                "model's rate and holds it, quantized: counts = floor(U[0] / rate_lsb), rate = "
                "counts * rate_lsb (rate_lsb = 0: exact).") {
  // The outputs change only when a sample is taken, at an I/O step start.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const PinRate::Declaration& PinRate::declaration() {
  static const Declaration declaration;
  return declaration;
}

void PinRate::attach(MultibodySystem& system) {
  EncoderModel::attach(system);
  if (rateCount() < 1) {
    throw ModelError(describe() + ": the hinge of body '" + bodyName() +
                     "' has no degree of freedom (expected at least 1 rate)");
  }
}

void PinRate::startIoStep(double /*tStart*/, double /*tEnd*/) {
  const detail::Quantized q = detail::quantize(rates()[0], param(d_.lsb));
  state(d_.sampledRate) = q.value;
  state(d_.sampledCounts) = q.counts;
}

void PinRate::updateFlowOuts(double /*t*/) {
  out(d_.rate) = state(d_.sampledRate);
  out(d_.counts) = state(d_.sampledCounts);
}

}  // namespace hopsim::models
