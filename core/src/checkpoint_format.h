#pragma once
// Private to core/src: what the writing and the reading side of the checkpoint format share
// (docs/checkpoints.md, "The format").

#include <ostream>
#include <string>
#include <string_view>

#include "hopsim/signals/buffer.h"

namespace hopsim::checkpoint {

inline constexpr std::string_view kMagic = "hopsim-checkpoint";
/// The format written. Readers of an older format read its files with the documented defaults
/// for the lines added since; a newer format is refused.
inline constexpr int kFormatVersion = 8;
// Version 4 lacks the continuation line; it is read as "no step to continue with". Versions 4
// and 5 lack the nonlinear_solver line; they are read as Newton's method, the only one then.
// Versions 4 to 6 lack the continue_across_hops line; they are read as 0, the only mode then.
// Versions 4 to 7 lack the written_by line; the writer is then unknown.
inline constexpr int kOldestReadableVersion = 4;

/// `text` in double quotes, with backslash, double quote, line feed and carriage return escaped
/// (\\, \", \n, \r), so that any string stays on its line and reads back the same.
std::string quoted(std::string_view text);

/// Writes the elements of a buffer: "<count> v0 v1 ..." (doubles as the stream formats them,
/// std::hexfloat in a checkpoint; bools as 0/1; a string quoted).
void writeValues(std::ostream& out, const Buffer& buffer);

}  // namespace hopsim::checkpoint
