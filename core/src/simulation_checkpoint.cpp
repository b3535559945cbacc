// Simulation: checkpoint and restore (docs/checkpoints.md).
//
// A checkpoint is a line-oriented text file. Doubles are written as hexadecimal floating point
// (std::hexfloat), so a restore gives back every bit; names and strings are quoted. Restoring
// reads and checks the whole file against this simulation's structure (checkpoint_parser.cpp)
// before it changes anything, so a failed restore leaves the simulation as it was.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "checkpoint_format.h"
#include "checkpoint_parser.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using checkpoint::quoted;
using checkpoint::writeValues;

void writeOptions(std::ostream& out, const IntegratorOptions& o) {
  out << "options " << o.relativeTolerance << ' ' << o.absoluteTolerance << ' ' << o.maxStep << ' '
      << o.initialStep << ' ' << o.maxStepsPerAdvance << ' ' << static_cast<int>(o.multistep) << ' '
      << o.absoluteTolerances.size();
  for (double atol : o.absoluteTolerances) out << ' ' << atol;
  out << '\n';
  out << "nonlinear_solver " << static_cast<int>(o.nonlinearSolver) << '\n';
  out << "continue_across_hops " << (o.continueAcrossHops ? 1 : 0) << '\n';
}

void writeMultibody(std::ostream& out, const multibody::MultibodyModel& tree,
                    const Snapshot& saved) {
  out << "multibody " << saved.massProperties.size() << ' ' << saved.q.size() << ' '
      << saved.u.size() << '\n';
  const spatial::Vector3& g = saved.gravity;
  out << "gravity " << g.x() << ' ' << g.y() << ' ' << g.z() << '\n';
  for (std::size_t b = 0; b < saved.massProperties.size(); ++b) {
    const spatial::SpatialInertia& M = saved.massProperties[b];
    const spatial::Vector3& c = M.comPosition();
    const spatial::Matrix3 I = M.rotationalInertiaAboutCm();
    out << "body " << quoted(tree.bodyName(static_cast<multibody::BodyIndex>(b + 1))) << ' '
        << M.mass() << ' ' << c.x() << ' ' << c.y() << ' ' << c.z() << ' ' << I(0, 0) << ' '
        << I(1, 1) << ' ' << I(2, 2) << ' ' << I(0, 1) << ' ' << I(0, 2) << ' ' << I(1, 2) << '\n';
  }
  if (!saved.massProperties.empty()) {
    out << "coordinates " << saved.q.size() << ' ' << saved.u.size();
    for (double v : saved.q) out << ' ' << v;
    for (double v : saved.u) out << ' ' << v;
    out << '\n';
  }
}

void writeSchedules(std::ostream& out, const std::vector<EventManager::ScheduleState>& schedules) {
  out << "events " << schedules.size() << '\n';
  for (const EventManager::ScheduleState& e : schedules) {
    out << "event " << quoted(e.name) << ' ' << static_cast<int>(e.kind) << ' ' << e.next << ' '
        << e.nextIndex << ' ' << e.periodIndex << '\n';
  }
}

/// Writes `text` to `file` through a temporary file renamed over it, so that a save that fails
/// leaves an earlier checkpoint of that name as it was.
void writeReplacing(const std::string& file, const std::string& text) {
  const std::string partial = file + ".part";
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  std::error_code error;
  if (out) std::filesystem::rename(partial, file, error);
  if (!out || error) {
    std::remove(partial.c_str());
    throw InputError("checkpoint '" + file + "': cannot write it" +
                     (error ? " (" + error.message() + ")" : std::string()));
  }
}

}  // namespace

void Simulation::saveCheckpoint(const std::string& file) const {
  requireBetweenHops("saveCheckpoint");
  Snapshot saved;
  takeSnapshot(saved, Snapshot::Scope::Whole);
  std::ostringstream out;
  out << std::hexfloat;
  out << checkpoint::kMagic << ' ' << checkpoint::kFormatVersion << '\n';
  out << "written_by " << quoted(version()) << ' ' << quoted(gitCommit()) << '\n';
  const Snapshot::Clock& clock = saved.clock;
  out << "time " << clock.now << ' ' << clock.stateTime << ' ' << clock.hopCount << ' '
      << clock.lastBeginIoStep << ' ' << (clock.initialUpdatePending ? 1 : 0) << ' '
      << clock.chattering << ' ' << (clock.valuesSet ? 1 : 0) << '\n';
  out << "integrator " << quoted(saved.integratorName) << '\n';
  writeOptions(out, saved.integratorOptions);
  out << "continuation " << saved.continuation.step << '\n';
  out << "signals " << saved.signals.size() << '\n';
  auto signal = saved.signals.begin();
  for (const auto& [name, unused] : signals_) {
    out << "signal " << quoted(name) << ' ' << signal->version << ' ';
    writeValues(out, signal->value);
    out << '\n';
    ++signal;
  }
  out << "models " << saved.models.size() << '\n';
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    const Model& model = *slots_[m].model;
    const Snapshot::ModelValues& values = saved.models[m];
    out << "model " << quoted(model.name()) << ' ' << quoted(model.spec().className()) << ' '
        << (values.active ? 1 : 0) << ' ' << values.ioStart << ' ' << values.ioEnd << '\n';
    for (FieldRole role : Snapshot::kFieldRoles) {
      for (std::size_t i = 0; i < values.fields(role).size(); ++i) {
        out << "field " << branchName(role) << ' ' << quoted(model.spec().fields(role)[i].name)
            << ' ';
        writeValues(out, values.fields(role)[i]);
        out << '\n';
      }
    }
    out << "reads " << values.reads.size();
    for (std::uint64_t version : values.reads) out << ' ' << version;
    out << '\n';
  }
  writeMultibody(out, multibody_->model(), saved);
  writeSchedules(out, saved.events);
  out << "crossings " << saved.crossings.size() << '\n';
  for (std::size_t c = 0; c < crossings_.size(); ++c) {
    const Snapshot::CrossingMemory& memory = saved.crossings[c];
    out << "crossing " << quoted(crossings_.name(c)) << ' ' << (memory.afterFiring ? 1 : 0) << ' '
        << memory.firedValue << ' ' << memory.crossedSign << '\n';
  }
  out << "end\n";
  writeReplacing(file, out.str());
  // CVODE's history is not in the file: a run restored from it restarts the integrator at its
  // first hop, and so does this one, so that both take the same steps from here.
  restartNextHop_ = true;
}

CheckpointOrigin Simulation::restoreCheckpoint(const std::string& file) {
  requireBetweenHops("restoreCheckpoint");
  if (!locked()) {
    throw ModelError(
        "restoreCheckpoint: lock() the simulation first, so its structure is "
        "final and can be checked against the checkpoint");
  }
  CheckpointStaging staged = CheckpointParser::parse(*this, file);
  applySnapshot(staged.snapshot, Snapshot::Scope::Whole);
  return std::move(staged.origin);
}

}  // namespace hopsim
