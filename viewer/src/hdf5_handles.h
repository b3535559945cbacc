#pragma once
// The HDF5 C API with owned identifiers and errors as InputErrors, for writing and reading
// recordings (hdf5_sink.cpp, hdf5_recording.cpp).

#include <hdf5.h>

#include <string>
#include <utility>

#include "hopsim/signals/error.h"

namespace hopsim::viewer::hdf5 {

/// An HDF5 identifier that closes itself with `close` (H5Fclose, H5Dclose, ...).
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() { reset(); }
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), close_(other.close_) {}
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      reset();
      id_ = std::exchange(other.id_, -1);
      close_ = other.close_;
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  /// Forgets the identifier without closing it (closed by other means).
  void release() { id_ = -1; }
  /// Closes the identifier now; returns what the close returned (0 when there was none).
  herr_t reset() {
    const hid_t id = std::exchange(id_, -1);
    return id >= 0 ? close_(id) : 0;
  }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
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

/// Why the last HDF5 call failed, from the innermost entry of the error stack: the system's
/// message when the library quotes one ("No space left on device"), else the library's;
/// "" when the stack is empty.
std::string lastErrorReason();

/// One file: every failure throws an InputError that starts with `prefix` (naming the file).
class File {
 public:
  explicit File(std::string prefix) : prefix_(std::move(prefix)) {}

  /// @throws InputError "<prefix><what>", followed by ": <reason>" when HDF5 gives one.
  [[noreturn]] void fail(const std::string& what) const {
    const std::string reason = lastErrorReason();
    throw InputError(prefix_ + what + (reason.empty() ? "" : ": " + reason));
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

 private:
  std::string prefix_;
};

}  // namespace hopsim::viewer::hdf5
