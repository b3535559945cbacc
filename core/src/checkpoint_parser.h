#pragma once
// Private to core/src: a checkpoint file read and checked against a simulation's structure
// (docs/checkpoints.md, "Restoring"). Parsing changes nothing in the simulation; what it
// accepts, Simulation::applyCheckpoint puts in place without a failure.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint_reader.h"
#include "hopsim/core/event_manager.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/spatial_inertia.h"

namespace hopsim {

/// Everything a checkpoint restores, read and checked, ready to be applied.
struct CheckpointStaging {
  CheckpointOrigin origin;

  struct Clock {
    Ticks now = 0;
    double stateTime = 0.0;
    std::uint64_t hopCount = 0;
    Ticks lastBeginIoStep = 0;
    bool initialUpdatePending = false;
    int chattering = 0;
    bool valuesSet = false;
  };
  Clock clock;

  std::string integratorName;
  std::unique_ptr<Integrator> integrator;
  double continuationStep = 0.0;

  struct SignalValue {
    Signal* signal;
    std::uint64_t version;
    Buffer value;
  };
  std::vector<SignalValue> signals;  // in name order, as the simulation holds them

  struct ModelValues {
    bool active = true;
    Ticks ioStart = 0;
    Ticks ioEnd = 0;
    std::vector<Buffer> fields;  // params, discrete states, continuous states
    std::vector<std::uint64_t> reads;
  };
  std::vector<ModelValues> models;  // in creation order

  spatial::Vector3 gravity;
  std::vector<spatial::SpatialInertia> massProperties;  // of bodies 1, 2, ...
  Eigen::VectorXd q;
  Eigen::VectorXd u;

  std::vector<EventManager::ScheduleState> events;

  struct CrossingMemory {
    bool afterFiring;
    double firedValue;
    int crossedSign;
  };
  std::vector<CrossingMemory> crossings;  // in registration order
};

/// Reads a whole checkpoint file against a simulation. A friend of Simulation: it reads the
/// structure the file must match.
class CheckpointParser {
 public:
  /// @throws InputError "checkpoint '<file>' line <n>: ..." naming the first thing that does
  /// not parse, is out of range, or does not match `sim`'s structure.
  static CheckpointStaging parse(const Simulation& sim, const std::string& file);

 private:
  CheckpointParser(const Simulation& sim, const std::string& file);

  void readHeader();
  /// The writer of a file of a newer format, if its written_by line reads: " (hopsim ...)".
  std::string newerWriter();
  void readClock();
  void readIntegrator();
  IntegratorOptions readOptions();
  void readSignals();
  void readModels();
  void readModel(const Simulation::ModelSlot& slot);
  /// One `field` line of `model`, checked against its declaration.
  Buffer readField(const Model& model, FieldRole role, std::size_t index);
  void readMultibody();
  spatial::SpatialInertia readBody(multibody::BodyIndex body);
  void readCoordinates();
  void readEvents();
  void readCrossings();
  /// Checks made once the whole file is read: the per-state tolerances against the state count
  /// the restored activity gives.
  void checkWholeFile();

  const Simulation& sim_;
  CheckpointReader reader_;
  CheckpointStaging staged_;
  int formatVersion_ = 0;
  int optionsLine_ = 0;
};

}  // namespace hopsim
