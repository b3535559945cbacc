#pragma once
/// @file
/// Feed-through-aware topological sort of a model dataflow.

#include <cstddef>
#include <string>
#include <vector>

namespace hopsim {

/// One signal connection from a writer's flowOut to a reader's flowIn. Only connections where
/// the reader feeds that flowIn through to one of its flowOuts order models.
struct DataflowConnection {
  std::size_t writer;       ///< index of the writing model
  std::size_t reader;       ///< index of the reading model
  std::string writerPort;   ///< "A.y"
  std::string signal;       ///< the signal or slice between them ("s", "state[0:3]")
  std::string readerPort;   ///< "B.u"
  std::string feedThrough;  ///< the reader's declaration involved: "u -> y, z"
  bool broken = false;      ///< a declared break: the reader may run first, one evaluation late
  bool fedThrough = true;   ///< the reader feeds this flowIn through to a flowOut
  /// True when the connection constrains the order: fed through and not broken.
  bool orders() const { return fedThrough && !broken; }
};

/// Orders `modelCount` models so that every writer of an unbroken feed-through connection runs
/// before its reader. Stable: among models free to run, the lower index (creation order) runs
/// first.
/// @throws ModelError if unbroken connections form a cycle (an algebraic loop); the message
/// prints the cycle as `A.y -> signal -> B.u` links with the feed-through declarations involved.
std::vector<std::size_t> sortDataflow(std::size_t modelCount,
                                      const std::vector<DataflowConnection>& connections);

}  // namespace hopsim
