#include "hopsim/core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "hopsim/signals/error.h"

namespace hopsim {

namespace {

/// The system's reason, with what it usually means where strerror alone puzzles.
std::string reason(int error) {
  std::string text = std::strerror(error);
  if (error == EFBIG) text += " (the file size limit, ulimit -f)";
  if (error == EPIPE) text += " (the reader closed the pipe)";
  return text;
}

}  // namespace

OutputFile::OutputFile(int fd, std::string name, bool owned)
    : fd_(fd), name_(std::move(name)), owned_(owned) {
  struct stat info {};
  regular_ = ::fstat(fd_, &info) == 0 && S_ISREG(info.st_mode);
}

OutputFile OutputFile::create(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw InputError("cannot write '" + path + "': " + reason(errno));
  }
  return OutputFile(fd, "'" + path + "'", true);
}

OutputFile OutputFile::standardOutput() { return OutputFile(STDOUT_FILENO, "stdout", false); }

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      name_(std::move(other.name_)),
      owned_(other.owned_),
      regular_(other.regular_),
      size_(other.size_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    if (owned_ && fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    name_ = std::move(other.name_);
    owned_ = other.owned_;
    regular_ = other.regular_;
    size_ = other.size_;
  }
  return *this;
}

OutputFile::~OutputFile() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

void OutputFile::fail(int error, const char* what) const {
  throw InputError(std::string("cannot ") + what + " " + name_ + ": " + reason(error));
}

void OutputFile::write(std::string_view data) {
  if (fd_ < 0) throw InputError("cannot write " + name_ + ": it is closed");
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd_, data.data() + done, data.size() - done);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    const int error = errno;
    // Whole writes only: what this call wrote goes, and the next write starts where it did.
    if (regular_ && done > 0) {
      const auto kept = static_cast<off_t>(size_);
      if (::ftruncate(fd_, kept) != 0 || ::lseek(fd_, kept, SEEK_SET) != kept) regular_ = false;
    }
    fail(error, "write");
  }
  size_ += data.size();
}

void OutputFile::close() {
  if (fd_ < 0) return;
  const int fd = std::exchange(fd_, -1);
  if (owned_ && ::close(fd) != 0 && errno != EINTR) fail(errno, "close");
}

void OutputFile::replace(const std::string& path, std::string_view text) {
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw InputError("cannot write '" + path + "': " + reason(errno));
  try {
    OutputFile file(fd, "'" + path + "'", true);  // named as the file the caller asked for
    file.write(text);
    file.close();
    if (::rename(temporary.c_str(), path.c_str()) != 0) file.fail(errno, "write");
  } catch (const InputError&) {
    ::unlink(temporary.c_str());
    throw;
  }
}

}  // namespace hopsim
