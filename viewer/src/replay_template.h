#pragma once
// The replay page's template, generated at build time (viewer/web/build.mjs): the page with
// three.js and the viewer inlined, and one marker where the data goes.

#include <cstddef>
#include <string>

namespace hopsim::viewer {

/// The template in chunks (a compiler limits the length of one string literal).
extern const char* const kReplayTemplateChunks[];
extern const std::size_t kReplayTemplateChunkCount;

/// The whole template.
std::string replayTemplate();

}  // namespace hopsim::viewer
