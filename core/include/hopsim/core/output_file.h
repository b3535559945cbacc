#pragma once
/// @file
/// OutputFile: a file written with every write checked, for what hopsim writes (recordings,
/// their sidecars, replay pages).
#include <cstdint>
#include <string>
#include <string_view>

namespace hopsim {

/// A file (or the standard output) written with POSIX write(2), every write checked.
///
/// A failed write (a full disk, a file size limit, a reader that closed its pipe, an I/O error)
/// throws an InputError naming the file and the system's reason ("cannot write 'run.csv': No
/// space left on device"). A regular file is then cut back to the size it had before that
/// write, so it holds whole writes only: a caller that writes whole CSV rows at a time never
/// leaves half a row behind, and may write again once the cause is gone.
///
/// A size limit (`ulimit -f`) and a closed pipe reach the process as SIGXFSZ and SIGPIPE
/// first, which kill it unless they are ignored: a program that wants the error ignores them
/// (hopsim run does; Python does by default).
class OutputFile {
 public:
  /// Creates `path`, or truncates it. @throws InputError naming it when it cannot be opened.
  static OutputFile create(const std::string& path);
  /// The process's standard output (not closed by close()), named "stdout" in messages.
  static OutputFile standardOutput();
  /// Writes `text` to `path` through a temporary file beside it and a rename: a reader, and
  /// the file after the process is killed, sees the old content or the new one, whole.
  /// @throws InputError naming `path`; the old file is then left as it was.
  static void replace(const std::string& path, std::string_view text);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Closes a file still open, unchecked: call close() to learn whether closing failed.
  ~OutputFile();

  /// Writes all of `data`. @throws InputError naming the file; a regular file is left as it
  /// was before the call.
  void write(std::string_view data);
  /// Closes the file. @throws InputError when the system reports a failed write at close.
  void close();

  /// "'run.csv'", or "stdout": the file as messages name it.
  const std::string& name() const { return name_; }
  /// Bytes written so far.
  std::uint64_t size() const { return size_; }

 private:
  OutputFile(int fd, std::string name, bool owned);
  [[noreturn]] void fail(int error, const char* what) const;

  int fd_ = -1;
  std::string name_;
  bool owned_ = false;    // close the descriptor (not stdout's)
  bool regular_ = false;  // a regular file, which a failed write is cut back on
  std::uint64_t size_ = 0;
};

}  // namespace hopsim
