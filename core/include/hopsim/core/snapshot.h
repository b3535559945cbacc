#pragma once
/// @file
/// Snapshot: the executive's state at a hop boundary, held in one place. A checkpoint is a
/// whole snapshot written as text, a restore applies the whole snapshot a checkpoint file
/// gives back, and the rollback point of a hop with zero crossings is a snapshot of what a
/// hop changes (docs/executive.md, "The parts"). A new piece of executive state is a member
/// here, taken and applied in simulation_snapshot.cpp; the checkpoint writes and reads it.

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "hopsim/core/event_manager.h"
#include "hopsim/core/model_spec.h"
#include "hopsim/core/spatial/spatial_inertia.h"
#include "hopsim/core/time.h"
#include "hopsim/integrators/integrator.h"
#include "hopsim/signals/buffer.h"

namespace hopsim {

class Simulation;

/// What the last integration sub-step ended with (docs/integrators.md, "How the executive drives
/// them"): at `time` with X = `state`, a variable-step method proposed `step`, offered as the
/// first step of a sub-step that starts exactly there (same time, same X bit for bit: nothing
/// jumped in between). With `history`, the method may also continue its history into that
/// sub-step if the derivative there is still `derivative`, bit for bit (cvode with
/// continueAcrossHops).
struct StepContinuation {
  double time = 0.0;
  double step = 0.0;     // 0: nothing to offer
  bool history = false;  // `derivative` holds f(time, state) as the sub-step ended
  Eigen::VectorXd state;
  Eigen::VectorXd derivative;
  bool continuesAt(double t, const Eigen::VectorXd& x) const {
    return step > 0.0 && t == time && x == state;
  }
  bool historyContinuesAt(double t, const Eigen::VectorXd& x) const {
    return history && t == time && x == state;
  }
};

/// The executive's state between hops. Members marked "hop" are those a hop changes, which
/// the rollback point holds; a whole snapshot holds every member.
struct Snapshot {
  /// How much of the state a snapshot holds.
  enum class Scope : std::uint8_t {
    /// What a hop changes: the states of the active models, the multibody coordinates, the
    /// integrator's continuation. Taken before every hop with zero crossings, into storage
    /// sized by the first one: no allocation.
    Hop,
    /// Everything a checkpoint saves.
    Whole,
  };

  struct Clock {
    Ticks now = 0;
    double stateTime = 0.0;  // Simulation::stateTime()
    std::uint64_t hopCount = 0;
    Ticks lastBeginIoStep = 0;
    bool initialUpdatePending = false;  // a step zero is due at the next hop
    int chattering = 0;                 // hops in a row ended by a crossing without advancing
    bool valuesSet = false;             // a value was set from outside since the last hop
  };
  Clock clock;

  std::string integratorName;
  IntegratorOptions integratorOptions;
  /// Hop: the whole continuation. Whole: the step alone, and only when the state still
  /// continues the last sub-step (a CVODE history cannot be saved); 0 otherwise.
  StepContinuation continuation;

  struct SignalValue {
    std::uint64_t version = 0;
    Buffer value{ElementType::Double, 0};
  };
  std::vector<SignalValue> signals;  // in name order, as the simulation holds them

  /// The model fields a snapshot holds, in this order (a checkpoint writes them so).
  static constexpr FieldRole kFieldRoles[] = {FieldRole::Param, FieldRole::DiscreteState,
                                              FieldRole::ContinuousState};
  struct ModelValues {
    bool active = true;
    Ticks ioStart = 0;  // the I/O step in progress
    Ticks ioEnd = 0;
    std::vector<Buffer> params;
    std::vector<Buffer> discreteStates;    // hop (active models)
    std::vector<Buffer> continuousStates;  // hop (active models)
    std::vector<std::uint64_t> reads;      // the signal version each flowIn last read
    /// The fields of `role`, one of kFieldRoles.
    std::vector<Buffer>& fields(FieldRole role);
    const std::vector<Buffer>& fields(FieldRole role) const;
  };
  std::vector<ModelValues> models;  // in creation order

  spatial::Vector3 gravity = spatial::Vector3::Zero();
  std::vector<spatial::SpatialInertia> massProperties;  // of bodies 1, 2, ...
  Eigen::VectorXd q;                                    // hop (when the multibody system is active)
  Eigen::VectorXd u;                                    // hop (likewise)

  std::vector<EventManager::ScheduleState> events;

  /// A zero-crossing condition's memory across hops.
  struct CrossingMemory {
    bool afterFiring = false;
    double firedValue = 0.0;
    int crossedSign = 0;
  };
  std::vector<CrossingMemory> crossings;  // in registration order
};

/// Takes and applies whole snapshots of a simulation between hops, outside a checkpoint: for
/// the tests of the snapshot itself. The executive takes them in saveCheckpoint and
/// integrateHop, and applies them in restoreCheckpoint and the rollback.
struct SnapshotAccess {
  /// @throws ModelError inside a hop.
  static Snapshot take(const Simulation& sim);
  /// Applies a snapshot `sim` itself took, with its structure unchanged since.
  /// @throws ModelError inside a hop or when not locked.
  static void apply(Simulation& sim, const Snapshot& snapshot);
};

}  // namespace hopsim
