#include "hopsim/signals/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <system_error>

#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw InputError("cannot read '" + path + "': " + reason);
}

[[noreturn]] void failWithErrno(const std::string& path, int error) {
  fail(path, std::generic_category().message(error));
}

/// "a directory", "a FIFO", ... for a file that is not regular.
const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

void requireRegular(const std::string& path, mode_t mode) {
  if (!S_ISREG(mode)) fail(path, std::string("not a regular file (") + kindOf(mode) + ")");
}

/// "70000000 bytes (66.8 MiB)".
std::string sizeText(std::size_t bytes) {
  char mebibytes[32];
  std::snprintf(mebibytes, sizeof mebibytes, "%.1f", static_cast<double>(bytes) / (1 << 20));
  return std::to_string(bytes) + " bytes (" + mebibytes + " MiB)";
}

/// `size` is the file's size, or "" when it grew past the limit while being read.
[[noreturn]] void failTooLarge(const std::string& path, const std::string& size,
                               std::size_t limit) {
  fail(path, "the file holds " + (size.empty() ? std::string() : size + ", ") + "more than the " +
                 "limit of " + sizeText(limit) + " for an input file");
}

/// Closes a file descriptor when it goes.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { ::close(fd_); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

void requireRegularFile(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) failWithErrno(path, errno);
  requireRegular(path, info.st_mode);
}

std::string readInputFile(const std::string& path, std::size_t maxBytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before its type is known. A regular
  // file ignores it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    // A socket does not open at all (ENXIO): say what it is rather than the system's reason.
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0) requireRegular(path, info.st_mode);
    failWithErrno(path, error);
  }
  const Descriptor file(fd);
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) failWithErrno(path, errno);
  requireRegular(path, info.st_mode);
  const auto size = static_cast<std::size_t>(info.st_size);
  if (size > maxBytes) failTooLarge(path, sizeText(size), maxBytes);
  // The size is a hint: the file may grow while it is read (and a file of /proc says 0), so
  // reading goes on to the end, or past the limit.
  std::string text;
  text.reserve(size);
  char chunk[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.get(), chunk, sizeof chunk);
    if (got < 0) {
      if (errno == EINTR) continue;
      failWithErrno(path, errno);
    }
    if (got == 0) break;
    if (text.size() + static_cast<std::size_t>(got) > maxBytes) {
      failTooLarge(path, "", maxBytes);
    }
    text.append(chunk, static_cast<std::size_t>(got));
  }
  return text;
}

}  // namespace hopsim
