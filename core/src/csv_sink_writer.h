#pragma once
// CsvSink::Writer: formats and writes a CSV sink's lines in a thread of its own, so that a run
// pays for a copy of its samples, not for turning them into text (docs/recording.md, "Cost of
// streaming").

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "hopsim/core/csv_sink.h"
#include "hopsim/core/output_file.h"

namespace hopsim {

/// The CSV lines of `count` rows of `width` numbers, row-major, appended to `out`.
void appendCsvRows(std::string& out, const double* rows, std::size_t count, std::size_t width);

class CsvSink::Writer {
 public:
  /// Writes to `file` (its header already written) from a thread it starts.
  explicit Writer(OutputFile file);
  /// Stops the thread; a block still pending is written first, unchecked (close() checks).
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  /// Hands samples [first, end) of `recorder` over, copied, once the block handed over before
  /// is written (so that at most one waits). @throws the InputError of an earlier block's
  /// write, which also fails every later call.
  void write(const Recorder& recorder, std::size_t first, std::size_t end);
  /// Waits until every block is written, then closes the file. @throws the InputError of a
  /// block's write, or of the close.
  void close();
  /// The samples in the file.
  std::size_t samples() const { return samples_; }

 private:
  void run();
  /// Waits until no block is pending. @throws a write's failure. Holds `lock`.
  void awaitIdle(std::unique_lock<std::mutex>& lock);

  OutputFile file_;
  std::mutex mutex_;
  std::condition_variable changed_;
  // The block handed over: rows_ lines of width_ numbers, row-major. pending_ hands it to the
  // thread, which owns it (and text_) until it clears pending_.
  std::vector<double> block_;
  std::size_t rows_ = 0;
  std::size_t width_ = 0;
  bool pending_ = false;
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::string text_;
  std::size_t samples_ = 0;
  std::thread thread_;  // last: started once everything it uses exists
};

}  // namespace hopsim
