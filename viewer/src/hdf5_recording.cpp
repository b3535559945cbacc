// HDF5 recordings with the HDF5 C API: `hopsim run --out F.h5` writes them, the viewer reads
// them back.

#include "hopsim/viewer/hdf5_recording.h"

#include <hdf5.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/core/recorder.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/version.h"
#include "hopsim/signals/error.h"

namespace hopsim::viewer {

namespace {

/// An HDF5 identifier that closes itself with `close` (H5Fclose, H5Dclose, ...).
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle& operator=(Handle&&) = delete;
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

/// Silences HDF5's error stack printing on stderr while it lives (errors become InputErrors).
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &function_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, function_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t function_ = nullptr;
  void* data_ = nullptr;
};

/// One file: every failure throws an InputError that starts with `prefix` (naming the file).
class File {
 public:
  explicit File(std::string prefix) : prefix_(std::move(prefix)) {}

  [[noreturn]] void fail(const std::string& what) const { throw InputError(prefix_ + what); }

  Handle check(hid_t id, herr_t (*close)(hid_t), const std::string& what) const {
    if (id < 0) fail(what);
    return Handle(id, close);
  }

  void check(herr_t status, const std::string& what) const {
    if (status < 0) fail(what);
  }

  /// A variable-length UTF-8 string type.
  Handle stringType() const {
    Handle type = check(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
    check(H5Tset_size(type.get(), H5T_VARIABLE), "string type");
    check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string type");
    return type;
  }

 private:
  std::string prefix_;
};

/// Writes one file.
class Writer : public File {
 public:
  explicit Writer(const std::string& file) : File("cannot write '" + file + "': ") {}

  /// Attribute `name` = `value` (a scalar string) on `object`.
  void attribute(hid_t object, const char* name, const std::string& value) const {
    const Handle type = stringType();
    const Handle space = check(H5Screate(H5S_SCALAR), H5Sclose, "dataspace");
    const Handle attr =
        check(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              std::string("attribute ") + name);
    const char* text = value.c_str();
    check(H5Awrite(attr.get(), type.get(), &text), std::string("attribute ") + name);
  }

  /// Attribute `name` = `values` (a 1-D string array) on `object`.
  void attribute(hid_t object, const char* name, const std::vector<std::string>& values) const {
    const Handle type = stringType();
    const hsize_t size = values.size();
    const Handle space = check(H5Screate_simple(1, &size, nullptr), H5Sclose, "dataspace");
    const Handle attr =
        check(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              std::string("attribute ") + name);
    std::vector<const char*> texts;
    for (const std::string& value : values) texts.push_back(value.c_str());
    check(H5Awrite(attr.get(), type.get(), texts.data()), std::string("attribute ") + name);
  }

  /// Attribute `name` = `values` (a 1-D int64 array) on `object`.
  void attribute(hid_t object, const char* name, const std::vector<std::int64_t>& values) const {
    const hsize_t size = values.size();
    const Handle space = check(H5Screate_simple(1, &size, nullptr), H5Sclose, "dataspace");
    const Handle attr =
        check(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose, std::string("attribute ") + name);
    check(H5Awrite(attr.get(), H5T_NATIVE_INT64, values.data()), std::string("attribute ") + name);
  }

  /// A float64 dataset `name` (groups created on the way) of `dims` holding `data` (row-major).
  Handle dataset(hid_t file, const std::string& name, const std::vector<hsize_t>& dims,
                 const std::vector<double>& data) const {
    const Handle space =
        check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
              "dataspace of " + name);
    const Handle links = check(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "property list");
    check(H5Pset_create_intermediate_group(links.get(), 1), "property list");
    Handle set = check(H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space.get(), links.get(),
                                  H5P_DEFAULT, H5P_DEFAULT),
                       H5Dclose, "dataset " + name);
    if (!data.empty()) {
      check(H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
            "dataset " + name);
    }
    return set;
  }
};

/// The dataset of variable `path`: "signals.stop_torque" -> "/signals/stop_torque".
std::string datasetName(const std::string& path) {
  std::string name = "/" + path;
  std::replace(name.begin(), name.end(), '.', '/');
  return name;
}

/// Reads one file.
class FileReader : public File {
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

void writeHdf5(const std::string& file, const Simulation& sim, const Recorder& recorder,
               const std::string& scenarioFile, const std::string& sceneJson) {
  const QuietErrors quiet;
  const Writer w(file);
  const Handle h5 = w.check(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                            H5Fclose, "cannot create the file");
  const Handle root = w.check(H5Gopen2(h5.get(), "/", H5P_DEFAULT), H5Gclose, "root group");
  w.attribute(root.get(), "hopsim_version", std::string(version()));
  w.attribute(root.get(), "hopsim_git_commit", std::string(gitCommit()));
  w.attribute(root.get(), "scenario", std::filesystem::path(scenarioFile).filename().string());
  if (!sceneJson.empty()) w.attribute(root.get(), "viewer_scene", sceneJson);

  const std::size_t rows = recorder.rows();
  {
    const Handle time = w.dataset(h5.get(), "/time", {rows}, recorder.times());
    w.attribute(time.get(), "unit", std::string("s"));
    w.attribute(time.get(), "description", std::string("simulation time of the sample"));
  }

  // The variable columns grouped by the variable they read, in the order each first appears.
  const std::vector<std::string>& columns = recorder.columns();
  std::vector<std::string> paths;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t c = 1; c < columns.size(); ++c) {
    const std::string& path = recorder.path(c);
    const auto found = std::find(paths.begin(), paths.end(), path);
    if (found == paths.end()) {
      paths.push_back(path);
      groups.push_back({c});
    } else {
      groups[static_cast<std::size_t>(found - paths.begin())].push_back(c);
    }
  }

  std::vector<double> data;
  for (std::size_t g = 0; g < paths.size(); ++g) {
    const std::vector<std::size_t>& group = groups[g];
    const Variable& variable = sim.variables().at(paths[g]);
    const bool vector = variable.length() > 1;
    const std::size_t width = group.size();
    data.assign(rows * width, 0.0);
    for (std::size_t k = 0; k < width; ++k) {
      const std::vector<double>& values = recorder.values(group[k]);
      for (std::size_t r = 0; r < rows; ++r) data[r * width + k] = values[r];
    }
    std::vector<hsize_t> dims{rows};
    if (vector) dims.push_back(width);
    const Handle set = w.dataset(h5.get(), datasetName(paths[g]), dims, data);
    w.attribute(set.get(), "unit", recorder.units()[group[0]]);
    w.attribute(set.get(), "description", variable.description());
    w.attribute(set.get(), "path", paths[g]);
    std::vector<std::string> names;
    std::vector<std::int64_t> elements;
    for (const std::size_t c : group) {
      names.push_back(columns[c]);
      elements.push_back(static_cast<std::int64_t>(recorder.element(c)));
    }
    w.attribute(set.get(), "columns", names);
    w.attribute(set.get(), "elements", elements);
  }
  w.check(H5Fflush(h5.get(), H5F_SCOPE_LOCAL), "flush");
}

RecordingTable readHdf5Recording(const std::string& path, std::string& sceneJson) {
  const QuietErrors quiet;
  const FileReader r(path);
  const Handle h5 = r.check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                            "not an HDF5 file, or it cannot be opened");
  const Handle root = r.check(H5Gopen2(h5.get(), "/", H5P_DEFAULT), H5Gclose, "root group");
  const std::vector<std::string> scene = r.strings(root.get(), "viewer_scene");
  sceneJson = scene.empty() ? std::string() : scene.front();

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
    const std::vector<double> data = r.values(object.get(), dims);
    const std::size_t width = dims.size() == 2 ? dims[1] : 1;
    if (dims[0] != table.time.size() || names.size() != width) {
      r.fail("dataset /" + link + " has " + std::to_string(dims[0]) + " rows and " +
             std::to_string(names.size()) + " column names for " + std::to_string(width) +
             " columns; expected " + std::to_string(table.time.size()) + " rows (/time's)");
    }
    for (std::size_t k = 0; k < width; ++k) {
      table.names.push_back(names[k]);
      table.units.push_back(unit.empty() ? std::string() : unit.front());
      std::vector<double>& column = table.columns.emplace_back(table.time.size());
      for (std::size_t row = 0; row < table.time.size(); ++row) column[row] = data[row * width + k];
    }
  }
  return table;
}

}  // namespace hopsim::viewer
