#include "hopsim/models/signal_mux.h"

#include "hopsim/signals/error.h"

namespace hopsim::models {

SignalMux::Declaration::Declaration()
    : ModelSpec("SignalMux", ModelKind::Continuous,
                "Multiplexes a vector: out[i] = in[muxTable[i]] (0-based), so size(out) = "
                "size(muxTable); indices are checked against size(in). Feed-through from in.") {
  // Declared at the hop boundaries; lock() adds the derivative sweeps when a ContinuousModel
  // reads the output (and, through the feed-through, to the writer of the input).
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const SignalMux::Declaration& SignalMux::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SignalMux::setup() {
  inputLength_ = static_cast<Eigen::Index>(binding(FieldRole::FlowIn, d_.in.index).length());
  checkTable();
}

void SignalMux::processParams(double /*t*/) { checkTable(); }

void SignalMux::checkTable() {
  const auto table = param(d_.muxTable);
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i] < 0 || table[i] >= inputLength_) {
      throw InputError("models." + name() + ".params.muxTable[" + std::to_string(i) + "]: value " +
                       std::to_string(table[i]) + " is not an index of 'in' (expected 0 to " +
                       std::to_string(inputLength_ - 1) + ", in has " +
                       std::to_string(inputLength_) + " elements)");
    }
  }
}

void SignalMux::updateFlowOuts(double /*t*/) {
  const auto table = param(d_.muxTable);
  const auto input = in(d_.in);
  auto output = out(d_.out);
  for (std::size_t i = 0; i < table.size(); ++i) {
    output[static_cast<Eigen::Index>(i)] = input[static_cast<Eigen::Index>(table[i])];
  }
}

}  // namespace hopsim::models
