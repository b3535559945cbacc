#pragma once
// Helpers of the Chrono MBS YAML reader tests.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/assemblies/yaml_input.h"
#include "hopsim/signals/error.h"

namespace hopsim::chrono_test {

/// 11 lines: a fixed body "ground" and a body "b"; sections follow at two spaces.
inline constexpr const char* kHead = R"(chrono-version: 10.0
model:
  bodies:
    - name: ground
      location: [0, 0, 0]
      fixed: true
    - name: b
      location: [0, 0, 0]
      mass: 2
      inertia:
        moments: [1, 2, 3]
)";

inline mechanism::Mechanism readInline(const std::string& yaml,
                                       const std::string& file = "m.yaml") {
  return chrono::readModel(parseYaml(yaml, file), file);
}

/// The message of the InputError that reading `yaml` throws ("" when none).
inline std::string readError(const std::string& yaml) {
  try {
    readInline(yaml);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

inline int countHas(const std::vector<std::string>& lines, const std::string& part) {
  int n = 0;
  for (const auto& line : lines) n += has(line, part) ? 1 : 0;
  return n;
}

/// The body `name` of `m` (fails the test when there is none).
inline const mechanism::Body& body(const mechanism::Mechanism& m, const std::string& name) {
  for (const auto& b : m.bodies)
    if (b.name == name) return b;
  FAIL("no body " << name);
  return m.bodies.front();
}

}  // namespace hopsim::chrono_test
