#include "hopsim/core/block_writer.h"

#include <algorithm>
#include <utility>

#include "hopsim/core/recorder.h"

namespace hopsim {

BlockWriter::BlockWriter(WriteBlock writeBlock, bool background)
    : writeBlock_(std::move(writeBlock)) {
  if (background) thread_ = std::thread([this] { run(); });
}

BlockWriter::~BlockWriter() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void BlockWriter::awaitIdle(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return !pending_; });
  if (failure_) std::rethrow_exception(failure_);
}

void BlockWriter::write(const Recorder& recorder, std::size_t first, std::size_t end) {
  std::unique_lock lock(mutex_);
  awaitIdle(lock);
  // The room grows to the largest block once; each column is one contiguous copy.
  width_ = recorder.columns().size();
  rows_ = end - first;
  block_.resize(rows_ * width_);
  for (std::size_t c = 0; c < width_; ++c) {
    const std::vector<double>& values = c == 0 ? recorder.times() : recorder.values(c);
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(first), rows_,
                block_.begin() + static_cast<std::ptrdiff_t>(c * rows_));
  }
  pending_ = true;
  if (!thread_.joinable()) {
    lock.unlock();
    writePending();
    lock.lock();
    awaitIdle(lock);
    return;
  }
  lock.unlock();
  changed_.notify_all();
}

void BlockWriter::close() {
  std::unique_lock lock(mutex_);
  awaitIdle(lock);
}

std::size_t BlockWriter::samples() const {
  const std::lock_guard lock(mutex_);
  return samples_;
}

void BlockWriter::writePending() {
  std::exception_ptr failure;
  try {
    writeBlock_(block_.data(), rows_, width_);
  } catch (...) {  // any, so that none escapes the thread
    failure = std::current_exception();
  }
  const std::lock_guard lock(mutex_);
  if (!failure) samples_ += rows_;
  if (failure && !failure_) failure_ = failure;
  pending_ = false;
  changed_.notify_all();
}

void BlockWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return pending_ || stopping_; });
    if (!pending_) return;
    lock.unlock();
    writePending();
    lock.lock();
  }
}

}  // namespace hopsim
