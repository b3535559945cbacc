#include "csv_sink_writer.h"

#include <utility>

#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"

namespace hopsim {

CsvSink::Writer::Writer(OutputFile file) : file_(std::move(file)), thread_([this] { run(); }) {}

CsvSink::Writer::~Writer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void CsvSink::Writer::awaitIdle(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return !pending_; });
  if (failure_) std::rethrow_exception(failure_);
}

void CsvSink::Writer::write(const Recorder& recorder, std::size_t first, std::size_t end) {
  std::unique_lock lock(mutex_);
  awaitIdle(lock);
  // Row-major, as the lines go; the room grows to the largest block once.
  width_ = recorder.columns().size();
  rows_ = end - first;
  block_.resize(rows_ * width_);
  for (std::size_t r = 0; r < rows_; ++r) block_[r * width_] = recorder.times()[first + r];
  for (std::size_t c = 1; c < width_; ++c) {
    const std::vector<double>& values = recorder.values(c);
    for (std::size_t r = 0; r < rows_; ++r) block_[r * width_ + c] = values[first + r];
  }
  pending_ = true;
  lock.unlock();
  changed_.notify_all();
}

void CsvSink::Writer::close() {
  std::unique_lock lock(mutex_);
  awaitIdle(lock);
  file_.close();
}

void CsvSink::Writer::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return pending_ || stopping_; });
    if (!pending_) return;
    lock.unlock();
    std::exception_ptr failure;
    try {
      // One write per block, so that a failed one leaves the file as it was: whole lines.
      text_.clear();
      appendCsvRows(text_, block_.data(), rows_, width_);
      file_.write(text_);
      samples_ += rows_;
    } catch (const Error&) {
      failure = std::current_exception();
    }
    lock.lock();
    pending_ = false;
    if (failure && !failure_) failure_ = failure;
    changed_.notify_all();
  }
}

}  // namespace hopsim
