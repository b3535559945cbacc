#pragma once
/// @file
/// Reading an input file whole: a regular file of bounded size, or an error naming it. Every
/// reader of a file a user names (scenarios and their includes, Chrono and MBSE files,
/// checkpoints, meshes) goes through here, so that a wrong path fails at once and the same way.

#include <cstddef>
#include <string>

namespace hopsim {

/// The most bytes readInputFile reads by default: 64 MiB, hundreds of times the largest real
/// input, and little enough that a wrong path (a disk image, a log) fails at once instead of
/// filling memory.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{64} << 20;

/// The contents of the regular file at `path`.
/// @throws InputError "cannot read 'PATH': ..." naming the reason: the system's when it cannot
/// be opened or read; "not a regular file (a directory)" for a directory, a FIFO, a device (such
/// as /dev/zero) or a socket, refused before anything is read, so that reading neither blocks
/// nor goes on forever; its size and the limit when it holds more than `maxBytes`.
std::string readInputFile(const std::string& path, std::size_t maxBytes = kMaxInputFileBytes);

/// Refuses what readInputFile refuses before reading (a path that does not open, a file that is
/// not regular), for a reader that streams a file of any size itself (a recording).
/// @throws InputError as readInputFile does.
void requireRegularFile(const std::string& path);

}  // namespace hopsim
