#pragma once
// Running another program (Graphviz's dot, the Python interpreter) without a shell, so the
// arguments reach it as they are.

#include <string>
#include <vector>

namespace hopsim::apps {

/// How a finished child ended: its exit status, or the signal that killed it.
struct ChildExit {
  bool exited = false;
  int code = 0;  ///< the exit status when `exited`, else the signal number
};

/// Starts argv[0] (looked up on PATH unless it contains a '/') with `argv`, its standard input
/// read from `stdinFile` unless that is empty, and `environment` ("NAME=value" entries) or, when
/// it is null, this process's environment; then waits for it to end.
/// @returns 0 and sets `exit`, or the error number of a program that could not be started.
/// @throws Error when waiting for the child fails.
int runChild(const std::vector<std::string>& argv, const std::vector<std::string>* environment,
             const std::string& stdinFile, ChildExit& exit);

}  // namespace hopsim::apps
