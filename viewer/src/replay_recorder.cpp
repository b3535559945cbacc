// The recorder of a replay page: poses, contact arrows and the logged columns.

#include <set>

#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/viewer/replay_page.h"

namespace hopsim::viewer {

std::unique_ptr<Recorder> replayRecorder(Simulation& sim, const Recorder* logged, double rate) {
  std::vector<Recorder::NamedColumn> columns;
  std::set<std::string> names;
  const auto add = [&](const std::string& name, const std::string& path, std::size_t element) {
    if (names.insert(name).second) columns.push_back({name, path, element});
  };
  const multibody::MultibodyModel& model = sim.multibody().model();
  for (int b = 1; b < model.bodyCount(); ++b) {
    const std::string base = "multibody.bodies." + model.bodyName(b);
    const PoseColumns pose = multibodyPoseColumns(model.bodyName(b));
    for (std::size_t i = 0; i < 3; ++i) add(pose.position[i], base + ".position", i);
    for (std::size_t i = 0; i < 4; ++i) add(pose.orientation[i], base + ".orientation", i);
  }
  for (const std::string& name : sim.modelNames()) {
    if (sim.model(name).spec().className() != "SmoothContact") continue;
    const std::string base = "models." + name + ".scratch.";
    for (const char* quantity :
         {"point_x", "point_y", "point_z", "force_x", "force_y", "force_z"}) {
      const std::string path = base + quantity;
      const std::size_t slots = sim.variables().at(path).length();
      for (std::size_t k = 0; k < slots; ++k) {
        add(path + "[" + std::to_string(k) + "]", path, k);
      }
    }
  }
  if (logged != nullptr) {
    for (std::size_t c = 1; c < logged->columns().size(); ++c) {
      add(logged->columns()[c], logged->path(c), logged->element(c));
    }
  }
  Recorder::Triggers triggers;
  triggers.rate = rate;
  return std::make_unique<Recorder>(sim, std::vector<std::string>{}, columns, triggers);
}

}  // namespace hopsim::viewer
