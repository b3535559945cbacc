// The replay viewer (docs/viewer.md): the recorder a page needs and the page writer, used by
// hopsim.view (python/hopsim/viewer.py).

#include <pybind11/stl.h>

#include "assembly_params.h"
#include "bindings.h"
#include "hopsim/assemblies/scenario.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/viewer/replay_page.h"

namespace hopsim::python {

namespace {

void writePage(const std::string& page, const Simulation& sim, const Assembly* assemblies,
               const std::string& source, const Recorder& recorder) {
  const viewer::Scene scene = viewer::sceneOf(sim, assemblies, {source, recorder.columns(), {}});
  viewer::writeReplayPage(page, viewer::sceneJson(scene), viewer::recordingOf(recorder));
}

}  // namespace

void bindViewer(py::module_& m) {
  m.def(
      "view_recorder",
      [](Simulation& sim, double rate, const Recorder* logged) {
        return viewer::replayRecorder(sim, logged, rate);
      },
      py::arg("sim"), py::arg("rate") = 100.0, py::arg("logged") = nullptr, py::keep_alive<0, 1>(),
      "Starts recording what a replay page needs (hopsim.view), at `rate` Hz: every body's "
      "pose, the SmoothContact models' contact points and forces, and the columns of the "
      "Recorder `logged` (for the page's plots). Call after lock(), before running; keep the "
      "returned Recorder. Raises InputError for a rate that is not finite and positive.");
  m.def(
      "_write_replay_page",
      [](const std::string& page, const Scenario& scenario, const Recorder* recorder) {
        writePage(page, scenario.sim(), &scenario.assemblies(), scenario.file(),
                  recorder != nullptr ? *recorder : scenario.recorder());
      },
      py::arg("page"), py::arg("scenario"), py::arg("recorder") = nullptr);
  m.def(
      "_write_replay_page",
      [](const std::string& page, const Simulation& sim, const Recorder& recorder,
         py::object assemblies) {
        const Assembly* tree =
            assemblies.is_none() ? nullptr : &py::cast<AssemblyBase&>(assemblies).ref.get();
        writePage(page, sim, tree, "", recorder);
      },
      py::arg("page"), py::arg("sim"), py::arg("recorder"), py::arg("assemblies") = py::none());
  m.def(
      "_write_replay_page_of_recording",
      [](const std::string& recording, const std::string& page) {
        const viewer::RecordedRun run = viewer::readRecordedRun(recording);
        viewer::writeReplayPage(page, run.sceneJson, run.recording);
      },
      py::arg("recording"), py::arg("page"));
}

}  // namespace hopsim::python
