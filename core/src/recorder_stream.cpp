// Recorder: streaming its samples to a RecordingSink while the run goes on (docs/recording.md,
// "Streaming to a file").

#include <algorithm>
#include <exception>

#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim {

void Recorder::streamTo(std::unique_ptr<RecordingSink> sink, const StreamOptions& options) {
  if (!sink) throw InputError("streamTo: no sink");
  if (sink_) throw ModelError("streamTo: the recorder streams to " + sink_->name() + " already");
  if (finished_) throw ModelError("streamTo: the recorder has finished streaming");
  if (!(options.flushSeconds >= 0.0)) {
    throw InputError("streamTo: flushSeconds must be >= 0, got " +
                     describeValue(options.flushSeconds));
  }
  sink->begin(*this);
  sink_ = std::move(sink);
  stream_ = options;
  if (stream_.flushSamples == 0) {
    stream_.flushSamples =
        std::max<std::size_t>(1, kStreamValues / std::max<std::size_t>(1, columns_.size()));
  }
  lastWrite_ = Clock::now();
  if (!stream_.keepSamples) {
    // What was held goes out now; from here on the buffers hold one write's worth, in room
    // made once (a scenario reserves room for its whole run, which streaming does not need).
    flush();
    std::vector<double>().swap(times_);
    times_.reserve(stream_.flushSamples);
    for (auto& column : data_) {
      std::vector<double>().swap(column);
      column.reserve(stream_.flushSamples);
    }
  }
  // The wall-time flush, between hops: a run that samples rarely still writes what it has.
  if (sim_ != nullptr && !paths_.empty()) {
    samplers_.push_back(sim_->addHopSampler([this](Simulation&, double) {
      if (times_.size() > written_ &&
          Clock::now() - lastWrite_ >= std::chrono::duration<double>(stream_.flushSeconds)) {
        flush();
      }
    }));
  }
}

void Recorder::streamTo(std::unique_ptr<RecordingSink> sink) {
  streamTo(std::move(sink), StreamOptions{});
}

void Recorder::flush() {
  if (!sink_) return;
  lastWrite_ = Clock::now();
  if (written_ == times_.size()) return;
  try {
    sink_->write(*this, written_, times_.size());
  } catch (...) {
    streamFailed_ = true;
    throw;
  }
  written_ = times_.size();
  if (!stream_.keepSamples) dropWritten();
}

void Recorder::dropWritten() {
  dropped_ += times_.size();
  times_.clear();
  for (auto& column : data_) column.clear();
  written_ = 0;
}

void Recorder::finishStream(RecordingEnd::Status status, std::string reason) {
  if (!sink_) throw ModelError("finishStream: the recorder does not stream");
  RecordingEnd end{status, sim_ != nullptr ? sim_->time() : 0.0, std::move(reason)};
  std::exception_ptr failure;
  try {
    flush();
  } catch (const Error& e) {
    failure = std::current_exception();
    end.status = RecordingEnd::Status::Failed;
    end.reason = e.what();
  }
  const std::unique_ptr<RecordingSink> sink = std::move(sink_);
  finished_ = true;
  removeSamplers();
  try {
    sink->finish(*this, end);
  } catch (const Error&) {
    if (!failure) failure = std::current_exception();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace hopsim
