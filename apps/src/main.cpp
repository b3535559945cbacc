// hopsim: the command-line program.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/version.h"
#include "hopsim/integrators/integrator.h"
#include "hopsim/signals/error.h"
#include "option_values.h"

namespace {

/// A setting an option takes from the environment when the command line does not give it.
struct EnvironmentSetting {
  const CLI::Option* option;
  std::string variable;
  /// Parses a value and stores it; `source` names it in messages.
  std::function<void(std::string_view text, const std::string& source)> read;
};

/// Lets `option` take its value from environment variable `variable`, read by `read` (so that
/// an error names the variable), and shows that in the help as CLI11 shows an envname.
void fromEnvironment(CLI::Option* option, const std::string& variable, const std::string& typeName,
                     std::function<void(std::string_view, const std::string&)> read,
                     std::vector<EnvironmentSetting>& environment) {
  option->option_text((typeName.empty() ? "" : typeName + " ") + "(Env:" + variable + ")");
  environment.push_back({option, variable, std::move(read)});
}

/// Declares option `name`, whose text `parse(text, source)` converts into `into`; CLI11 converts
/// nothing itself, so that every value is read one way, from the command line or, given
/// `environment`, from `variable` there. A value that does not parse is a CLI11 error naming the
/// option.
template <class T, class Parse>
void addValue(CLI::App& command, const std::string& name, std::optional<T>& into, Parse parse,
              const std::string& typeName, const std::string& description,
              const std::string& variable = {},
              std::vector<EnvironmentSetting>* environment = nullptr) {
  const auto read = [&into, parse](std::string_view text, const std::string& source) {
    into = static_cast<T>(parse(text, source));
  };
  CLI::Option* option = command.add_option_function<std::string>(
      name,
      [read, name](const std::string& text) {
        try {
          read(text, name);
        } catch (const hopsim::InputError& e) {
          throw CLI::ValidationError(e.what());
        }
      },
      description);
  option->type_name(typeName);
  if (environment != nullptr) fromEnvironment(option, variable, typeName, read, *environment);
}

/// Reads the settings the command line did not give from the environment (an empty variable
/// counts as unset). @throws InputError naming the variable, its value and what was expected.
void readEnvironment(const std::vector<EnvironmentSetting>& environment) {
  for (const EnvironmentSetting& setting : environment) {
    if (setting.option->count() > 0) continue;
    const char* value = std::getenv(setting.variable.c_str());
    if (value == nullptr || *value == '\0') continue;
    setting.read(value, "environment variable " + setting.variable);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"hopsim: a multibody simulation framework in the style of DARTS/Dshell"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "hopsim " + hopsim::versionText(),
                       "Print the version and the git commit it was built from, and exit");
  CLI::App* demo = app.add_subcommand("demo", "run the built-in multi-rate dataflow demo");
  CLI::App* models = app.add_subcommand("models", "list registered model classes");
  bool doc = false;
  std::optional<std::string> modelClass;
  models->add_option("name", modelClass,
                     "one class: print its reference (params, states, ports, feed-through, zero "
                     "crossings)");
  models->add_flag("--doc", doc, "print the Markdown reference generated from the declarations");
  hopsim::apps::RunOptions run;
  CLI::App* runCommand = app.add_subcommand(
      "run", "run a native scenario, a Chrono MBS model or simulation file, or an MBSE file");
  runCommand->add_option("file", run.file, "the YAML file")->required();
  runCommand->add_option("--set", run.overrides,
                         "PATH=VALUE override, validated like the file (repeatable)");
  std::vector<EnvironmentSetting> environment;
  const auto real = [](bool positive) {
    return [positive](std::string_view text, const std::string& source) {
      return hopsim::apps::parseReal(text, source, positive);
    };
  };
  const auto integer = [](std::int64_t min, std::int64_t max) {
    return [min, max](std::string_view text, const std::string& source) {
      return hopsim::apps::parseInteger(text, source, min, max);
    };
  };
  const auto fileName = [](std::string_view text, const std::string& source) {
    return hopsim::apps::parseText(text, source, "a file name");
  };
  // Settings a user may also give in the environment: the command line wins over it, and it
  // over the file (docs/scenario-yaml.md, "hopsim run").
  addValue(*runCommand, "--end", run.end, real(false), "FLOAT",
           "end time, s (default: simulation.end_time)", "HOPSIM_END", &environment);
  addValue(*runCommand, "--dt", run.timeStep, real(true), "FLOAT",
           "largest fixed integration step, s (simulation.time_step)", "HOPSIM_DT", &environment);
  addValue(
      *runCommand, "--integrator", run.integrator,
      [](std::string_view text, const std::string& source) {
        return hopsim::apps::parseChoice(text, source, hopsim::integratorNames());
      },
      "TEXT", "euler, rk4, rkf45, cvode, euler_implicit_linearized or euler_implicit",
      "HOPSIM_INTEGRATOR", &environment);
  addValue(*runCommand, "--rtol", run.rtol, real(true), "FLOAT",
           "relative tolerance (rkf45, cvode)", "HOPSIM_RTOL", &environment);
  addValue(*runCommand, "--atol", run.atol, real(true), "FLOAT",
           "absolute tolerance (rkf45, cvode)", "HOPSIM_ATOL", &environment);
  // integration_steps is an int: beyond its range a count would wrap.
  addValue(
      *runCommand, "--steps", run.steps,
      integer(1, std::numeric_limits<decltype(hopsim::SimulationOptions::integrationSteps)>::max()),
      "INT", "fixed-step integration sub-steps per hop (simulation.integration_steps)",
      "HOPSIM_STEPS", &environment);
  runCommand->add_option("--log", run.logs,
                         "variable path or glob to log (repeatable; replaces logging.variables "
                         "and logging.columns)");
  addValue(*runCommand, "--log-rate", run.logRate, real(true), "FLOAT",
           "sample rate, Hz (logging.rate)", "HOPSIM_LOG_RATE", &environment);
  runCommand->add_option("--log-event", run.logEvents,
                         "also sample right after this event fires: a name or glob (repeatable; "
                         "logging.events)");
  addValue(*runCommand, "--out", run.out, fileName, "TEXT",
           "file for the logged variables: F.h5 or F.hdf5 writes HDF5, any other name CSV");
  runCommand->add_flag("--csv", run.csvToStdout, "print the CSV on stdout when no file is named");
  CLI::Option* quiet =
      runCommand->add_flag("--quiet", run.quiet, "no event log, progress and summary");
  fromEnvironment(
      quiet, "HOPSIM_QUIET", "",
      [&run](std::string_view text, const std::string& source) {
        run.quiet = hopsim::apps::parseSwitch(text, source);
      },
      environment);
  std::optional<double> progressInterval;
  addValue(*runCommand, "--progress-interval", progressInterval, real(true), "FLOAT",
           "when stderr is not a terminal, a progress line every 10% of the run or every "
           "FLOAT s of wall time, whichever comes first (default: 10)",
           "HOPSIM_PROGRESS_INTERVAL", &environment);
  addValue(*runCommand, "--realtime", run.realtime, real(true), "FLOAT",
           "pace the run: sim time advances FACTOR times as fast as the wall clock",
           "HOPSIM_REALTIME", &environment);
  addValue(*runCommand, "--view", run.view, fileName, "TEXT",
           "also write PAGE.html, a 3D replay of the run that opens in any browser "
           "(docs/viewer.md)");
  addValue(*runCommand, "--view-rate", run.viewRate, real(true), "FLOAT",
           "frames per second of the replay page, Hz (default: 100, at most 10000 frames)");
  hopsim::apps::CheckOptions check;
  CLI::App* checkCommand =
      app.add_subcommand("check", "load, validate and lock a YAML file without running it");
  checkCommand->add_option("file", check.file, "the YAML file")->required();
  checkCommand->add_option("--set", check.overrides,
                           "PATH=VALUE override, validated like the file (repeatable)");
  checkCommand->add_flag("--explain", check.explain,
                         "print the lowered assemblies, bodies, constraints, models and signals");
  hopsim::apps::GraphOptions graph;
  CLI::App* graphCommand = app.add_subcommand(
      "graph", "draw the dataflow of a YAML file (models, signals, assemblies) as Graphviz DOT");
  graphCommand->add_option("file", graph.file, "the YAML file")->required();
  graphCommand->add_option("-o,--output", graph.output,
                           "FILE.dot (or .gv) for DOT, FILE.svg to render it with Graphviz's dot "
                           "(default: DOT on stdout)");
  graphCommand->add_option("--set", graph.overrides,
                           "PATH=VALUE override, validated like the file (repeatable)");
  hopsim::apps::LinearizeOptions linearize;
  CLI::App* linearizeCommand = app.add_subcommand(
      "linearize", "run a YAML file to a time and write its linear model there (A, B, C, D)");
  linearizeCommand->add_option("file", linearize.file, "the YAML file")->required();
  addValue(*linearizeCommand, "--at", linearize.at, real(false), "FLOAT",
           "the operating time, s: the scenario runs to it first (default: its start)");
  linearizeCommand->add_option("--states", linearize.states,
                               "tangent state names or globs (default: every state)");
  linearizeCommand->add_option("--inputs", linearize.inputs, "signals or double params");
  linearizeCommand->add_option("--outputs", linearize.outputs, "numeric variables or globs");
  linearizeCommand->add_option("--scheme", linearize.scheme,
                               "forward, central2, central4 or richardson (default)");
  linearizeCommand->add_flag("--sampled", linearize.sampled,
                             "the sampled-data model (Phi, Gamma) at the I/O step");
  linearizeCommand->add_option("-o,--output", linearize.output, "FILE.npz, FILE.csv or FILE.json")
      ->required();
  linearizeCommand->add_option("--set", linearize.overrides,
                               "PATH=VALUE override, validated like the file (repeatable)");
  hopsim::apps::ViewOptions view;
  CLI::App* viewCommand = app.add_subcommand(
      "view", "write a 3D replay page of a recorded run, one HTML file that works offline");
  viewCommand
      ->add_option("file", view.file,
                   "the CSV file (with its F.scene.json) or HDF5 file of hopsim run")
      ->required();
  viewCommand->add_option("-o,--output", view.output,
                          "the page (default: the recording's name with .html)");
  hopsim::apps::PlotOptions plot;
  CLI::App* plotCommand = app.add_subcommand(
      "plot",
      "draw the columns of a CSV written by hopsim run against time, in panels by body, "
      "quantity and unit (python3 -m hopsim.plot, matplotlib)");
  plotCommand
      ->add_option("file", plot.file,
                   "the CSV file (its F.units.json gives the units) or the HDF5 file "
                   "(.h5, .hdf5) of hopsim run")
      ->required();
  plotCommand->add_option("vars", plot.columns,
                          "columns to draw, names or patterns with * and ? (default: every "
                          "column)");
  plotCommand->add_option("-o,--output", plot.output,
                          "FILE.png (or .pdf, .svg; default: the CSV's name with .png)");
  addValue(*plotCommand, "--dpi", plot.dpi, integer(1, 10000), "INT",
           "resolution of the image, 1 to 10000 (default: 100)");
  hopsim::apps::CampaignOptions campaign;
  CLI::App* campaignCommand = app.add_subcommand(
      "campaign",
      "run a Monte Carlo campaign or parameter sweep of a scenario on a local Dask cluster or a "
      "running scheduler (python3 -m hopsim.campaign)");
  campaignCommand->add_option("file", campaign.file, "the campaign file (docs/campaigns.md)")
      ->required();
  addValue(*campaignCommand, "--workers", campaign.workers,
           integer(0, std::numeric_limits<int>::max()), "INT",
           "worker processes of the local cluster (default: the CPU count; 0 runs serially in "
           "one process)");
  campaignCommand->add_option("--scheduler", campaign.scheduler,
                              "run on the Dask scheduler at ADDRESS (tcp://host:8786)");
  addValue(*campaignCommand, "--replay", campaign.replay,
           integer(0, std::numeric_limits<std::int64_t>::max()), "INT",
           "run member RUN alone and print what it recorded");
  addValue(*campaignCommand, "--runs", campaign.runs,
           integer(1, std::numeric_limits<std::int64_t>::max()), "INT",
           "the number of runs, replacing the file's runs");
  campaignCommand->add_option("--set", campaign.overrides,
                              "PATH=VALUE override of the scenario for every run, added to the "
                              "file's overrides (repeatable)");
  campaignCommand->add_option("--out-dir", campaign.outDir,
                              "the directory the outputs go to (default: the current directory; "
                              "created if missing)");
  campaignCommand->add_option("--out", campaign.out,
                              "the results file (default: outputs.file, else the campaign "
                              "file's name with .h5, in the output directory)");
  campaignCommand->add_flag("--quiet", campaign.quiet, "no progress and no summary");
  campaignCommand->get_option("--workers")->excludes(campaignCommand->get_option("--scheduler"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; a bad command line (a value that does not convert, a
    // missing argument) exits 1, as every other error does, after CLI11's message.
    return app.exit(e) == 0 ? 0 : 1;
  }
  try {
    if (*runCommand) {
      readEnvironment(environment);  // the settings of `run` only
      run.terminal = isatty(fileno(stderr)) != 0;
      if (progressInterval) run.progressInterval = *progressInterval;
      return hopsim::apps::runScenario(run, std::cerr);
    }
    if (*checkCommand) return hopsim::apps::checkScenario(check, std::cout, std::cerr);
    if (*graphCommand) return hopsim::apps::graphScenario(graph, std::cout, std::cerr);
    if (*linearizeCommand) return hopsim::apps::linearizeScenario(linearize, std::cout, std::cerr);
    if (*plotCommand) return hopsim::apps::plotCsv(plot);
    if (*viewCommand) return hopsim::apps::viewRun(view, std::cerr);
    if (*campaignCommand) return hopsim::apps::runCampaign(campaign);
    if (*demo) return hopsim::apps::runDemo(std::cout);
    if (*models) return hopsim::apps::listModels(std::cout, modelClass, doc);
  } catch (const hopsim::Error& e) {
    std::cerr << "hopsim: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    // Not one of hopsim's own errors (a library's, or out of memory): still a clean exit.
    std::cerr << "hopsim: internal error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
