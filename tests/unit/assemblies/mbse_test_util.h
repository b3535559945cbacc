#pragma once
// Helpers of the MBSE reader tests: a mechanism's bodies, joints and points checked against
// hand-computed planar geometry and inertia.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "hopsim/assemblies/mbse_yaml.h"
#include "hopsim/assemblies/mechanism.h"
#include "hopsim/assemblies/yaml_input.h"

namespace hopsim::mbse_test {

inline bool has(const std::string& message, std::string_view part) {
  return message.find(part) != std::string::npos;
}

inline bool anyWarning(const mechanism::Mechanism& m, std::string_view part) {
  for (const auto& w : m.warnings)
    if (has(w, part)) return true;
  return false;
}

inline const mechanism::Body& body(const mechanism::Mechanism& m, std::string_view name) {
  for (const auto& b : m.bodies)
    if (b.name == name) return b;
  FAIL("no body ", name);
  return m.bodies.front();
}

inline const mechanism::Joint* joint(const mechanism::Mechanism& m, std::string_view name) {
  for (const auto& j : m.joints)
    if (j.name == name) return &j;
  return nullptr;
}

inline mechanism::Vector3 point(const mechanism::Mechanism& m, std::size_t i) {
  return m.outputPoints.at(i).point;
}

/// Checks a body's planar pose (origin p0, x toward p1), COM (a, b) and inertia (I_G).
inline void checkBody(const mechanism::Mechanism& m, std::string_view name,
                      mechanism::Vector3 origin, double theta, double mass, double a, double b,
                      double iG) {
  INFO("body ", name);
  const auto& B = body(m, name);
  CHECK_FALSE(B.fixed);
  CHECK((B.X_WR.translation() - origin).norm() < 1e-12);
  CHECK(B.X_WR.rotation()(0, 0) == doctest::Approx(std::cos(theta)).epsilon(1e-12));
  CHECK(B.X_WR.rotation()(1, 0) == doctest::Approx(std::sin(theta)).epsilon(1e-12));
  CHECK(B.X_WR.rotation()(2, 2) == doctest::Approx(1.0));
  CHECK(B.mass == doctest::Approx(mass));
  CHECK((B.X_RC.translation() - mechanism::Vector3(a, b, 0.0)).norm() < 1e-12);
  CHECK(B.X_RC.rotation().isIdentity());
  CHECK(B.inertia(2, 2) == doctest::Approx(iG).epsilon(1e-12));
  CHECK(B.inertia(0, 0) == doctest::Approx(iG / 2).epsilon(1e-12));
  CHECK(B.inertia(1, 1) == doctest::Approx(iG / 2).epsilon(1e-12));
  CHECK(B.inertia(0, 1) == 0.0);
}

inline void checkRevolute(const mechanism::Mechanism& m, std::string_view name,
                          std::string_view body1, std::string_view body2, mechanism::Vector3 at) {
  INFO("joint ", name);
  const auto* j = joint(m, name);
  REQUIRE(j != nullptr);
  CHECK(j->type == mechanism::JointType::Revolute);
  CHECK(j->body1 == body1);
  CHECK(j->body2 == body2);
  CHECK((j->X_WF.translation() - at).norm() < 1e-12);
  CHECK(j->X_WF.rotation().isIdentity());
}

/// Reads every .yaml file of `directory` as an MBSE mechanism: each is taken for one, ends with
/// the fixed `ground`, has libmbse's gravity and an output point for every point. Returns how
/// many it read.
inline std::size_t readEveryMechanism(const std::string& directory) {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    const auto document = loadYamlFile(entry.path().string());
    CHECK(mbse::looksLikeMbse(document));
    const mechanism::Mechanism m = mbse::readMechanismFile(entry.path().string());
    CHECK(m.bodies.back().name == "ground");
    CHECK(m.bodies.back().fixed);
    CHECK(m.defaultGravity == mechanism::Vector3(0.0, -9.81, 0.0));
    CHECK(m.outputPoints.size() == document.find("points")->items().size());
    ++count;
  }
  return count;
}

}  // namespace hopsim::mbse_test
