// hopsim: the command-line program.

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "commands.h"
#include "hopsim/signals/error.h"

int main(int argc, char** argv) {
  CLI::App app{"hopsim: a multibody simulation framework in the style of DARTS/Dshell"};
  app.require_subcommand(1);
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
  runCommand->add_option("--out", run.out, "CSV file for the logged variables");
  runCommand->add_flag("--csv", run.csvToStdout, "print the CSV on stdout when no file is named");
  runCommand->add_flag("--quiet", run.quiet, "no event log and summary");
  hopsim::apps::CheckOptions check;
  CLI::App* checkCommand =
      app.add_subcommand("check", "load, validate and lock a YAML file without running it");
  checkCommand->add_option("file", check.file, "the YAML file")->required();
  checkCommand->add_option("--set", check.overrides,
                           "PATH=VALUE override, validated like the file (repeatable)");
  checkCommand->add_flag("--explain", check.explain,
                         "print the lowered assemblies, bodies, constraints, models and signals");
  CLI11_PARSE(app, argc, argv);
  try {
    if (*runCommand) return hopsim::apps::runScenario(run, std::cout, std::cerr);
    if (*checkCommand) return hopsim::apps::checkScenario(check, std::cout, std::cerr);
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
