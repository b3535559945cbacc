// Recording from Python: hopsim.Recorder (Simulation.record) and the recorded samples of a
// Scenario, as numpy arrays; the pandas and CSV forms are built on them.
//
// Lifetime: the C++ Recorder samples through a sampler it registers on its simulation, with a
// pointer to that simulation, and removes the sampler in its destructor. A Python Recorder
// therefore keeps its Simulation alive (py::keep_alive), so the simulation is destroyed only
// after every recorder of it; a recorder dropped first takes its sampler with it.

#include "hopsim/core/recorder.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/simulation.h"
#include "hopsim/signals/error.h"
#include "hopsim/viewer/replay_page.h"
#include "value_conversion.h"

namespace hopsim::python {

namespace {

/// A patterns argument (`what`: "patterns", "events"): one string or an iterable of strings.
/// pybind11 alone would refuse a single string (it does not convert str to a list of str), the
/// most common call.
std::vector<std::string> stringList(py::handle patterns, const std::string& what) {
  if (py::isinstance<py::str>(patterns)) return {patterns.cast<std::string>()};
  std::vector<std::string> out;
  if (py::isinstance<py::iterable>(patterns) && !py::isinstance<py::bytes>(patterns)) {
    for (py::handle p : patterns) {
      if (!py::isinstance<py::str>(p)) {
        throw TypeMismatchError("recorder: " + what + " must be strings, got " +
                                py::repr(p).cast<std::string>());
      }
      out.push_back(p.cast<std::string>());
    }
    return out;
  }
  throw TypeMismatchError("recorder: " + what +
                          " must be a string or a list of strings (names or globs), got " +
                          py::repr(patterns).cast<std::string>());
}

/// The patterns; none is allowed when named `columns` say what to record.
std::vector<std::string> patternList(py::handle patterns, const std::optional<py::dict>& columns) {
  std::vector<std::string> out = stringList(patterns, "patterns");
  if (out.empty() && (!columns || columns->empty()))
    throw InputError(
        "recorder: no patterns and no columns given (expected paths or globs, or "
        "named columns)");
  return out;
}

/// `columns={name: "path"}` or `{name: "path[i]"}`: the named columns, as a scenario's
/// logging.columns reads them.
std::vector<Recorder::NamedColumn> namedColumns(const std::optional<py::dict>& columns) {
  std::vector<Recorder::NamedColumn> out;
  if (!columns) return out;
  for (const auto& [key, value] : *columns) {
    if (!py::isinstance<py::str>(key) || !py::isinstance<py::str>(value)) {
      throw TypeMismatchError("recorder: columns must map names to variable paths (strings), got " +
                              py::repr(key).cast<std::string>() + ": " +
                              py::repr(value).cast<std::string>());
    }
    Recorder::NamedColumn c{key.cast<std::string>(), value.cast<std::string>(), 0};
    const std::string source = c.path;
    if (const std::size_t open = source.rfind('[');
        open != std::string::npos && source.back() == ']') {
      const std::string index = source.substr(open + 1, source.size() - open - 2);
      if (index.empty() || index.size() > 9 ||
          index.find_first_not_of("0123456789") != std::string::npos) {
        throw InputError("recorder: column '" + c.name + "': '" + source +
                         "' (expected a variable path, or path[i] with a non-negative index)");
      }
      c.path = source.substr(0, open);
      c.element = std::stoul(index);
    }
    out.push_back(std::move(c));
  }
  return out;
}

/// Streams `r` to `path` (a CSV file with its sidecars, or HDF5 for .h5 and .hdf5), keeping
/// its samples in memory too. HDF5 is written in the caller's thread: h5py may call the
/// library meanwhile.
void streamTo(Recorder& r, const std::string& path) {
  Recorder::StreamOptions options;
  options.keepSamples = true;
  r.streamTo(viewer::recordingSink(path, "", "", false), options);
}

std::unique_ptr<Recorder> makeRecorder(Simulation& sim, py::handle patterns,
                                       std::optional<double> rate,
                                       const std::optional<py::dict>& columns, py::handle events,
                                       bool everyHop, const std::optional<std::string>& out) {
  Recorder::Triggers triggers{rate, {}, everyHop};
  if (!events.is_none()) triggers.events = stringList(events, "events");
  auto recorder = std::make_unique<Recorder>(sim, patternList(patterns, columns),
                                             namedColumns(columns), triggers);
  if (out) streamTo(*recorder, *out);
  return recorder;
}

/// How a `with` block ended, for the file's status: completed, interrupted by Ctrl-C, or
/// failed with the exception's message.
void exitStream(Recorder& r, py::handle type, py::handle value) {
  if (!r.streaming()) return;
  if (type.is_none()) {
    r.finishStream();
  } else if (PyErr_GivenExceptionMatches(type.ptr(), PyExc_KeyboardInterrupt)) {
    r.finishStream(RecordingEnd::Status::Interrupted, "KeyboardInterrupt");
  } else {
    r.finishStream(RecordingEnd::Status::Failed, py::str(value).cast<std::string>());
  }
}

/// Column `name`'s samples; "time" gives the sample times.
py::array_t<double> columnValues(const Recorder& r, std::string_view name) {
  if (name == "time") return toArray(r.times());
  return toArray(r.values(r.column(name)));
}

/// Every sample as a rows x (1 + columns) float64 array, time first.
py::array_t<double> toNumpy(const Recorder& r) {
  const auto rows = static_cast<py::ssize_t>(r.times().size());
  const auto width = static_cast<py::ssize_t>(r.columns().size());
  py::array_t<double> out({rows, width});
  auto view = out.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < rows; ++i) view(i, 0) = r.times()[static_cast<std::size_t>(i)];
  for (py::ssize_t c = 1; c < width; ++c) {
    const std::vector<double>& values = r.values(static_cast<std::size_t>(c));
    for (py::ssize_t i = 0; i < rows; ++i) view(i, c) = values[static_cast<std::size_t>(i)];
  }
  return out;
}

/// The variable columns' names (time left out, as Scenario.columns does).
std::vector<std::string> variableColumns(const Recorder& r) {
  const std::vector<std::string>& all = r.columns();
  return all.empty() ? all : std::vector<std::string>(all.begin() + 1, all.end());
}

/// {"time": "s", column: unit, ...} in column order.
py::dict unitMap(const Recorder& r) {
  py::dict out;
  if (r.columns().empty()) {
    out["time"] = "s";  // an empty recorder still has a time axis
    return out;
  }
  for (std::size_t c = 0; c < r.columns().size(); ++c) out[py::str(r.columns()[c])] = r.units()[c];
  return out;
}

/// recording.dataframe(source): the pandas conversion lives in Python, importing pandas only
/// when asked (import hopsim stays fast).
py::object dataframe(py::handle source) {
  return py::module_::import("hopsim.recording").attr("dataframe")(source);
}

std::string describe(const Recorder& r) {
  const std::size_t n = r.columns().empty() ? 0 : r.columns().size() - 1;
  return "<hopsim.Recorder " + std::to_string(n) + " column(s), " + std::to_string(r.rows()) +
         " sample(s)>";
}

}  // namespace

void bindRecorder(py::module_& m) {
  py::class_<Recorder> c(
      m, "Recorder",
      "Records numeric variables of a simulation (bool, int and double scalars and vectors; a "
      "vector gives one column per element, 'path[i]') in memory while it runs, for analysis "
      "with numpy and pandas, plots (hopsim.plot) and CSV files.\n\n"
      "Sampling: samples are taken at start + k / rate (Hz), exact to the 1 ns tick, where "
      "start is the time recording began; without a rate, at the rate of the default I/O "
      "step, i.e. at the end of every I/O step. The first sample is taken at the start of the "
      "next hop, once every output is computed. Sample times never become barriers, so "
      "recording leaves the run unchanged bit for bit: a sample inside a hop sees the "
      "interpolated state and what a derivative evaluation computes there (discrete outputs "
      "held since their last update), one at a barrier the values after its events "
      "(Simulation.add_sampler). Create it after lock() so every variable exists. The recorder "
      "keeps its simulation alive; dropping the recorder stops "
      "the recording. Like its simulation it is not thread-safe: read it between advances, "
      "not while another thread advances the simulation.");
  c.def(py::init(&makeRecorder), py::arg("sim"), py::arg("patterns"), py::arg("rate") = py::none(),
        py::arg("columns") = py::none(), py::kw_only(), py::arg("events") = py::none(),
        py::arg("every_hop") = false, py::arg("out") = py::none(), py::keep_alive<1, 2>(),
        "Records the variables matching `patterns` (one string or a list) in `sim`: exact "
        "paths, or globs where '*' matches within one path segment and '**' across segments "
        "('signals.*', 'models.m.continuousStates.**'). `rate`: samples per second (None: at "
        "the end of every I/O step). `columns`: extra columns with names of their own, "
        "{name: 'path'} or {name: 'path[i]'} for one element of a vector, after the pattern "
        "columns. `events`: event names or globs (one string or a list): a sample right after "
        "each firing, at its time (a zero crossing's located time). `every_hop`: a sample at "
        "the end of every hop. Without rate, events and every_hop, samples come at the rate of "
        "the I/O step; with events or every_hop and no rate, only on those. `out`: also "
        "stream the samples to this file as they come (stream_to). Raises InputError "
        "for a pattern that matches no numeric variable (with suggestions), a string variable "
        "given by exact path, a rate that is not finite and positive, a bad named column, an "
        "event pattern that matches no registered event, or an `out` file that cannot be "
        "written.")
      .def_property_readonly("columns", &variableColumns,
                             "The recorded columns' names in order, after time ('signals.x', "
                             "'models.m.continuousStates.x', 'multibody.bodies.b.Q[3]').")
      .def_property_readonly("units", &unitMap,
                             "The unit of each column, {'time': 's', column: unit, ...} in "
                             "column order: the unit of the element the column reads (hinge "
                             "coordinates element by element, 'rad' for a PIN's Q, '1' and 'm' "
                             "in a FULL6DOF's); '' when the variable declares none.")
      .def_property_readonly("rows", &Recorder::rows, "The number of samples taken so far.")
      .def("__len__", &Recorder::rows, "The number of samples taken so far.")
      .def(
          "times", [](const Recorder& r) { return toArray(r.times()); },
          "The sample times, s, as a new float64 numpy array.")
      .def("values", &columnValues, py::arg("column"),
           "The samples of one column ('time' gives times()) as a new float64 numpy array; "
           "bools read 0/1. Raises InputError (with suggestions) for an unknown column.")
      .def("to_numpy", &toNumpy,
           "Every sample as a new rows x (1 + len(columns)) float64 array, time in column 0, "
           "then the columns in order.")
      .def(
          "to_dataframe", [](py::object self) { return dataframe(self); },
          "Every sample as a pandas DataFrame indexed by time (index name 'time', s), one "
          "float64 column per recorded column, units in df.attrs['units'] (time included). "
          "Imports pandas.")
      .def("write_csv", py::overload_cast<const std::string&>(&Recorder::writeCsv, py::const_),
           py::arg("path"),
           "Writes the samples as `hopsim run` does: a header of column names ('time' first), "
           "then one line per sample with 17 significant digits (exact round trip). Raises "
           "InputError naming the file (and the system's reason) if it cannot be written.")
      .def(
          "stream_to",
          [](Recorder& r, const std::string& path) -> Recorder& {
            streamTo(r, path);
            return r;
          },
          py::arg("path"), py::return_value_policy::reference,
          "Also writes the samples to `path` as they come, as `hopsim run --out` does: a CSV "
          "file with its F.units.json and F.status.json sidecars, or HDF5 for a name ending "
          "in .h5 or .hdf5 (docs/recording.md, 'Streaming to a file'). The samples taken so "
          "far are written at once; later ones whenever 64 Ki values are held or a second of "
          "wall time has passed (at the end of a hop). The in-memory arrays are kept. Returns "
          "the recorder, for `with rec.stream_to(path):`. Raises InputError naming the file "
          "if it cannot be written, ModelError if the recorder streams already or was closed.")
      .def("flush", &Recorder::flush,
           "Writes the samples not yet written to the file now. Raises InputError naming the "
           "file if the write fails.")
      .def(
          "close",
          [](Recorder& r) {
            if (r.streaming()) r.finishStream();
          },
          "Ends the recording: writes the samples not yet written, records the file's status "
          "'completed' and closes it; the recorder takes no more samples (its arrays stay). "
          "Nothing for a recorder that does not stream. Raises InputError naming the file if a "
          "write fails. A recorder dropped without close() closes its file the same way, "
          "without reporting a failed write.")
      .def_property_readonly("streaming", &Recorder::streaming,
                             "Whether the recorder writes its samples to a file (stream_to).")
      .def(
          "__enter__", [](Recorder& r) -> Recorder& { return r; },
          py::return_value_policy::reference)
      .def(
          "__exit__",
          [](Recorder& r, py::handle type, py::handle value, py::handle) {
            exitStream(r, type, value);
            return false;
          },
          "Closes the file: its status is 'completed', 'interrupted' (KeyboardInterrupt) or "
          "'failed' with the exception's message.")
      .def("__repr__", py::overload_cast<const Recorder&>(&describe));

  auto sim = py::reinterpret_borrow<py::class_<Simulation>>(m.attr("Simulation"));
  sim.def(
      "record",
      [](Simulation& s, py::handle patterns, std::optional<double> rate,
         const std::optional<py::dict>& columns, py::handle events, bool everyHop,
         const std::optional<std::string>& out) {
        return makeRecorder(s, patterns, rate, columns, events, everyHop, out);
      },
      py::arg("patterns"), py::arg("rate") = py::none(), py::arg("columns") = py::none(),
      py::kw_only(), py::arg("events") = py::none(), py::arg("every_hop") = false,
      py::arg("out") = py::none(), py::keep_alive<0, 1>(),
      "Starts recording: the same as Recorder(self, patterns, rate, columns, events=..., "
      "every_hop=..., out=...). Keep the returned Recorder: dropping it stops the recording.");

  auto scenario = py::reinterpret_borrow<py::class_<Scenario>>(m.attr("Scenario"));
  scenario
      .def_property_readonly(
          "recorder", [](Scenario& s) -> Recorder& { return s.recorder(); },
          py::return_value_policy::reference_internal,
          "The Recorder of the file's `logging` section (empty, no columns and no samples, "
          "without one). It belongs to the scenario; `with scenario.recorder.stream_to(path): "
          "scenario.run()` streams it to a file.")
      .def(
          "to_dataframe", [](py::object self) { return dataframe(self); },
          "The recorded samples as a pandas DataFrame, as Recorder.to_dataframe().")
      .def(
          "to_numpy", [](const Scenario& s) { return toNumpy(s.recorder()); },
          "The recorded samples as a rows x (1 + len(columns)) array, time first, as "
          "Recorder.to_numpy().");
}

}  // namespace hopsim::python
