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

// Not const: q() and u() of a system whose tree was edited since they were sized resize them
// (the const versions throw), as saving while unlocked may need.
void writeMultibody(std::ostream& out, MultibodySystem& system) {
  const multibody::MultibodyModel& tree = system.model();
  out << "multibody " << tree.bodyCount() - 1 << ' ' << tree.nq() << ' ' << tree.nu() << '\n';
  const spatial::Vector3& g = tree.gravity();
  out << "gravity " << g.x() << ' ' << g.y() << ' ' << g.z() << '\n';
  for (multibody::BodyIndex b = 1; b < tree.bodyCount(); ++b) {
    const spatial::SpatialInertia& M = tree.massProperties(b);
    const spatial::Vector3& c = M.comPosition();
    const spatial::Matrix3 I = M.rotationalInertiaAboutCm();
    out << "body " << quoted(tree.bodyName(b)) << ' ' << M.mass() << ' ' << c.x() << ' ' << c.y()
        << ' ' << c.z() << ' ' << I(0, 0) << ' ' << I(1, 1) << ' ' << I(2, 2) << ' ' << I(0, 1)
        << ' ' << I(0, 2) << ' ' << I(1, 2) << '\n';
  }
  if (tree.bodyCount() > 1) {
    out << "coordinates " << tree.nq() << ' ' << tree.nu();
    for (double v : system.q()) out << ' ' << v;
    for (double v : system.u()) out << ' ' << v;
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
  std::ostringstream out;
  out << std::hexfloat;
  out << checkpoint::kMagic << ' ' << checkpoint::kFormatVersion << '\n';
  out << "written_by " << quoted(version()) << ' ' << quoted(gitCommit()) << '\n';
  // Whether a value was set from outside since the last hop: the next hop recomputes every
  // output first, and so must the restored simulation's.
  bool valuesSet = signalSets_ != signalSetsSeen_;
  for (const ModelSlot& s : slots_) valuesSet = valuesSet || ModelBinding::valuesSet(*s.model);
  const Timeline::Saved clock = timeline_.save();
  out << "time " << clock.now << ' ' << stateTime_ << ' ' << clock.hopCount << ' '
      << clock.lastBeginIoStep << ' ' << (initialUpdatePending_ ? 1 : 0) << ' ' << chattering_
      << ' ' << (valuesSet ? 1 : 0) << '\n';
  out << "integrator " << quoted(integratorName_) << '\n';
  writeOptions(out, integrator_->options());
  // The step the next hop starts with, when the states still continue the last sub-step: a
  // restored run then takes exactly the steps the original run takes.
  Eigen::VectorXd x(states_.size());
  states_.gather(x);
  out << "continuation " << (continuation_.continuesAt(stateTime_, x) ? continuation_.step : 0.0)
      << '\n';
  out << "signals " << signals_.size() << '\n';
  for (const auto& [name, signal] : signals_) {
    out << "signal " << quoted(name) << ' ' << signal->version() << ' ';
    writeValues(out, signal->buffer());
    out << '\n';
  }
  out << "models " << slots_.size() << '\n';
  for (const ModelSlot& s : slots_) {
    Model& model = *s.model;
    out << "model " << quoted(model.name()) << ' ' << quoted(model.spec().className()) << ' '
        << (s.active ? 1 : 0) << ' ' << ioStepOf(s).start << ' ' << ioStepOf(s).end << '\n';
    for (FieldRole role : checkpoint::kSavedRoles) {
      for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
        out << "field " << branchName(role) << ' ' << quoted(model.spec().fields(role)[i].name)
            << ' ';
        writeValues(out, ModelBinding::valueBuffer(model, role, i));
        out << '\n';
      }
    }
    out << "reads " << model.spec().fields(FieldRole::FlowIn).size();
    for (std::size_t i = 0; i < model.spec().fields(FieldRole::FlowIn).size(); ++i) {
      out << ' ' << ModelBinding::lastReadVersion(model, i);
    }
    out << '\n';
  }
  writeMultibody(out, *multibody_);
  writeSchedules(out, events_.scheduleStates());
  out << "crossings " << crossings_.size() << '\n';
  for (const Crossing& c : crossings_) {
    out << "crossing " << quoted(c.name) << ' ' << (c.afterFiring ? 1 : 0) << ' ' << c.firedValue
        << ' ' << c.crossedSign << '\n';
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
  applyCheckpoint(staged);
  return std::move(staged.origin);
}

void Simulation::applyCheckpoint(CheckpointStaging& staged) {
  // Nothing here throws on a value: the parser refused whatever a setter below would.
  events_.restoreScheduleStates(staged.events);
  const CheckpointStaging::Clock& clock = staged.clock;
  timeline_.restore({clock.now, clock.hopCount, clock.lastBeginIoStep});
  const Ticks now = timeline_.now();
  // Samplers go on from the restored time: the next sample is the first at or after it.
  for (Sampler& s : samplers_) {
    if (s.start <= now) s.next = s.everyHop() ? 0 : s.period->indexAfter(s.start, now - 1);
  }
  stateTime_ = clock.stateTime;
  initialUpdatePending_ = clock.initialUpdatePending;
  chattering_ = clock.chattering;
  signalSetsSeen_ = signalSets_;  // the restore's own writes are not sets
  integrator_ = std::move(staged.integrator);
  integratorName_ = std::move(staged.integratorName);
  for (CheckpointStaging::SignalValue& v : staged.signals) {
    v.signal->buffer() = std::move(v.value);
    v.signal->restoreVersion(v.version);
  }
  applyModelValues(staged);
  multibody_->setGravity(staged.gravity);
  for (std::size_t b = 0; b < staged.massProperties.size(); ++b) {
    multibody_->setMassProperties(static_cast<multibody::BodyIndex>(b + 1),
                                  staged.massProperties[b]);
  }
  multibody_->q() = staged.q;
  multibody_->u() = staged.u;
  for (std::size_t c = 0; c < crossings_.size(); ++c) {
    crossings_[c].afterFiring = staged.crossings[c].afterFiring;
    crossings_[c].firedValue = staged.crossings[c].firedValue;
    crossings_[c].crossedSign = staged.crossings[c].crossedSign;
  }
  rebuildSweepLists();  // activity may differ; sizes the new integrator
  if (staged.continuationStep > 0.0) {
    continuation_.time = stateTime_;
    continuation_.step = staged.continuationStep;
    states_.gather(continuation_.state);
  }
}

void Simulation::applyModelValues(CheckpointStaging& staged) {
  defaultStep_ = {0, kNotStarted, false};  // begins anew at the next hop
  for (std::size_t m = 0; m < slots_.size(); ++m) {
    ModelSlot& s = slots_[m];
    Model& model = *s.model;
    CheckpointStaging::ModelValues& values = staged.models[m];
    s.active = values.active;
    // Every model gets its own step back; those on the default period rejoin the shared step
    // when their step and the shared one next begin together.
    s.io = {values.ioStart, values.ioEnd, false};
    s.inDefaultStep = false;
    // What processParams derives from params is not saved: it runs again before the next hop
    // (processParams must be a function of the params alone).
    ModelBinding::raiseParamsChanged(model);
    ModelBinding::restoreValuesSet(model, staged.clock.valuesSet);
    std::size_t next = 0;
    for (FieldRole role : checkpoint::kSavedRoles) {
      for (std::size_t i = 0; i < model.spec().fields(role).size(); ++i) {
        Buffer& target = ModelBinding::valueBuffer(model, role, i);
        const Buffer& saved = values.fields[next++];
        // Element-wise for doubles: the state vector refers to this storage.
        if (target.type() == ElementType::Double) {
          std::copy_n(saved.doubles(), saved.length(), target.doubles());
        } else {
          target = saved;
        }
      }
    }
    for (std::size_t i = 0; i < values.reads.size(); ++i) {
      ModelBinding::lastReadVersion(model, i) = values.reads[i];
    }
  }
}

}  // namespace hopsim
