#pragma once
// The schemas of the native scenario format's own sections (docs/scenario-yaml.md), private to
// the scenario loader. Config, context and params of assemblies and models are parsed with
// their classes' schemas instead.
#include <limits>
#include <string>
#include <vector>

#include "hopsim/assemblies/param_schema.h"
#include "hopsim/core/simulation.h"

namespace hopsim::scenario {

/// `simulation:`.
struct SimulationSection : ParamSchema {
  SchemaKey<double> startTime =
      field<double>("start_time").unit("s").defaultValue(0.0).describe("time at creation");
  SchemaKey<double> endTime =
      field<double>("end_time").unit("s").describe("run() advances to this time");
  SchemaKey<double> ioStep =
      field<double>("io_step").unit("s").above(0.0).defaultValue(0.01).describe(
          "the default I/O period");
  SchemaKey<std::int64_t> integrationSteps =
      field<std::int64_t>("integration_steps")
          .min(1)
          .max(std::numeric_limits<int>::max())
          .defaultValue(1)
          .describe("fixed-step integration sub-steps per hop");
  SchemaKey<double> timeStep = field<double>("time_step")
                                   .unit("s")
                                   .above(0.0)
                                   .optional()
                                   .describe(
                                       "largest fixed integration step; sets integration_steps to "
                                       "ceil(io_step / time_step)");
  SchemaKey<std::string> integrator = field<std::string>("integrator")
                                          .defaultValue("rk4")
                                          .choices({"euler", "rk4", "rkf45", "cvode",
                                                    "euler_implicit_linearized", "euler_implicit"})
                                          .describe("the integrator");
  SchemaKey<double> rtol = field<double>("rtol").above(0.0).defaultValue(1e-6).describe(
      "relative tolerance (rkf45, cvode; euler_implicit's Newton iteration)");
  SchemaKey<double> atol = field<double>("atol").above(0.0).defaultValue(1e-9).describe(
      "absolute tolerance (rkf45, cvode; euler_implicit's Newton iteration)");
  SchemaKey<double> maxStep = field<double>("max_step")
                                  .unit("s")
                                  .min(0.0)
                                  .defaultValue(0.0)
                                  .describe("largest internal step; 0 = unbounded");
  SchemaKey<std::string> method = field<std::string>("method")
                                      .defaultValue("bdf")
                                      .choices({"bdf", "adams"})
                                      .describe("cvode's method");
  SchemaKey<std::string> nonlinearSolver =
      field<std::string>("nonlinear_solver")
          .defaultValue("newton")
          .choices({"newton", "fixed_point"})
          .describe(
              "how cvode solves each step's implicit equation (fixed_point: non-stiff "
              "problems, with adams)");
  SchemaKey<bool> continueAcrossHops =
      field<bool>("continue_across_hops")
          .defaultValue(false)
          .describe(
              "cvode only: continue its history from one hop into the next where nothing "
              "changed at the hop boundary, instead of re-initialising it at every hop");
  SchemaKey<double> stateBound =
      field<double>("state_bound")
          .above(0.0)
          .defaultValue(SimulationOptions{}.stateBound)
          .describe(
              "the largest magnitude an integrated state may reach; beyond it, or not "
              "finite, the run stops with a NumericalError");
  SchemaKey<std::vector<double>> gravity = field<std::vector<double>>("gravity")
                                               .unit("m/s^2")
                                               .length(3)
                                               .defaultValue({0.0, 0.0, 0.0})
                                               .describe("uniform gravity in the world frame");
};

/// One entry of `signals:`.
struct SignalSection : ParamSchema {
  SchemaKey<std::string> type = field<std::string>("type").defaultValue("double").choices(
      {"double", "int", "bool", "string"});
  SchemaKey<std::int64_t> length = field<std::int64_t>("length").min(1).defaultValue(1);
  SchemaKey<std::string> unit = field<std::string>("unit").defaultValue("");
  SchemaKey<std::string> description = field<std::string>("description").defaultValue("");
  // `value` (the initial value) is read against the signal's type, length and unit.
};

/// A tie written as a mapping: `{signal: a, offset: 1, length: 2}`.
struct TieSection : ParamSchema {
  SchemaKey<std::string> signal = field<std::string>("signal");
  SchemaKey<std::int64_t> offset = field<std::int64_t>("offset").min(0).defaultValue(0);
  SchemaKey<std::int64_t> length = field<std::int64_t>("length").min(1).optional();
};

/// One entry of `models:` (its `params` and `ties` are read separately).
struct ModelSection : ParamSchema {
  SchemaKey<std::string> className = field<std::string>("class");
  SchemaKey<std::string> node = field<std::string>("node").optional();
  SchemaKey<std::string> body = field<std::string>("body").optional();
  SchemaKey<std::int64_t> subhinge = field<std::int64_t>("subhinge").min(-1).defaultValue(-1);
  SchemaKey<double> rate = field<double>("rate").unit("Hz").above(0.0).optional();
};

/// `when:` of an event (its `value` is read against the variable's unit).
struct CrossingSection : ParamSchema {
  SchemaKey<std::string> variable = field<std::string>("variable");
  SchemaKey<std::int64_t> element = field<std::int64_t>("element").min(0).defaultValue(0);
  SchemaKey<std::string> direction = field<std::string>("direction")
                                         .defaultValue("either")
                                         .choices({"rising", "falling", "either"});
  SchemaKey<double> tolerance = field<double>("tolerance").unit("s").above(0.0).defaultValue(1e-10);
};

/// One entry of `events:` (its `set` is read separately).
struct EventSection : ParamSchema {
  SchemaKey<std::vector<double>> at = field<std::vector<double>>("at").unit("s").optional();
  SchemaKey<double> every = field<double>("every").unit("s").above(0.0).optional();
  SchemaKey<double> start = field<double>("start").unit("s").optional();
  SchemaKey<Record<CrossingSection>> when = field<Record<CrossingSection>>("when").optional();
  SchemaKey<std::string> log = field<std::string>("log").optional();
  SchemaKey<bool> stop = field<bool>("stop").defaultValue(false);
  SchemaKey<std::int64_t> priority = field<std::int64_t>("priority").defaultValue(0);

  /// Exactly one trigger: at, every or when.
  void validate(const ParamSet& set) const override;
};

/// `logging:`.
struct LoggingSection : ParamSchema {
  SchemaKey<std::vector<std::string>> variables =
      field<std::vector<std::string>>("variables").defaultValue(InputNode::sequence({}));
  SchemaKey<double> rate = field<double>("rate").unit("Hz").above(0.0).optional();
  SchemaKey<std::vector<std::string>> events =
      field<std::vector<std::string>>("events")
          .defaultValue(InputNode::sequence({}))
          .describe("event names or globs: a sample right after each firing");
  SchemaKey<bool> everyHop =
      field<bool>("every_hop").defaultValue(false).describe("a sample at the end of every hop");
  SchemaKey<std::string> file = field<std::string>("file").optional();
  SchemaKey<StringMap> columns =
      field<StringMap>("columns")
          .defaultValue(InputNode::mapping({}))
          .describe("named columns: column name -> variable path, or path[i] for one element");
};

}  // namespace hopsim::scenario
