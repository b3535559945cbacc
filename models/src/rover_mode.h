#pragma once
// The motion command convention of the seed's rover navigation models (RoverNavModels): mode 0
// turns in place, 1 moves forward, -1 moves in reverse; radius 0 is straight, a positive
// radius turns left (the turn center on the +y side of the chassis), a negative one right.

#include <cstdint>
#include <string>

#include "hopsim/core/model.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

enum class RoverMode : std::int64_t { Reverse = -1, TurnInPlace = 0, Forward = 1 };

/// The mode read from the flowIn `port` of `model`.
/// @throws InputError naming the model, the port and the value unless it is -1, 0 or 1.
inline RoverMode roverMode(const Model& model, const char* port, std::int64_t mode) {
  if (mode < -1 || mode > 1) {
    throw InputError("models." + model.name() + ".flowIns." + port + ": value " +
                     std::to_string(mode) +
                     " is not a rover mode (0 turn in place, 1 forward, -1 reverse)");
  }
  return static_cast<RoverMode>(mode);
}

}  // namespace hopsim::models
