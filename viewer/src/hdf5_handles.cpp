#include "hdf5_handles.h"

namespace hopsim::viewer::hdf5 {

namespace {

/// Keeps the description of the innermost error (the walk's first entry).
herr_t innermost(unsigned n, const H5E_error2_t* error, void* reason) {
  if (n == 0 && error->desc != nullptr) *static_cast<std::string*>(reason) = error->desc;
  return 0;
}

}  // namespace

std::string lastErrorReason() {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost, &reason);
  // A failed system call reads "file write failed: time = ..., errno = 28, error message =
  // 'No space left on device', ...": its message is what a user can act on.
  const std::string quoted = "error message = '";
  if (const std::size_t start = reason.find(quoted); start != std::string::npos) {
    const std::size_t from = start + quoted.size();
    return reason.substr(from, reason.find('\'', from) - from);
  }
  return reason;
}

}  // namespace hopsim::viewer::hdf5
