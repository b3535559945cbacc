#include "hopsim/models/hinge_encoder.h"

#include "hopsim/signals/error.h"

namespace hopsim::models {

HingeEncoder::Declaration::Declaration()
    : ModelSpec("HingeEncoder", ModelKind::Encoder,
                "Reads the hinge or subhinge it is attached to: q = Q (nq entries) and u = U (nu "
                "entries) of the current state, with no feed-through.") {
  // The outputs change only with the state: lock() adds PREDERIV and POSTDERIV when a
  // ContinuousModel reads them and STARTIO when a FlowModel does.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const HingeEncoder::Declaration& HingeEncoder::declaration() {
  static const Declaration declaration;
  return declaration;
}

void HingeEncoder::attach(MultibodySystem& system) {
  EncoderModel::attach(system);
  const auto check = [&](std::size_t port, const char* field, int expected, const char* what) {
    const std::size_t length = binding(FieldRole::FlowOut, port).length();
    if (length != static_cast<std::size_t>(expected)) {
      throw ModelError(describe() + ": flowOut '" + field + "' is tied to '" +
                       binding(FieldRole::FlowOut, port).describe() + "' of length " +
                       std::to_string(length) + " but the attached " +
                       (subhinge() < 0 ? "hinge" : "subhinge " + std::to_string(subhinge())) +
                       " of body '" + bodyName() + "' has " + what + " = " +
                       std::to_string(expected));
    }
  };
  check(d_.q.index, "q", coordinateCount(), "nq");
  check(d_.u.index, "u", rateCount(), "nu");
}

void HingeEncoder::updateFlowOuts(double /*t*/) {
  out(d_.q) = coordinates();
  out(d_.u) = rates();
}

}  // namespace hopsim::models
