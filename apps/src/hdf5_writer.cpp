// HDF5 output of `hopsim run --out F.h5`, with the HDF5 C API.

#include "hdf5_writer.h"

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
#include "hopsim/signals/error.h"

#ifndef HOPSIM_VERSION
#define HOPSIM_VERSION ""
#endif

namespace hopsim::apps {

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

/// Writes one file; every failure throws an InputError naming it.
class Writer {
 public:
  explicit Writer(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("cannot write '" + file_ + "': " + what);
  }

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

 private:
  std::string file_;
};

/// The dataset of variable `path`: "signals.stop_torque" -> "/signals/stop_torque".
std::string datasetName(const std::string& path) {
  std::string name = "/" + path;
  std::replace(name.begin(), name.end(), '.', '/');
  return name;
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
               const std::string& scenarioFile) {
  const QuietErrors quiet;
  const Writer w(file);
  const Handle h5 = w.check(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                            H5Fclose, "cannot create the file");
  const Handle root = w.check(H5Gopen2(h5.get(), "/", H5P_DEFAULT), H5Gclose, "root group");
  w.attribute(root.get(), "hopsim_version", std::string(HOPSIM_VERSION));
  w.attribute(root.get(), "scenario", std::filesystem::path(scenarioFile).filename().string());

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

}  // namespace hopsim::apps
