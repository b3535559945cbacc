#pragma once
// How hopsim run meets signals: SIGINT and SIGTERM stop the run cleanly at the end of the
// current hop; SIGPIPE and SIGXFSZ become failed writes, reported as errors naming the file.

#include <string>

namespace hopsim::apps {

/// While it lives: the first SIGINT or SIGTERM only sets a flag (received()), which the run's
/// stop callback reads after every hop; a second one ends the process at once, by the signal's
/// default action. SIGPIPE and SIGXFSZ are ignored, so that a reader closing its pipe or a file
/// size limit (ulimit -f) makes the write fail with EPIPE or EFBIG instead of killing the
/// process silently. The dispositions it found are restored when it goes.
class RunSignals {
 public:
  RunSignals();
  ~RunSignals();
  RunSignals(const RunSignals&) = delete;
  RunSignals& operator=(const RunSignals&) = delete;

  /// The first SIGINT or SIGTERM received since it was made, or 0.
  static int received();
};

/// "SIGINT", "SIGTERM", "signal N".
std::string signalName(int signal);

}  // namespace hopsim::apps
