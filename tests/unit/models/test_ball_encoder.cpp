// BallEncoder against rotations built by hand: for each of the 12 intrinsic sequences, a BALL
// set to R_FM = R_a1(angle1) R_a2(angle2) R_a3(angle3) reads those angles back; the quaternion
// output is the hinge's; quantization and the refusal of non-quaternion hinges.

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Vector3;
using test::pointMass;

/// A body "ball" on `hinge` (no gravity, at rest) with BallEncoder "enc" and its signals.
void build(Simulation& sim, const Hinge& hinge, std::vector<std::pair<std::string, Value>> params) {
  sim.multibody().editModel().addBody("ball", kWorldBody, pointMass(1.0, Vector3::Zero()), hinge);
  sim.addSignal("rotation", ElementType::Double, 4);
  sim.addSignal("a1", ElementType::Double, 1, "rad");
  sim.addSignal("a2", ElementType::Double, 1, "rad");
  sim.addSignal("a3", ElementType::Double, 1, "rad");
  sim.addSignal("counts", ElementType::Int, 3);
  sim.addModel(models::standardRegistry().create("BallEncoder", "enc", std::move(params)));
  dynamic_cast<HingeModel&>(sim.model("enc")).attachToHinge("ball");
  sim.tie("enc", "rotation", "rotation");
  sim.tie("enc", "angle1", "a1");
  sim.tie("enc", "angle2", "a2");
  sim.tie("enc", "angle3", "a3");
  sim.tie("enc", "counts", "counts");
}

int axisOf(char c) { return c - 'X'; }

std::vector<double> toVector(const spatial::Quaternion& q) { return {q[0], q[1], q[2], q[3]}; }

}  // namespace

TEST_CASE("BallEncoder: each of the 12 sequences reads back the angles of R_a1 R_a2 R_a3") {
  Simulation sim({.ioStepSize = 0.01});
  build(sim, Hinge::ball(), {});
  sim.lock();
  const std::array<const char*, 12> sequences = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX",
                                                 "XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ"};
  for (const char* name : sequences) {
    CAPTURE(std::string(name));
    const bool proper = name[0] == name[2];
    // angle2 inside the unique range: (-pi/2, pi/2) for Tait-Bryan, (0, pi) for proper Euler.
    const Vector3 angles(0.7, proper ? 1.1 : -0.4, -2.3);
    const spatial::Matrix3 R = spatial::rotationAboutAxis(axisOf(name[0]), angles[0]) *
                               spatial::rotationAboutAxis(axisOf(name[1]), angles[1]) *
                               spatial::rotationAboutAxis(axisOf(name[2]), angles[2]);
    const spatial::Quaternion q = spatial::quaternionFromRotation(R);
    sim.set("models.enc.params.EulerSequence", std::string(name));
    sim.set("multibody.bodies.ball.Q", toVector(q));
    sim.advanceOverHop();
    CHECK(std::get<double>(sim.get("signals.a1")) == doctest::Approx(angles[0]).epsilon(1e-12));
    CHECK(std::get<double>(sim.get("signals.a2")) == doctest::Approx(angles[1]).epsilon(1e-12));
    CHECK(std::get<double>(sim.get("signals.a3")) == doctest::Approx(angles[2]).epsilon(1e-12));
    const auto rotation = std::get<std::vector<double>>(sim.get("signals.rotation"));
    for (int i = 0; i < 4; ++i) CHECK(rotation[i] == doctest::Approx(q[i]).epsilon(1e-14));
  }
}

TEST_CASE("BallEncoder: default ZYX is yaw, pitch, roll, angles quantized to floor(angle / lsb)") {
  const double lsb = 0.01;
  Simulation sim({.ioStepSize = 0.01});
  build(sim, Hinge::ball(), {{"angle_lsb", lsb}});
  const double yaw = 0.523, pitch = -0.2468, roll = 1.2345;
  const spatial::Matrix3 R =
      spatial::rotationZ(yaw) * spatial::rotationY(pitch) * spatial::rotationX(roll);
  sim.multibody().q() = Eigen::Vector4d(spatial::quaternionFromRotation(R));
  sim.lock();
  sim.advanceOverHop();
  CHECK(std::get<std::vector<std::int64_t>>(sim.get("signals.counts")) ==
        std::vector<std::int64_t>{52, -25, 123});  // floor rounds -24.68 down to -25
  CHECK(std::get<double>(sim.get("signals.a1")) == 52 * lsb);
  CHECK(std::get<double>(sim.get("signals.a2")) == -25 * lsb);
}

TEST_CASE("BallEncoder: the rotation is sampled at the model's rate and held") {
  // Spinning about z at 2 rad/s, sampled at 10 Hz: the output quaternion is that of the
  // rotation 2 t_k about z, t_k the last sample time.
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  build(sim, Hinge::ball(), {});
  sim.multibody().u() << 0.0, 0.0, 2.0;
  sim.setModelRate("enc", 10.0);
  sim.lock();
  for (int k = 1; k <= 50; ++k) {
    sim.advanceOverHop();
    const double tk = 0.1 * std::floor((sim.time() - 1e-9) * 10.0);
    CAPTURE(sim.time());
    REQUIRE(std::get<double>(sim.get("signals.a1")) == doctest::Approx(2.0 * tk).epsilon(1e-9));
    const auto rotation = std::get<std::vector<double>>(sim.get("signals.rotation"));
    REQUIRE(rotation[0] == doctest::Approx(std::cos(tk)).epsilon(1e-9));
    REQUIRE(rotation[3] == doctest::Approx(std::sin(tk)).epsilon(1e-9));
  }
}

TEST_CASE("BallEncoder: a PIN is refused at lock(), an unknown sequence at the first hop") {
  Simulation pin;
  build(pin, Hinge::pin(Vector3::UnitX()), {});
  CHECK_THROWS_WITH_AS(pin.lock(), doctest::Contains("expected a BALL"), ModelError);
  Simulation sim;
  build(sim, Hinge::ball(), {{"EulerSequence", std::string("XYY")}});
  sim.lock();
  CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                       doctest::Contains("models.enc.params.EulerSequence: Euler sequence \"XYY\""),
                       InputError);
}

}  // namespace hopsim
