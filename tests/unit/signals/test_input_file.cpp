// readInputFile: a regular file of bounded size read whole, or an error naming the path.

#include <doctest/doctest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "hopsim/signals/error.h"
#include "hopsim/signals/input_file.h"
#include "temp_dir.h"

namespace hopsim {

using testing::TempDir;

TEST_CASE("input file: a regular file is read whole, every byte as written") {
  const TempDir dir;
  const std::string bytes("a: 1\n\0\xff\xfe tail", 14);
  const std::string path = dir.write("f.yaml", bytes);
  CHECK(readInputFile(path) == bytes);
  CHECK(readInputFile(dir.write("empty.yaml", "")).empty());
  // A symbolic link is followed to the file it names.
  std::filesystem::create_symlink(path, dir.path() + "/link.yaml");
  CHECK(readInputFile(dir.path() + "/link.yaml") == bytes);
  requireRegularFile(path);
}

TEST_CASE("input file: a path that does not open names the path and the system's reason") {
  const TempDir dir;
  const std::string missing = dir.path() + "/missing.yaml";
  CHECK_THROWS_WITH_AS(readInputFile(missing),
                       ("cannot read '" + missing + "': No such file or directory").c_str(),
                       InputError);
  CHECK_THROWS_WITH_AS(requireRegularFile(missing),
                       ("cannot read '" + missing + "': No such file or directory").c_str(),
                       InputError);
}

TEST_CASE("input file: a directory, a FIFO, a device and a socket are refused before reading") {
  const TempDir dir;
  const auto refused = [](const std::string& path, const std::string& kind) {
    const std::string message = "cannot read '" + path + "': not a regular file (" + kind + ")";
    CHECK_THROWS_WITH_AS(readInputFile(path), message.c_str(), InputError);
    CHECK_THROWS_WITH_AS(requireRegularFile(path), message.c_str(), InputError);
  };
  refused(dir.path(), "a directory");
  // Reading /dev/zero would never end, and opening a FIFO without O_NONBLOCK would wait for a
  // writer forever: both must fail at once.
  refused("/dev/zero", "a character device");
  const std::string fifo = dir.path() + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  refused(fifo, "a FIFO");
  const std::string socketPath = dir.path() + "/socket";
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(s >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(socketPath.size() < sizeof address.sun_path);
  socketPath.copy(address.sun_path, socketPath.size());
  REQUIRE(::bind(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  refused(socketPath, "a socket");
  ::close(s);
}

TEST_CASE("input file: a file over the limit names its size and the limit") {
  const TempDir dir;
  const std::string path = dir.write("big.yaml", std::string(100, 'x'));
  CHECK(readInputFile(path, 100).size() == 100);
  CHECK_THROWS_WITH_AS(readInputFile(path, 99),
                       ("cannot read '" + path +
                        "': the file holds 100 bytes (0.0 MiB), more than the limit of 99 bytes "
                        "(0.0 MiB) for an input file")
                           .c_str(),
                       InputError);
  // The default limit, on a sparse file: refused from its size, before a byte is read.
  std::filesystem::resize_file(path, kMaxInputFileBytes + 1);
  CHECK_THROWS_WITH_AS(readInputFile(path),
                       ("cannot read '" + path +
                        "': the file holds 67108865 bytes (64.0 MiB), more than the limit of "
                        "67108864 bytes (64.0 MiB) for an input file")
                           .c_str(),
                       InputError);
}

TEST_CASE("input file: a file whose size says nothing is still read to its end and limited") {
  // Files of /proc report a size of 0; their contents come from reading.
  const std::string status = readInputFile("/proc/self/status");
  CHECK(status.find("Name:") != std::string::npos);
  CHECK_THROWS_WITH_AS(readInputFile("/proc/self/status", 8),
                       "cannot read '/proc/self/status': the file holds more than the limit of 8 "
                       "bytes (0.0 MiB) for an input file",
                       InputError);
}

}  // namespace hopsim
