// Streaming a recording into an HDF5 file: chunked datasets that grow at every write, in SWMR
// mode, so that the file is whole after each write, even if the process is then killed.

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hdf5_handles.h"
#include "hopsim/core/block_writer.h"
#include "hopsim/core/recorder.h"
#include "hopsim/core/version.h"
#include "hopsim/viewer/hdf5_recording.h"

namespace hopsim::viewer {

namespace {

using hdf5::Handle;

/// Writes one file: attributes and datasets, every failure an InputError naming it.
class Writer : public hdf5::File {
 public:
  explicit Writer(const std::string& file) : File("cannot write '" + file + "': ") {}

  /// Attribute `name` = `value` (a scalar string) on `object`, replacing one of that name.
  void attribute(hid_t object, const char* name, const std::string& value) const {
    const Handle type = stringType();
    const char* text = value.c_str();
    write(object, name, type.get(), type.get(), scalar(), &text);
  }

  /// Attribute `name` = `value` (a scalar float64) on `object`, replacing one of that name.
  void attribute(hid_t object, const char* name, double value) const {
    write(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, scalar(), &value);
  }

  /// Attribute `name` = `value` (a scalar int64) on `object`, replacing one of that name.
  void attribute(hid_t object, const char* name, std::int64_t value) const {
    write(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, scalar(), &value);
  }

  /// Attribute `name` = `values` (a 1-D string array) on `object`.
  void attribute(hid_t object, const char* name, const std::vector<std::string>& values) const {
    const Handle type = stringType();
    std::vector<const char*> texts;
    for (const std::string& value : values) texts.push_back(value.c_str());
    write(object, name, type.get(), type.get(), array(values.size()), texts.data());
  }

  /// Attribute `name` = `values` (a 1-D int64 array) on `object`.
  void attribute(hid_t object, const char* name, const std::vector<std::int64_t>& values) const {
    write(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, array(values.size()), values.data());
  }

  /// An empty float64 dataset `name` (groups created on the way) of `width` columns (1-D for
  /// 0) that grows by rows, chunked by `chunkRows`.
  Handle dataset(hid_t file, const std::string& name, hsize_t width, hsize_t chunkRows) const {
    const int rank = width == 0 ? 1 : 2;
    const hsize_t dims[2] = {0, width};
    const hsize_t maxDims[2] = {H5S_UNLIMITED, width};
    const hsize_t chunk[2] = {chunkRows, std::max<hsize_t>(width, 1)};
    const Handle space =
        check(H5Screate_simple(rank, dims, maxDims), H5Sclose, "dataspace of " + name);
    const Handle links = check(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "property list");
    check(H5Pset_create_intermediate_group(links.get(), 1), "property list");
    const Handle layout = check(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "property list");
    check(H5Pset_chunk(layout.get(), rank, chunk), "chunks of " + name);
    return check(H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space.get(), links.get(),
                            layout.get(), H5P_DEFAULT),
                 H5Dclose, "dataset " + name);
  }

  /// Appends `rows` rows of `data` (row-major, as wide as the dataset) after its first `at`.
  void append(hid_t set, const std::string& name, hsize_t at, hsize_t rows, hsize_t width,
              const double* data) const {
    const int rank = width == 0 ? 1 : 2;
    const hsize_t size[2] = {at + rows, width};
    check(H5Dset_extent(set, size), "dataset " + name);
    const Handle space = check(H5Dget_space(set), H5Sclose, "dataset " + name);
    const hsize_t start[2] = {at, 0};
    const hsize_t count[2] = {rows, width};
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
          "dataset " + name);
    const Handle memory =
        check(H5Screate_simple(rank, count, nullptr), H5Sclose, "dataset " + name);
    check(H5Dwrite(set, H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT, data),
          "dataset " + name);
  }

 private:
  Handle scalar() const { return check(H5Screate(H5S_SCALAR), H5Sclose, "dataspace"); }
  Handle array(std::size_t size) const {
    const hsize_t n = size;
    return check(H5Screate_simple(1, &n, nullptr), H5Sclose, "dataspace");
  }

  void write(hid_t object, const char* name, hid_t fileType, hid_t memoryType, const Handle& space,
             const void* data) const {
    const std::string what = std::string("attribute ") + name;
    if (H5Aexists(object, name) > 0) check(H5Adelete(object, name), what);
    const Handle attr = check(
        H5Acreate2(object, name, fileType, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, what);
    check(H5Awrite(attr.get(), memoryType, data), what);
  }
};

/// Points the library's descriptor of the open file `file` at an anonymous file in memory, so
/// that what it still writes goes there: the file on disk stays as the last write left it, and
/// closing a file the disk no longer takes succeeds (HDF5 1.10 crashes at exit on a file it
/// cannot flush). A file size limit applies to the memory file too: skipHdf5Termination().
void detach(hid_t file) noexcept {
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) return;
  const int memory = ::memfd_create("hopsim-abandoned-hdf5", MFD_CLOEXEC);
  if (memory < 0) return;
  ::dup2(memory, *static_cast<int*>(handle));
  ::close(memory);
}

/// The dataset of variable `path`: "signals.stop_torque" -> "/signals/stop_torque".
std::string datasetName(const std::string& path) {
  std::string name = "/" + path;
  std::replace(name.begin(), name.end(), '.', '/');
  return name;
}

/// Rows per chunk for a dataset of `width` columns: about 32 KiB, and at least 64 rows.
hsize_t chunkRows(std::size_t width) {
  return std::max<hsize_t>(64, 4096 / std::max<std::size_t>(width, 1));
}

/// The recording streamed into one HDF5 file (docs/scenario-yaml.md, "The HDF5 file").
class Hdf5Sink final : public RecordingSink {
 public:
  Hdf5Sink(std::string file, std::string scenario, std::string sceneJson, bool background)
      : file_(std::move(file)),
        scenario_(std::move(scenario)),
        scene_(std::move(sceneJson)),
        background_(background),
        w_(file_) {}

  std::string name() const override { return "'" + file_ + "'"; }

  void begin(const Recorder& recorder) override {
    guarded([&] { create(recorder); });
    writer_ = std::make_unique<BlockWriter>(
        [this](const double* columns, std::size_t count, std::size_t) {
          guarded([&] { append(columns, count); });
        },
        background_);
  }

  void write(const Recorder& recorder, std::size_t first, std::size_t end) override {
    writer_->write(recorder, first, end);
  }

  void finish(const Recorder&, const RecordingEnd& end) override {
    writer_->close();  // throws a write that failed in the background
    if (broken_) w_.fail("an earlier write failed; the file holds the samples written before it");
    guarded([&] {
      for (Set& set : sets_) set.handle.reset();
      time_.reset();
      close(h5_);
    });
    // The end is recorded in the file reopened without SWMR, which adds no attribute.
    const hdf5::QuietErrors quiet;
    Handle h5 = w_.check(H5Fopen(file_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose,
                         "cannot open the file to record its end");
    try {
      const Handle root = w_.check(H5Gopen2(h5.get(), "/", H5P_DEFAULT), H5Gclose, "root group");
      w_.attribute(root.get(), "status", std::string(statusName(end.status)));
      w_.attribute(root.get(), "reason", end.reason);
      w_.attribute(root.get(), "stop_time", end.time);
      w_.attribute(root.get(), "samples", static_cast<std::int64_t>(written_));
    } catch (const InputError&) {
      detach(h5.get());
      throw;
    }
    close(h5);
  }

 private:
  /// Creates the file, its attributes and its empty datasets, and starts SWMR writing.
  void create(const Recorder& recorder) {
    // The latest file format, which SWMR needs.
    const Handle access = w_.check(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "property list");
    w_.check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST),
             "property list");
    h5_ = w_.check(H5Fcreate(file_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose,
                   "cannot create the file");
    const Handle root = w_.check(H5Gopen2(h5_.get(), "/", H5P_DEFAULT), H5Gclose, "root group");
    w_.attribute(root.get(), "hopsim_version", std::string(version()));
    w_.attribute(root.get(), "hopsim_git_commit", std::string(gitCommit()));
    if (!scenario_.empty()) {
      w_.attribute(root.get(), "scenario", std::filesystem::path(scenario_).filename().string());
    }
    if (!scene_.empty()) w_.attribute(root.get(), "viewer_scene", scene_);
    w_.attribute(root.get(), "status", std::string("running"));

    time_ = w_.dataset(h5_.get(), "/time", 0, chunkRows(1));
    w_.attribute(time_.get(), "unit", std::string("s"));
    w_.attribute(time_.get(), "description", std::string("simulation time of the sample"));
    // One dataset per variable, its columns in the order each first appears.
    const std::vector<std::string>& columns = recorder.columns();
    std::vector<std::string> paths;
    for (std::size_t c = 1; c < columns.size(); ++c) {
      const auto found = std::find(paths.begin(), paths.end(), recorder.path(c));
      if (found != paths.end()) {
        sets_[static_cast<std::size_t>(found - paths.begin())].columns.push_back(c);
        continue;
      }
      paths.push_back(recorder.path(c));
      sets_.push_back({datasetName(recorder.path(c)), {}, {c}, recorder.variable(c).length() > 1});
    }
    for (Set& set : sets_) {
      const std::size_t first = set.columns.front();
      const Variable& variable = recorder.variable(first);
      const hsize_t width = set.vector ? set.columns.size() : 0;
      set.handle = w_.dataset(h5_.get(), set.name, width, chunkRows(set.columns.size()));
      w_.attribute(set.handle.get(), "description", variable.description());
      w_.attribute(set.handle.get(), "path", recorder.path(first));
      std::vector<std::string> names;
      std::vector<std::string> units;
      std::vector<std::int64_t> elements;
      for (const std::size_t c : set.columns) {
        names.push_back(columns[c]);
        units.push_back(recorder.units()[c]);
        elements.push_back(static_cast<std::int64_t>(recorder.element(c)));
      }
      // `unit` is the one every column shares ("" when they differ, as in a FULL6DOF hinge's
      // Q); `units` has each column's.
      const bool shared = std::all_of(units.begin(), units.end(),
                                      [&](const std::string& u) { return u == units.front(); });
      w_.attribute(set.handle.get(), "unit", shared ? units.front() : std::string());
      w_.attribute(set.handle.get(), "units", units);
      w_.attribute(set.handle.get(), "columns", names);
      w_.attribute(set.handle.get(), "elements", elements);
    }
    // From here on a reader, and the file after the process is killed, sees every write whole.
    w_.check(H5Fstart_swmr_write(h5_.get()), "cannot start SWMR writing");
  }

  /// Appends a block of `count` samples (BlockWriter::WriteBlock: column c at
  /// columns[c * count]) to every dataset, /time last, and flushes the file.
  void append(const double* columns, std::size_t count) {
    for (const Set& set : sets_) {
      const double* data = columns + set.columns.front() * count;  // a scalar's: as it is
      if (set.vector) {
        // Row-major, as the dataset's rows go; the room grows to the largest block once.
        const std::size_t width = set.columns.size();
        rows_.resize(count * width);
        for (std::size_t j = 0; j < width; ++j) {
          const double* column = columns + set.columns[j] * count;
          for (std::size_t r = 0; r < count; ++r) rows_[r * width + j] = column[r];
        }
        data = rows_.data();
      }
      w_.append(set.handle.get(), set.name, written_, count, set.vector ? set.columns.size() : 0,
                data);
    }
    // The time last: a reader takes /time's length as the samples every dataset holds.
    w_.append(time_.get(), "/time", written_, count, 0, columns);
    w_.check(H5Fflush(h5_.get(), H5F_SCOPE_LOCAL), "flush");
    written_ += count;
  }

  /// Runs `body`; when it throws, abandons the file before the error propagates.
  template <class Body>
  void guarded(Body&& body) {
    const hdf5::QuietErrors quiet;
    try {
      body();
    } catch (const InputError&) {
      abandon();
      throw;
    }
  }

  /// After a failure: every dataset back to the samples written whole, as far as the file
  /// still takes it, then the file detached and closed. No later call writes to it.
  void abandon() noexcept {
    broken_ = true;
    if (h5_.get() < 0) return;
    for (Set& set : sets_) {
      const hsize_t size[2] = {written_, set.columns.size()};
      if (set.handle.get() >= 0) H5Dset_extent(set.handle.get(), size);
    }
    if (time_.get() >= 0) H5Dset_extent(time_.get(), &written_);
    H5Fflush(h5_.get(), H5F_SCOPE_LOCAL);
    detach(h5_.get());
    for (Set& set : sets_) set.handle.reset();
    time_.reset();
    H5Fclose(h5_.get());
    h5_.release();
  }

  /// Closes the file `file`. @throws InputError when that fails, the file detached and
  /// closed all the same.
  void close(Handle& file) {
    try {
      w_.check(H5Fclose(file.get()), "close");
    } catch (const InputError&) {
      detach(file.get());
      H5Fclose(file.get());
      file.release();
      throw;
    }
    file.release();
  }

 private:
  struct Set {
    std::string name;                  // "/signals/stop_torque"
    Handle handle;                     // the open dataset
    std::vector<std::size_t> columns;  // the recorder's columns it holds, in order
    bool vector;                       // 2-D: the variable has more than one element
  };
  std::string file_;
  std::string scenario_;
  std::string scene_;
  bool background_;
  Writer w_;
  Handle h5_;
  Handle time_;
  std::vector<Set> sets_;
  std::vector<double> rows_;  // a vector dataset's rows of a block, row-major
  hsize_t written_ = 0;
  bool broken_ = false;
  // Last, so that it stops before what its thread writes with goes.
  std::unique_ptr<BlockWriter> writer_;
};

}  // namespace

void skipHdf5Termination() { H5dont_atexit(); }

std::unique_ptr<RecordingSink> hdf5Sink(const std::string& file, const std::string& scenarioFile,
                                        const std::string& sceneJson, bool background) {
  return std::make_unique<Hdf5Sink>(file, scenarioFile, sceneJson, background);
}

}  // namespace hopsim::viewer
