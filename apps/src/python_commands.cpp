// hopsim plot: draws a CSV written by `hopsim run` with the Python package's plotting
// (`python3 -m hopsim.plot`, matplotlib). The interpreter is run directly (posix_spawn, no
// shell), with the arguments as they came, and its exit status is hopsim's.

#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "child_process.h"
#include "commands.h"
#include "hopsim/signals/error.h"

extern char** environ;  // NOLINT: POSIX, the environment the child inherits from

// Set by apps/CMakeLists.txt: the interpreter the Python module was built for and the build
// tree's importable package directory (<build>/python).
#ifndef HOPSIM_PYTHON_EXECUTABLE
#define HOPSIM_PYTHON_EXECUTABLE "python3"
#endif
#ifndef HOPSIM_PYTHON_DIR
#define HOPSIM_PYTHON_DIR ""
#endif

namespace hopsim::apps {

namespace {

/// Whether `path` is a directory holding the hopsim package (hopsim/__init__.py).
bool holdsPackage(const std::string& path) {
  if (path.empty()) return false;
  struct stat info {};
  return ::stat((path + "/hopsim/__init__.py").c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

/// The environment of the child: this process's, with the build tree's package directory in
/// front of PYTHONPATH (when it still exists), MPLBACKEND=Agg unless one is chosen (the figure
/// is only saved) and the program name for Python's usage and help lines.
std::vector<std::string> childEnvironment() {
  std::vector<std::string> entries;
  const std::string packageDir = HOPSIM_PYTHON_DIR;
  const bool addDir = holdsPackage(packageDir);
  bool sawPythonPath = false, sawBackend = false;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string text(*entry);
    if (text.rfind("HOPSIM_PLOT_PROG=", 0) == 0) continue;
    if (text.rfind("PYTHONPATH=", 0) == 0) {
      sawPythonPath = true;
      if (addDir) {
        const std::string rest = text.substr(std::strlen("PYTHONPATH="));
        text = "PYTHONPATH=" + packageDir + (rest.empty() ? "" : ":" + rest);
      }
    }
    if (text.rfind("MPLBACKEND=", 0) == 0) sawBackend = true;
    entries.push_back(std::move(text));
  }
  if (addDir && !sawPythonPath) entries.push_back("PYTHONPATH=" + packageDir);
  if (!sawBackend) entries.emplace_back("MPLBACKEND=Agg");
  entries.emplace_back("HOPSIM_PLOT_PROG=hopsim plot");
  return entries;
}

}  // namespace

int plotCsv(const PlotOptions& options) {
  const char* chosen = std::getenv("HOPSIM_PYTHON");
  const std::string python =
      chosen != nullptr && *chosen != '\0' ? chosen : HOPSIM_PYTHON_EXECUTABLE;
  // Options first, then "--": a file or column named like an option ("-x") stays positional.
  std::vector<std::string> arguments{python, "-m", "hopsim.plot"};
  if (options.output) {
    arguments.emplace_back("-o");
    arguments.push_back(*options.output);
  }
  if (options.dpi) {
    arguments.emplace_back("--dpi");
    arguments.push_back(std::to_string(*options.dpi));
  }
  arguments.emplace_back("--");
  arguments.push_back(options.file);
  for (const std::string& column : options.columns) arguments.push_back(column);
  std::vector<std::string> environment = childEnvironment();
  std::cout.flush();
  std::cerr.flush();
  // A bare name (HOPSIM_PYTHON=python3) is looked up on PATH.
  ChildExit exit;
  if (const int error = runChild(arguments, &environment, {}, exit)) {
    throw Error("plot: cannot run the Python interpreter '" + python + "': " +
                std::strerror(error) +
                " (set HOPSIM_PYTHON to one that imports hopsim, numpy, pandas and matplotlib)");
  }
  if (exit.exited) return exit.code;
  throw Error("plot: '" + python + " -m hopsim.plot' was killed by signal " +
              std::to_string(exit.code));
}

}  // namespace hopsim::apps
