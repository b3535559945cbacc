#include "run_signals.h"

#include <csignal>
#include <iterator>

namespace hopsim::apps {

namespace {

constexpr int kHandled[] = {SIGINT, SIGTERM};
constexpr int kIgnored[] = {SIGPIPE, SIGXFSZ};

volatile std::sig_atomic_t firstSignal = 0;

struct sigaction previous[std::size(kHandled) + std::size(kIgnored)];

extern "C" void onStopSignal(int signal) {
  if (firstSignal != 0) {
    // The second: what the signal does by default, at once (it is delivered when this returns).
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  firstSignal = signal;
}

}  // namespace

RunSignals::RunSignals() {
  firstSignal = 0;
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // a write or a sleep goes on: the run stops between hops
  std::size_t i = 0;
  action.sa_handler = onStopSignal;
  for (const int signal : kHandled) sigaction(signal, &action, &previous[i++]);
  action.sa_handler = SIG_IGN;
  for (const int signal : kIgnored) sigaction(signal, &action, &previous[i++]);
}

RunSignals::~RunSignals() {
  std::size_t i = 0;
  for (const int signal : kHandled) sigaction(signal, &previous[i++], nullptr);
  for (const int signal : kIgnored) sigaction(signal, &previous[i++], nullptr);
}

int RunSignals::received() { return firstSignal; }

std::string signalName(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

}  // namespace hopsim::apps
