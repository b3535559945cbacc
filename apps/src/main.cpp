// hopsim: the command-line program.

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "hopsim/signals/error.h"

int main(int argc, char** argv) {
  CLI::App app{"hopsim: a multibody simulation framework in the style of DARTS/Dshell"};
  app.require_subcommand(1);
  CLI::App* demo = app.add_subcommand("demo", "run the built-in multi-rate dataflow demo");
  CLI::App* models = app.add_subcommand("models", "list registered model classes");
  bool doc = false;
  models->add_flag("--doc", doc, "print the Markdown reference generated from the declarations");
  hopsim::apps::RunOptions run;
  CLI::App* runCommand = app.add_subcommand("run", "load a native scenario (hopsim: 1) and run it");
  runCommand->add_option("file", run.file, "the scenario file")->required();
  runCommand->add_option("--set", run.overrides,
                         "PATH=VALUE override, validated like the file (repeatable)");
  runCommand->add_option("--end", run.end, "end time, s (default: simulation.end_time)");
  runCommand->add_option("--out", run.out, "CSV file for the logged variables");
  runCommand->add_flag("--csv", run.csvToStdout, "print the CSV on stdout when no file is named");
  runCommand->add_flag("--quiet", run.quiet, "no event log and summary");
  CLI11_PARSE(app, argc, argv);
  try {
    if (*runCommand) return hopsim::apps::runScenario(run, std::cout, std::cerr);
    if (*demo) return hopsim::apps::runDemo(std::cout);
    if (*models) return hopsim::apps::listModels(std::cout, doc);
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
