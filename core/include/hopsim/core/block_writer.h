#pragma once
/// @file
/// BlockWriter: how a recording sink writes blocks of samples, in a thread of its own or in
/// the caller's (docs/recording.md, "Streaming to a file").
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace hopsim {

class Recorder;

/// Copies blocks of a recorder's samples, column by column as the recorder holds them, and
/// writes each with a sink's function: in a thread of its own (`background`), so that a run
/// pays for the copy while the formatting and the system calls go on beside it, or at once in
/// the caller's thread. In the background, write() waits until the block before is written, so
/// at most one is in flight, and a write that failed is thrown by the next write() or by
/// close(); every later call throws it too. Once a block of a size has been written, copying
/// one of that size or smaller allocates nothing.
class BlockWriter {
 public:
  /// Writes a block of `count` samples of `width` columns: column c (0 the time, then the
  /// recorder's columns) is columns[c * count, (c + 1) * count).
  /// @throws InputError naming the file when it cannot be written.
  using WriteBlock =
      std::function<void(const double* columns, std::size_t count, std::size_t width)>;

  BlockWriter(WriteBlock writeBlock, bool background);
  /// Writes a block still pending, unchecked, then stops the thread (close() checks).
  ~BlockWriter();
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;

  /// Copies samples [first, end) of what `recorder` holds and writes them.
  /// @throws the InputError of this write (at once) or of an earlier one (in the background).
  void write(const Recorder& recorder, std::size_t first, std::size_t end);
  /// Waits until every block is written. @throws the InputError of a write.
  void close();
  /// The samples written.
  std::size_t samples() const;

 private:
  void run();
  /// Waits until no block is pending; rethrows a failed write.
  void awaitIdle(std::unique_lock<std::mutex>& lock);
  /// Writes the pending block; a failure becomes failure_.
  void writePending();

  WriteBlock writeBlock_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // The block handed over: width_ columns of rows_ samples. pending_ hands it to the thread,
  // which owns it until it clears pending_.
  std::vector<double> block_;
  std::size_t rows_ = 0;
  std::size_t width_ = 0;
  bool pending_ = false;
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::size_t samples_ = 0;
  std::thread thread_;  // last: started once everything it uses exists; none when in the caller's
};

}  // namespace hopsim
