// HDF5 recordings with the HDF5 C API: writing one whole (hdf5_sink.cpp streams them), and
// reading them back for the viewer.

#include "hopsim/viewer/hdf5_recording.h"

#include <hdf5.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "hdf5_handles.h"
#include "hopsim/core/recorder.h"
#include "hopsim/signals/error.h"

namespace hopsim::viewer {

namespace {

using hdf5::Handle;

/// Reads one file.
class FileReader : public hdf5::File {
 public:
  explicit FileReader(const std::string& file)
      : File("cannot read the recording '" + file + "': ") {}

  /// The string attribute `name` of `object` (a scalar or the elements of a 1-D array);
  /// nothing when it has none.
  std::vector<std::string> strings(hid_t object, const char* name) const {
    if (H5Aexists(object, name) <= 0) return {};
    const Handle attr = check(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, name);
    const Handle space = check(H5Aget_space(attr.get()), H5Sclose, name);
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    const Handle type = stringType();
    std::vector<char*> texts(static_cast<std::size_t>(std::max<hssize_t>(count, 0)), nullptr);
    if (H5Aread(attr.get(), type.get(), texts.data()) < 0) fail(std::string("attribute ") + name);
    std::vector<std::string> out(texts.begin(), texts.end());
    H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, texts.data());
    return out;
  }

  /// A float64 dataset's values (row-major) and its dimensions.
  std::vector<double> values(hid_t set, std::vector<hsize_t>& dims) const {
    const Handle space = check(H5Dget_space(set), H5Sclose, "dataspace");
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 1 || rank > 2) fail("a dataset of rank " + std::to_string(rank));
    dims.assign(static_cast<std::size_t>(rank), 0);
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    std::vector<double> data(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
    if (H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
      fail("a dataset that is not numbers");
    return data;
  }
};

/// The datasets of a file, by path, in HDF5's name order.
herr_t collectDataset(hid_t, const char* name, const H5L_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->push_back(name);
  return 0;
}

}  // namespace

bool isHdf5Path(const std::string& file) {
  std::string lower = file;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return (lower.size() > 3 && lower.ends_with(".h5")) ||
         (lower.size() > 5 && lower.ends_with(".hdf5"));
}

void writeHdf5(const std::string& file, const Recorder& recorder, const std::string& scenarioFile,
               const std::string& sceneJson, const RecordingEnd& end) {
  const std::unique_ptr<RecordingSink> sink = hdf5Sink(file, scenarioFile, sceneJson, false);
  sink->begin(recorder);
  sink->write(recorder, 0, recorder.times().size());
  sink->finish(recorder, end);
}

RecordingTable readHdf5Recording(const std::string& path, std::string& sceneJson) {
  const hdf5::QuietErrors quiet;
  const FileReader r(path);
  // A file whose writer was killed is still marked open for SWMR writing, and one whose writer
  // stopped at a failed write is shorter than its superblock says: both open for SWMR reading,
  // with every sample of the writer's last flush.
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) id = H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, H5P_DEFAULT);
  const Handle h5 = r.check(id, H5Fclose, "not an HDF5 file, or it cannot be opened");
  const Handle root = r.check(H5Gopen2(h5.get(), "/", H5P_DEFAULT), H5Gclose, "root group");
  const std::vector<std::string> scene = r.strings(root.get(), "viewer_scene");
  sceneJson = scene.empty() ? std::string() : scene.front();
  // A recording still running (or killed) may hold more rows in a dataset than in /time,
  // which is written last: the samples are /time's.
  const std::vector<std::string> status = r.strings(root.get(), "status");
  const bool running = !status.empty() && status.front() == "running";

  RecordingTable table;
  std::vector<hsize_t> dims;
  {
    const Handle time = r.check(H5Dopen2(h5.get(), "/time", H5P_DEFAULT), H5Dclose,
                                "no /time dataset (not written by hopsim run)");
    table.time = r.values(time.get(), dims);
  }
  std::vector<std::string> links;
  H5Lvisit(h5.get(), H5_INDEX_NAME, H5_ITER_INC, collectDataset, &links);
  for (const std::string& link : links) {
    const Handle object = r.check(H5Oopen(h5.get(), link.c_str(), H5P_DEFAULT), H5Oclose, link);
    if (H5Iget_type(object.get()) != H5I_DATASET || link == "time") continue;
    const std::vector<std::string> names = r.strings(object.get(), "columns");
    const std::vector<std::string> unit = r.strings(object.get(), "unit");
    const std::vector<std::string> units = r.strings(object.get(), "units");  // per column
    const std::vector<double> data = r.values(object.get(), dims);
    const std::size_t width = dims.size() == 2 ? dims[1] : 1;
    const bool rowsMatch = running ? dims[0] >= table.time.size() : dims[0] == table.time.size();
    if (!rowsMatch || names.size() != width) {
      r.fail("dataset /" + link + " has " + std::to_string(dims[0]) + " rows and " +
             std::to_string(names.size()) + " column names for " + std::to_string(width) +
             " columns; expected " + std::to_string(table.time.size()) + " rows (/time's)");
    }
    for (std::size_t k = 0; k < width; ++k) {
      table.names.push_back(names[k]);
      if (units.size() == width) {
        table.units.push_back(units[k]);
      } else {
        table.units.push_back(unit.empty() ? std::string() : unit.front());
      }
      std::vector<double>& column = table.columns.emplace_back(table.time.size());
      for (std::size_t row = 0; row < table.time.size(); ++row) column[row] = data[row * width + k];
    }
  }
  return table;
}

}  // namespace hopsim::viewer
