// The subcommands the Python package carries out: hopsim plot (`python3 -m hopsim.plot`,
// matplotlib) and hopsim campaign (`python3 -m hopsim.campaign`, Dask). The interpreter is run
// directly (posix_spawn, no shell), with the arguments as they came, and its exit status is
// hopsim's.

#include <sys/stat.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "child_process.h"
#include "commands.h"
#include "hopsim/signals/error.h"

extern char** environ;  // NOLINT: POSIX, the environment the child inherits from

// Set by apps/CMakeLists.txt: the interpreter the Python module was built for, the build
// tree's importable package directory (<build>/python) and the directory the program is built
// in, and the installed package's directory relative to the installed program's.
#ifndef HOPSIM_PYTHON_EXECUTABLE
#define HOPSIM_PYTHON_EXECUTABLE "python3"
#endif
#ifndef HOPSIM_PYTHON_DIR
#define HOPSIM_PYTHON_DIR ""
#endif
#ifndef HOPSIM_BUILD_PROGRAM_DIR
#define HOPSIM_BUILD_PROGRAM_DIR ""
#endif
#ifndef HOPSIM_INSTALLED_PYTHON_DIR
#define HOPSIM_INSTALLED_PYTHON_DIR ""
#endif

namespace hopsim::apps {

namespace {

/// Whether `path` is a directory holding the hopsim package (hopsim/__init__.py).
bool holdsPackage(const std::string& path) {
  if (path.empty()) return false;
  struct stat info {};
  return ::stat((path + "/hopsim/__init__.py").c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

/// The directory holding the hopsim package that goes with this program: the build tree's when
/// this is the build tree's program, else the one installed with it; empty when that directory
/// does not hold the package (then the interpreter's own path decides).
std::string packageDirectory() {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path programDir = fs::read_symlink("/proc/self/exe", error).parent_path();
  if (error) return "";
  std::string candidate;
  if (programDir == fs::weakly_canonical(HOPSIM_BUILD_PROGRAM_DIR, error) && !error) {
    candidate = HOPSIM_PYTHON_DIR;
  } else if (*HOPSIM_INSTALLED_PYTHON_DIR != '\0') {
    candidate = (programDir / HOPSIM_INSTALLED_PYTHON_DIR).lexically_normal().string();
  }
  return holdsPackage(candidate) ? candidate : "";
}

/// The environment of the child: this process's, with packageDirectory() in front of
/// PYTHONPATH (when there is one), MPLBACKEND=Agg unless one is chosen (figures are only saved)
/// and `progVariable`=`progName`, the program name for Python's usage lines.
std::vector<std::string> childEnvironment(const std::string& progVariable,
                                          const std::string& progName) {
  std::vector<std::string> entries;
  const std::string packageDir = packageDirectory();
  const bool addDir = !packageDir.empty();
  bool sawPythonPath = false, sawBackend = false;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string text(*entry);
    if (text.rfind(progVariable + "=", 0) == 0) continue;
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
  entries.push_back(progVariable + "=" + progName);
  return entries;
}

/// Runs `python -m module arguments...` (the interpreter hopsim was built for, or
/// $HOPSIM_PYTHON) and returns its exit status. `needs` names the packages the module imports,
/// for the message when the interpreter cannot be run. @throws Error when it cannot be run or
/// is killed.
int runPythonModule(const std::string& command, const std::string& module,
                    const std::vector<std::string>& arguments, const std::string& needs) {
  const char* chosen = std::getenv("HOPSIM_PYTHON");
  const std::string python =
      chosen != nullptr && *chosen != '\0' ? chosen : HOPSIM_PYTHON_EXECUTABLE;
  std::vector<std::string> line{python, "-m", module};
  line.insert(line.end(), arguments.begin(), arguments.end());
  std::string progVariable = "HOPSIM_" + command + "_PROG";
  for (char& c : progVariable) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::vector<std::string> environment = childEnvironment(progVariable, "hopsim " + command);
  std::cout.flush();
  std::cerr.flush();
  // A bare name (HOPSIM_PYTHON=python3) is looked up on PATH.
  ChildExit exit;
  if (const int error = runChild(line, &environment, {}, exit)) {
    throw Error(command + ": cannot run the Python interpreter '" + python + "': " +
                std::strerror(error) + " (set HOPSIM_PYTHON to one that imports " + needs + ")");
  }
  if (exit.exited) return exit.code;
  throw Error(command + ": '" + python + " -m " + module + "' was killed by signal " +
              std::to_string(exit.code));
}

}  // namespace

int plotCsv(const PlotOptions& options) {
  // Options first, then "--": a file or column named like an option ("-x") stays positional.
  std::vector<std::string> arguments;
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
  return runPythonModule("plot", "hopsim.plot", arguments, "hopsim, numpy, pandas and matplotlib");
}

int runCampaign(const CampaignOptions& options) {
  std::vector<std::string> arguments;
  if (options.workers) {
    arguments.emplace_back("--workers");
    arguments.push_back(std::to_string(*options.workers));
  }
  if (options.scheduler) {
    arguments.emplace_back("--scheduler");
    arguments.push_back(*options.scheduler);
  }
  if (options.replay) {
    arguments.emplace_back("--replay");
    arguments.push_back(std::to_string(*options.replay));
  }
  if (options.runs) {
    arguments.emplace_back("--runs");
    arguments.push_back(std::to_string(*options.runs));
  }
  for (const std::string& override : options.overrides) arguments.push_back("--set=" + override);
  if (options.outDir) arguments.push_back("--out-dir=" + *options.outDir);
  if (options.out) {
    arguments.emplace_back("--out");
    arguments.push_back(*options.out);
  }
  if (options.quiet) arguments.emplace_back("--quiet");
  arguments.emplace_back("--");
  arguments.push_back(options.file);
  return runPythonModule("campaign", "hopsim.campaign", arguments,
                         "hopsim, numpy, scipy, h5py, matplotlib and distributed");
}

}  // namespace hopsim::apps
