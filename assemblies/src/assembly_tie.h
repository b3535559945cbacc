#pragma once
// A signal tie on its way down the assembly tree: who gave it, what it stands for, and which
// assemblies consumed it (private to the assemblies library).
#include <string>
#include <vector>

#include "hopsim/assemblies/assembly.h"

namespace hopsim {

/// "assembly 'lander.engine'", or "the top assembly" (for messages).
inline std::string describeAssembly(const std::string& path) {
  return path.empty() ? std::string("the top assembly") : "assembly '" + path + "'";
}

struct Assembly::TieRecord {
  SignalTie tie;        // as the giver wrote it
  SignalRef target;     // resolved in the giver's scope
  std::string givenBy;  // path of the giver ("" for the top)
  std::string givenTo;  // path of the child it was given to
  std::vector<std::string> consumers;

  /// Records that `consumer` declared the tied signal with `type` and `length`, after checking
  /// that they are what the tie stands for. @throws InputError otherwise.
  void consume(const Simulation& sim, const std::string& consumer, ElementType type,
               std::size_t length);
  /// Drops `consumer` (its construction failed and was undone).
  void forget(const std::string& consumer);
  /// "signal tie 'b_out' -> 'a' given by the top assembly to assembly 'B' (at file:12:3)".
  std::string describe() const;
};

}  // namespace hopsim
