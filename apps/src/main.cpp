// hopsim: the command-line program.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "commands.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"

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
  runCommand->add_option("--end", run.end, "end time, s (default: simulation.end_time)");
  runCommand->add_option("--dt", run.timeStep,
                         "largest fixed integration step, s (simulation.time_step)");
  runCommand->add_option("--integrator", run.integrator, "euler, rk4, rkf45 or cvode");
  runCommand->add_option("--rtol", run.rtol, "relative tolerance (rkf45, cvode)");
  runCommand->add_option("--atol", run.atol, "absolute tolerance (rkf45, cvode)");
  runCommand->add_option("--steps", run.steps,
                         "fixed-step integration sub-steps per hop (simulation.integration_steps)");
  runCommand->add_option("--log", run.logs,
                         "variable path or glob to log (repeatable; replaces logging.variables "
                         "and logging.columns)");
  runCommand->add_option("--log-rate", run.logRate, "sample rate, Hz (logging.rate)");
  runCommand->add_option("--log-event", run.logEvents,
                         "also sample right after this event fires: a name or glob (repeatable; "
                         "logging.events)");
  runCommand->add_option(
      "--out", run.out,
      "file for the logged variables: F.h5 or F.hdf5 writes HDF5, any other name CSV");
  runCommand->add_flag("--csv", run.csvToStdout, "print the CSV on stdout when no file is named");
  runCommand->add_flag("--quiet", run.quiet, "no event log, progress and summary");
  runCommand->add_flag("--progress", run.progress,
                       "progress lines every 10% even when stderr is not a terminal");
  runCommand->add_option("--realtime", run.realtime,
                         "pace the run: sim time advances FACTOR times as fast as the wall clock");
  runCommand->add_option("--view", run.view,
                         "also write PAGE.html, a 3D replay of the run that opens in any browser "
                         "(docs/viewer.md)");
  runCommand->add_option("--view-rate", run.viewRate,
                         "frames per second of the replay page, Hz (default: 100, at most 10000 "
                         "frames)");
  // Settings a user may give in the environment: the command line wins over it, and it over
  // the file (docs/scenario-yaml.md, "hopsim run").
  for (const auto& [option, variable] : {std::pair{"--end", "HOPSIM_END"},
                                         {"--dt", "HOPSIM_DT"},
                                         {"--integrator", "HOPSIM_INTEGRATOR"},
                                         {"--rtol", "HOPSIM_RTOL"},
                                         {"--atol", "HOPSIM_ATOL"},
                                         {"--steps", "HOPSIM_STEPS"},
                                         {"--log-rate", "HOPSIM_LOG_RATE"},
                                         {"--realtime", "HOPSIM_REALTIME"},
                                         {"--quiet", "HOPSIM_QUIET"}}) {
    runCommand->get_option(option)->envname(variable);
  }
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
      "draw the columns of a CSV written by hopsim run against time, one panel per unit "
      "(python3 -m hopsim.plot, matplotlib)");
  plotCommand
      ->add_option("file", plot.file,
                   "the CSV file (its F.units.json gives the units) or the HDF5 file "
                   "(.h5, .hdf5) of hopsim run")
      ->required();
  plotCommand->add_option("vars", plot.columns, "columns to draw (default: every column)");
  plotCommand->add_option("-o,--output", plot.output,
                          "FILE.png (or .pdf, .svg; default: the CSV's name with .png)");
  plotCommand->add_option("--dpi", plot.dpi, "resolution of the image (default: 100)")
      ->check(CLI::Range(1, 10000));
  hopsim::apps::CampaignOptions campaign;
  CLI::App* campaignCommand = app.add_subcommand(
      "campaign",
      "run a Monte Carlo campaign or parameter sweep of a scenario on a local Dask cluster or a "
      "running scheduler (python3 -m hopsim.campaign)");
  campaignCommand->add_option("file", campaign.file, "the campaign file (docs/campaigns.md)")
      ->required();
  campaignCommand
      ->add_option("--workers", campaign.workers,
                   "worker processes of the local cluster (default: the CPU count; 0 runs "
                   "serially in one process)")
      ->check(CLI::NonNegativeNumber);
  campaignCommand->add_option("--scheduler", campaign.scheduler,
                              "run on the Dask scheduler at ADDRESS (tcp://host:8786)");
  campaignCommand->add_option("--replay", campaign.replay,
                              "run member RUN alone and print what it recorded")
      ->check(CLI::NonNegativeNumber);
  campaignCommand->add_option("--out", campaign.out,
                              "the results file (default: outputs.file, else the campaign "
                              "file's name with .h5)");
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
      run.terminal = isatty(fileno(stderr)) != 0;
      return hopsim::apps::runScenario(run, std::cout, std::cerr);
    }
    if (*checkCommand) return hopsim::apps::checkScenario(check, std::cout, std::cerr);
    if (*graphCommand) return hopsim::apps::graphScenario(graph, std::cout, std::cerr);
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
