#pragma once
// Private to core/src: a checkpoint file read and checked against a simulation's structure
// (docs/checkpoints.md, "Restoring"). Parsing changes nothing in the simulation; what it
// accepts, Simulation::restoreCheckpoint applies without a failure.

#include <string>

#include "checkpoint_reader.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/snapshot.h"

namespace hopsim {

/// A checkpoint file read and checked: the snapshot it restores, and who wrote it.
struct CheckpointStaging {
  CheckpointOrigin origin;
  Snapshot snapshot;
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
