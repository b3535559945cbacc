#pragma once
// Text files as lines, for tests that read a file, change some lines and write it back
// (checkpoints).

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace hopsim::testing {

/// The whole content of `file` ("" if it cannot be read).
inline std::string readText(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The lines of `text`, without their line feeds.
inline std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// `lines`, each ended by a line feed.
inline std::string joinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

}  // namespace hopsim::testing
