// Simulation: the executive, with PEP 8 names (DESIGN.md section 10). The C++ class is the
// authority; each method here converts its arguments, calls the C++ method of the same meaning
// and converts the result. The continuous part (integrator, states, zero crossings,
// checkpoints) is bound in simulation_continuous.cpp.
//
// Time advances with the GIL released: a run with no Python callback never touches the
// interpreter, and Python callbacks take the GIL themselves (python_callback.h).

#include "hopsim/core/simulation.h"

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "hopsim/assemblies/assembly.h"
#include "hopsim/core/model_registry.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "python_callback.h"
#include "python_models.h"
#include "state_machine_bindings.h"
#include "value_conversion.h"

namespace hopsim::python {
namespace {

/// What variable_info() reports about one leaf of the variable tree.
struct VariableInfo {
  std::string path;
  ElementType type;
  std::size_t length;
  std::string unit;
  std::string description;
  bool writable;
};

EventOptions eventOptions(int priority, py::object condition) {
  if (!condition.is_none() && !PyCallable_Check(condition.ptr())) {
    throw py::type_error("condition must be callable as condition(sim, t) or None");
  }
  return {priority, toEventCondition(std::move(condition))};
}

ParamValues paramValues(const std::optional<py::dict>& params, const std::string& model) {
  ParamValues values;
  if (!params) return values;
  for (const auto& [key, value] : *params) {
    if (!py::isinstance<py::str>(key)) {
      throw InputError("model '" + model + "': param names must be strings, got " +
                       py::repr(key).cast<std::string>());
    }
    const auto name = key.cast<std::string>();
    values.emplace_back(name, toValue(value, "models." + model + ".params." + name));
  }
  return values;
}

/// Ties a port to a whole signal, or to the slice [offset, offset + length) of it.
void tiePort(Simulation& sim, std::string_view model, std::string_view port,
             std::string_view signal, std::optional<std::size_t> offset,
             std::optional<std::size_t> length) {
  if (offset.has_value() != length.has_value()) {
    throw InputError("tie " + std::string(model) + "." + std::string(port) + " to '" +
                     std::string(signal) +
                     "': give both offset and length for a slice, or neither for the whole "
                     "signal");
  }
  if (offset) {
    sim.tie(model, port, signal, *offset, *length);
  } else {
    sim.tie(model, port, signal);
  }
}

/// Adds a model and ties its ports as add_model's `ties` says ({port: "signal"} or
/// {port: ("signal", offset, length)}); if a tie fails, the model is removed again.
void addTiedModel(Simulation& sim, std::unique_ptr<Model> model,
                  const std::optional<py::dict>& ties) {
  const std::string name = sim.addModel(std::move(model)).name();
  if (!ties) return;
  try {
    for (const auto& [key, target] : *ties) {
      const auto port = py::str(key).cast<std::string>();
      if (py::isinstance<py::str>(target)) {
        tiePort(sim, name, port, target.cast<std::string>(), std::nullopt, std::nullopt);
      } else if (py::isinstance<py::tuple>(target) && py::len(target) == 3) {
        const auto slice = target.cast<py::tuple>();
        tiePort(sim, name, port, slice[0].cast<std::string>(), slice[1].cast<std::size_t>(),
                slice[2].cast<std::size_t>());
      } else {
        throw TypeMismatchError("add_model '" + name + "': ties['" + port +
                                "'] must be a signal name or a tuple (signal, offset, length); "
                                "got " +
                                py::repr(target).cast<std::string>());
      }
    }
  } catch (...) {
    sim.removeModel(name);
    throw;
  }
}

std::string describe(const Simulation& sim) {
  return "<hopsim.Simulation t=" + py::repr(py::float_(sim.time())).cast<std::string>() + " s, " +
         std::to_string(sim.modelNames().size()) + " model(s), " +
         std::to_string(sim.signalNames().size()) + " signal(s), " +
         (sim.locked() ? "locked" : "unlocked") + ">";
}

void bindStructure(py::class_<Simulation>& c) {
  c.def(
       "add_signal",
       [](Simulation& sim, const std::string& name, py::handle type, std::size_t length,
          std::string unit, std::string description) {
         sim.addSignal(name, toElementType(type, name), length, std::move(unit),
                       std::move(description));
       },
       py::arg("name"), py::arg("type") = "double", py::arg("length") = 1, py::arg("unit") = "",
       py::arg("description") = "",
       "Creates a signal, reachable as variable 'signals.<name>'. `type` is an ElementType, "
       "'bool', 'int', 'double' or 'string', or one of bool, int, float, str; int and double "
       "signals may have length > 1. A double signal reads NaN until first written.")
      .def("remove_signal", &Simulation::removeSignal, py::arg("name"),
           "Removes a signal no port is tied to (while unlocked).")
      .def("signal_names", &Simulation::signalNames, "Signal names, sorted.")
      .def(
          "add_model",
          [](Simulation& sim, std::string_view className, std::string name,
             const std::optional<py::dict>& params, const std::optional<py::dict>& ties,
             std::optional<std::string> node, std::optional<std::string> body, int subhinge) {
            const ParamValues values = paramValues(params, name);
            std::unique_ptr<Model> model =
                models::modelRegistry().create(className, std::move(name), values);
            if (node || body) {
              Assembly::attachModel(*model, {node.value_or(""), body.value_or(""), subhinge});
            }
            addTiedModel(sim, std::move(model), ties);
          },
          py::arg("class_name"), py::arg("name"), py::arg("params") = py::none(), py::kw_only(),
          py::arg("ties") = py::none(), py::arg("node") = py::none(), py::arg("body") = py::none(),
          py::arg("subhinge") = -1,
          "Creates a model of a registered class (see standard_registry() and "
          "register_model()) and adds it; its params, states and ports become variables under "
          "'models.<name>'. `params` maps param names to values, each checked against the "
          "declaration. `ties` maps ports to signals ({'u': 'wave'}, or a slice "
          "{'u': ('v', 0, 3)}); if a tie fails, the model is removed again. Actuators and "
          "sensors are attached to a multibody node with `node`, motors and encoders to the "
          "hinge of `body` (all of it, or one `subhinge`).")
      .def(
          "add_model",
          [](Simulation& sim, py::handle model, const std::optional<py::dict>& ties) {
            addTiedModel(sim, releasePythonModel(model), ties);
          },
          py::arg("model"), py::kw_only(), py::arg("ties") = py::none(),
          "Adds an instance of a Python model class (a subclass of hopsim.FlowModel or "
          "hopsim.ContinuousModel), tied as `ties` says; the simulation keeps the instance "
          "alive until the model is removed.")
      .def("remove_model", &Simulation::removeModel, py::arg("name"),
           "Removes a model with its variables, breaks, schedule and model-method events.")
      .def("model_names", &Simulation::modelNames, "Model names in creation order.")
      .def(
          "model_spec",
          [](Simulation& sim, std::string_view name) { return &sim.model(name).spec(); },
          py::arg("name"), py::return_value_policy::reference_internal,
          "The declaration of a model's class.")
      .def("tie", &tiePort, py::arg("model"), py::arg("port"), py::arg("signal"),
           py::arg("offset") = py::none(), py::arg("length") = py::none(),
           "Ties a port of a model to a whole signal, or with offset and length to elements "
           "[offset, offset + length) of it.")
      .def("add_break", &Simulation::addBreak, py::arg("model"), py::arg("flow_in"),
           "Declares a break on the connection(s) into a model's flowIn: sorting ignores them, "
           "so the model may run first and read their previous value (one evaluation late).")
      .def("remove_break", &Simulation::removeBreak, py::arg("model"), py::arg("flow_in"))
      .def("set_model_rate", &Simulation::setModelRate, py::arg("model"), py::arg("hertz"),
           "Puts a model on its own fixed rate (Hz), phased from the start time.")
      .def("set_model_period", &Simulation::setModelPeriod, py::arg("model"), py::arg("seconds"),
           "Puts a model on its own fixed period (s).")
      .def(
          "register_multi_rate_model",
          [](Simulation& sim, const std::string& model, py::function next) {
            sim.registerMultiRateModel(model, toNextIoTime(std::move(next), model));
          },
          py::arg("model"), py::arg("next"),
          "Makes a model variable-rate: next(now) returns the end of its next I/O step in s "
          "(strictly later than now), or None for no future trigger.")
      .def("use_default_period", &Simulation::useDefaultPeriod, py::arg("model"),
           "Returns a model to the default period.")
      .def("raise_output_granularity", &Simulation::raiseOutputGranularity, py::arg("model"),
           py::arg("granularity"),
           "Raises a model's output granularity (a Granularity or a Sweep); never lowers it "
           "below its declaration.")
      .def("output_granularity", &Simulation::outputGranularity, py::arg("model"),
           "The granularity in force after lock(): declared | raised | needed downstream.")
      .def("activate", &Simulation::activate, py::arg("model"),
           "Reactivates a model; it starts a fresh I/O step at the next hop. Between hops.")
      .def("deactivate", &Simulation::deactivate, py::arg("model"),
           "Deactivated models are skipped by every sweep. Between hops.")
      .def("is_active", &Simulation::isActive, py::arg("model"))
      .def("lock", &Simulation::lock,
           "Validates and freezes the structure (every port tied, lengths resolved, params "
           "set, no algebraic loop), sorts the dataflow and sets up every model. A failure "
           "leaves the simulation unlocked and unchanged.")
      .def("unlock", &Simulation::unlock, "Allows structural changes again (between hops).")
      .def("locked", &Simulation::locked)
      .def_property("io_step_size", &Simulation::ioStepSize, &Simulation::setIoStepSize,
                    "The default model period in s; settable while unlocked.")
      .def_property("integration_steps", &Simulation::integrationSteps,
                    &Simulation::setIntegrationSteps,
                    "Integration sub-steps per hop for fixed-step integrators; settable while "
                    "unlocked.")
      .def("model_order", &Simulation::modelOrder,
           "The sorted calling order and the declared breaks in force (after lock()).");
}

void bindTime(py::class_<Simulation>& c) {
  const auto released = py::call_guard<py::gil_scoped_release>();
  c.def("time", &Simulation::time, "Current simulation time, s.")
      .def("ticks", &Simulation::ticks, "Current simulation time in ticks of 1 ns.")
      .def("hop_count", &Simulation::hopCount, "Hops taken since creation.")
      .def("advance_time_to", &Simulation::advanceTimeTo, py::arg("t"), released,
           "Advances hop by hop to time t (s; a barrier is added there) or until a stop "
           "callback says stop.")
      .def("advance_time_by", &Simulation::advanceTimeBy, py::arg("dt"), released,
           "Advances by dt seconds, as advance_time_to(time() + dt).")
      .def("step", &Simulation::step, py::arg("n") = 1, released,
           "Advances to the n-th next default-period barrier.")
      .def("run", &Simulation::run, released,
           "Advances hop by hop until a stop callback says stop (after at least one hop). "
           "Needs a stop callback.")
      .def("advance_over_hop", &Simulation::advanceOverHop, released,
           "Advances exactly one hop, to the next barrier.")
      .def(
          "add_stop_callback",
          [](Simulation& sim, std::string name, py::function callback) {
            sim.addStopCallback(std::move(name), toStopCallback(std::move(callback)));
          },
          py::arg("name"), py::arg("callback"),
          "callback(sim, t) is asked after every hop; a true answer stops run() and "
          "advance_time_to().")
      .def("remove_stop_callback", &Simulation::removeStopCallback, py::arg("name"))
      .def("request_stop", &Simulation::requestStop,
           "Stops run()/advance_time_to()/advance_time_by()/step() after the current hop, as a "
           "stop callback returning True would; for event and zero-crossing callbacks.");
}

void bindEvents(py::class_<Simulation>& c) {
  const char* common =
      " callback(sim, t) runs with the simulation and the firing time in s. Events at the same "
      "instant run in (priority, registration) order, lower priority first; `condition(sim, "
      "t)`, if given, must be true for the callback to run. An exception the callback raises "
      "propagates out of the advancing call.";
  c.def(
       "register_timed_event",
       [](Simulation& sim, std::string name, double t, py::function callback, int priority,
          py::object condition) {
         sim.registerTimedEvent(std::move(name), t, toEventCallback(std::move(callback)),
                                eventOptions(priority, std::move(condition)));
       },
       py::arg("name"), py::arg("t"), py::arg("callback"), py::kw_only(), py::arg("priority") = 0,
       py::arg("condition") = py::none(),
       (std::string("Fires once at time t (s), or at each time of a list of times.") + common)
           .c_str())
      .def(
          "register_timed_event",
          [](Simulation& sim, std::string name, const std::vector<double>& times,
             py::function callback, int priority, py::object condition) {
            sim.registerTimedEvent(std::move(name), times, toEventCallback(std::move(callback)),
                                   eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("times"), py::arg("callback"), py::kw_only(),
          py::arg("priority") = 0, py::arg("condition") = py::none())
      .def(
          "register_periodic_event",
          [](Simulation& sim, std::string name, double first, double period, py::function callback,
             int priority, py::object condition) {
            sim.registerPeriodicEvent(std::move(name), first, period,
                                      toEventCallback(std::move(callback)),
                                      eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("first"), py::arg("period"), py::arg("callback"), py::kw_only(),
          py::arg("priority") = 0, py::arg("condition") = py::none(),
          (std::string("Fires at first + k * period (s), computed exactly from k.") + common)
              .c_str())
      .def(
          "register_self_rescheduling_event",
          [](Simulation& sim, const std::string& name, double first, py::function callback,
             int priority, py::object condition) {
            sim.registerSelfReschedulingEvent(name, first,
                                              toRescheduleCallback(std::move(callback), name),
                                              eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("first"), py::arg("callback"), py::kw_only(),
          py::arg("priority") = 0, py::arg("condition") = py::none(),
          "Fires at `first` (s), then at each time callback(sim, t) returns (strictly later); "
          "None fires no more.")
      .def(
          "register_begin_io_step_event",
          [](Simulation& sim, std::string name, py::function callback, int priority,
             py::object condition) {
            sim.registerBeginIoStepEvent(std::move(name), toEventCallback(std::move(callback)),
                                         eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("callback"), py::kw_only(), py::arg("priority") = 0,
          py::arg("condition") = py::none(),
          (std::string("Fires at the start of every default-period I/O step.") + common).c_str())
      .def(
          "register_end_io_step_event",
          [](Simulation& sim, std::string name, py::function callback, int priority,
             py::object condition) {
            sim.registerEndIoStepEvent(std::move(name), toEventCallback(std::move(callback)),
                                       eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("callback"), py::kw_only(), py::arg("priority") = 0,
          py::arg("condition") = py::none(),
          (std::string("Fires at the end of every default-period I/O step.") + common).c_str())
      .def(
          "register_end_hop_event",
          [](Simulation& sim, std::string name, py::function callback, int priority,
             py::object condition) {
            sim.registerEndHopEvent(std::move(name), toEventCallback(std::move(callback)),
                                    eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("callback"), py::kw_only(), py::arg("priority") = 0,
          py::arg("condition") = py::none(),
          (std::string("Fires at the end of every hop.") + common).c_str())
      .def(
          "register_model_event",
          [](Simulation& sim, std::string name, std::string_view model, ModelMethod method,
             EventTiming timing, py::function callback, int priority, py::object condition) {
            sim.registerModelEvent(std::move(name), model, method, timing,
                                   toEventCallback(std::move(callback)),
                                   eventOptions(priority, std::move(condition)));
          },
          py::arg("name"), py::arg("model"), py::arg("method"), py::arg("timing"),
          py::arg("callback"), py::kw_only(), py::arg("priority") = 0,
          py::arg("condition") = py::none(),
          "Fires before or after every call of `method` (a ModelMethod) on `model`; t is the "
          "method's own time. It runs inside the hop: it may read and set variables but not "
          "change the structure or register events.")
      .def("find_event", &Simulation::findEvent, py::arg("name"),
           "The EventInfo of an event, or None.")
      .def("list_events", &Simulation::listEvents, "Every event, in registration order.")
      .def("remove_event", &Simulation::removeEvent, py::arg("name"),
           "Removes an event; raises InputError with the nearest names if there is none.")
      .def("clear_events", &Simulation::clearEvents, "Removes every event.")
      .def(
          "add_sampler",
          [](Simulation& sim, double period, py::function callback) {
            return sim.addSampler(period, toEventCallback(std::move(callback)));
          },
          py::arg("period"), py::arg("callback"),
          "Calls callback(sim, t) at t = time() + k * period (k = 0, 1, ...), exact to the "
          "1 ns tick, without making those times barriers: results are the same bit for bit "
          "with or without samplers. A sample inside a hop sees the interpolated state and "
          "what a derivative evaluation computes there; one at a barrier sees the values after "
          "its events. The callback only reads. Returns the id remove_sampler takes; "
          "Recorder(sim, ..., rate=...) is built on this.")
      .def(
          "add_event_observer",
          [](Simulation& sim, py::function observer) {
            return sim.addEventObserver(toEventObserver(std::move(observer)));
          },
          py::arg("observer"),
          "Calls observer(sim, name, t) right after each event fires (timed, periodic, I/O-step, "
          "hop and zero-crossing events, model-declared ones included), after its callback, at "
          "its time. It only reads. Returns the id remove_sampler takes.")
      .def("remove_sampler", &Simulation::removeSampler, py::arg("id"),
           "Removes a sampler or an event observer; raises InputError for an unknown id.")
      .def_property_readonly("sampler_count", &Simulation::samplerCount,
                             "The samplers registered, recorders included.");
}

void bindVariables(py::class_<Simulation>& c) {
  c.def(
       "get", [](const Simulation& sim, std::string_view path) { return toPython(sim.get(path)); },
       py::arg("path"),
       "The value at a dotted path ('signals.thrust', 'models.g.params.k'): bool, int, float or "
       "str for length-1 variables, a new numpy array for vectors. Raises InputError naming "
       "the path and the nearest names if there is no such variable.")
      .def(
          "set",
          [](Simulation& sim, std::string_view path, py::handle value) {
            Variable& variable = sim.variables().at(path);  // unknown paths first
            variable.set(toValue(value, path), path);
          },
          py::arg("path"), py::arg("value"),
          "Sets the value at a dotted path after checking its type, length and bounds; a "
          "rejected value raises InputError naming the path and changes nothing.")
      .def(
          "list", [](const Simulation& sim, std::string_view prefix) { return sim.list(prefix); },
          py::arg("prefix") = "",
          "Every variable path under `prefix` (a branch, a leaf, or '' for all), sorted.")
      .def(
          "has_variable",
          [](const Simulation& sim, std::string_view path) {
            return sim.variables().contains(path);
          },
          py::arg("path"), "True when `path` is a variable (a leaf).")
      .def(
          "is_branch",
          [](const Simulation& sim, std::string_view path) {
            return sim.variables().isBranch(path);
          },
          py::arg("path"), "True when `path` is a branch holding variables.")
      .def(
          "variable_info",
          [](const Simulation& sim, const std::string& path) {
            const Variable& v = sim.variables().at(path);
            return VariableInfo{path,     v.type(),        v.length(),
                                v.unit(), v.description(), v.writable()};
          },
          py::arg("path"), "Type, length, unit, description and writability of a variable.");
}

}  // namespace

void bindSimulation(py::module_& m) {
  py::class_<ModelOrder>(m, "ModelOrder", "The sorted calling order and the declared breaks.")
      .def_readonly("flow_models", &ModelOrder::flowModels, "FlowModels in calling order.")
      .def_readonly("continuous_models", &ModelOrder::continuousModels,
                    "ContinuousModels in calling order, sorted separately from the FlowModels.")
      .def_readonly("breaks", &ModelOrder::breaks,
                    "One line per connection a declared break cut: 'A.y -> s -> B.u'.")
      .def("__str__", &ModelOrder::toString);

  py::class_<VariableInfo>(m, "VariableInfo", "What variable_info() reports about a variable.")
      .def_readonly("path", &VariableInfo::path)
      .def_readonly("type", &VariableInfo::type)
      .def_readonly("length", &VariableInfo::length)
      .def_readonly("unit", &VariableInfo::unit)
      .def_readonly("description", &VariableInfo::description)
      .def_readonly("writable", &VariableInfo::writable)
      .def("__repr__", [](const VariableInfo& v) {
        return "VariableInfo(" + v.path + ": " + describeType(v.type, v.length) +
               (v.unit.empty() ? "" : " [" + v.unit + "]") + (v.writable ? "" : ", read-only") +
               ")";
      });

  py::class_<Simulation> c(
      m, "Simulation",
      "The simulation executive: owns signals, models, events and the variable tree, and "
      "advances time hop by hop from barrier to barrier (DESIGN.md sections 2 and 3). "
      "Structure changes only while unlocked; time advances only while locked. Not "
      "thread-safe: use one simulation from one thread at a time. Callbacks receive the "
      "simulation as their first argument: a callback that captures its simulation instead "
      "keeps it alive, through C++ where the garbage collector cannot see the cycle.");
  const SimulationOptions defaults;
  c.def(
      py::init([](double ioStepSize, double startTime, int integrationSteps, std::string integrator,
                  std::optional<IntegratorOptions> integratorOptions, double stateBound) {
        SimulationOptions options;
        options.ioStepSize = ioStepSize;
        options.startTime = startTime;
        options.integrationSteps = integrationSteps;
        options.integrator = std::move(integrator);
        if (integratorOptions) options.integratorOptions = std::move(*integratorOptions);
        options.stateBound = stateBound;
        return std::make_unique<Simulation>(std::move(options));
      }),
      py::arg("io_step_size") = defaults.ioStepSize, py::arg("start_time") = defaults.startTime,
      py::arg("integration_steps") = defaults.integrationSteps, py::kw_only(),
      py::arg("integrator") = defaults.integrator, py::arg("integrator_options") = py::none(),
      py::arg_v("state_bound", defaults.stateBound, "1e15"),
      "A simulation with default model period `io_step_size` (s) starting at `start_time` "
      "(s); periodic schedules are phased from the start time. `integrator` names the "
      "integrator of the continuous states ('euler', 'rk4', 'rkf45', 'cvode', "
      "'euler_implicit_linearized', 'euler_implicit'; see integrator_names()), "
      "`integrator_options` its IntegratorOptions (None: the defaults); "
      "fixed-step integrators split each hop into `integration_steps` sub-steps. "
      "`state_bound` is the largest magnitude an integrated state may reach before the run "
      "stops with NumericalError (set_state_bound). A bad name, option or bound raises "
      "InputError.");
  c.def("__repr__", py::overload_cast<const Simulation&>(&describe));
  bindStructure(c);
  bindTime(c);
  bindEvents(c);
  bindVariables(c);
  bindContinuousMethods(c);
  bindStateMachineMethods(c);
  bindLinearizationMethods(c);
}

}  // namespace hopsim::python
