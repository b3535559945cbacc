#pragma once
// Private to core/src: glob patterns over dotted variable paths, shared by the recorder and
// linearization.

#include <string_view>

namespace hopsim {

/// Glob match on dotted paths: `*` within one segment, `**` across segments.
bool globMatch(std::string_view pattern, std::string_view path);

}  // namespace hopsim
