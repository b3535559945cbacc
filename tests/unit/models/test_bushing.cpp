// Bushing against Chrono's bushing law (reference/chrono-yaml-semantics.md A7): W = K s + D ṡ
// with s and ṡ of marker A (body1) relative to marker B (body2) in B's axes, +W on body2 at B
// and -W on body1 at A.

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "small_body.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::Vector3;
using spatial::Vector6;
using test::pointMass;

/// A constant force and couple at its node, in world axes: the known load.
class Load final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Load", ModelKind::Actuator, "constant force and couple in W") {}
    ParamKey<Eigen::VectorXd> wrench = param<Eigen::VectorXd>("wrench").length(6).defaultValue(0.0);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Load(std::string name) : ActuatorModel(std::move(name), declaration()) {}
  void preDeriv(double) override {
    applyForce(param(d_.wrench).head<3>(), param(d_.wrench).tail<3>(), ForceFrame::World);
  }

 private:
  const Declaration& d_ = declaration();
};

const std::vector<double> kStiffness{100, 200, 300, 10, 20, 30};

/// A free body (FULL6DOF_INERTIAL: U = [ω; v] in W) of mass 1 kg and inertia J·1 about its
/// origin, marker A on it and marker B on the world, both at the joint frame X_WF; the bushing
/// "bush" (outputs on s and W) and a Load on A.
void build(Simulation& sim, const RigidTransform& X_WF, const std::vector<double>& damping,
           double J) {
  auto& tree = sim.multibody().editModel();
  const auto body = tree.addBody(
      "body", kWorldBody,
      spatial::SpatialInertia::fromCmInertia(1.0, Vector3::Zero(), J * Matrix3::Identity()),
      Hinge::full6DofInertial());
  tree.addNode("A", body, X_WF);  // the body frame starts at the world frame
  tree.addNode("B", kWorldBody, X_WF);
  sim.addModel(models::standardRegistry().create("Bushing", "bush",
                                                 {{"node1", std::string("A")},
                                                  {"node2", std::string("B")},
                                                  {"stiffness", kStiffness},
                                                  {"damping", damping}}));
  sim.addSignal("s", ElementType::Double, 6);
  sim.addSignal("W", ElementType::Double, 6);
  sim.tie("bush", "deflection", "s");
  sim.tie("bush", "wrench", "W");
  sim.addModel<Load>("load").attachToNode("A");
}

Vector6 vector6(const Simulation& sim, const char* name) {
  const auto v = std::get<std::vector<double>>(sim.get(std::string("signals.") + name));
  return Vector6::Map(v.data());
}

}  // namespace

TEST_CASE("Bushing: the static deflection under a load is F/K in each of the six directions") {
  // Damped critically in each direction alone (D = 2 sqrt(K m) or 2 sqrt(K J), m = 1 kg,
  // J = 0.1 kg m²); A's offset from the centre of mass couples the directions, which slows the
  // slowest mode: the residual is 1e-8 of the deflection at 5 s and below 1e-9 from 9 s, so
  // 12 s leaves margin for the tolerance 1e-9 relative. The joint frame is turned, so the
  // deflection is along the frame's axes: s = K⁻¹ R_WFᵀ w for a world load w.
  const Matrix3 R_WF = spatial::rotationZ(0.3) * spatial::rotationX(0.2);
  const RigidTransform X_WF(R_WF, Vector3(0.1, -0.2, 0.3));
  std::vector<double> damping;
  for (int i = 0; i < 6; ++i)
    damping.push_back(2.0 * std::sqrt(kStiffness[i] * (i < 3 ? 1.0 : 0.1)));
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    // rk4 steps of 5 ms (h ω <= 0.1), ten per hop: the equilibrium does not depend on the step.
    Simulation sim({.ioStepSize = 5e-2, .integrationSteps = 10, .integrator = "rk4"});
    build(sim, X_WF, damping, 0.1);
    // Loads of 2 N or 0.05 N m along the frame's axis i, in world axes.
    Vector6 load = Vector6::Zero();
    const Vector3 along = R_WF.col(i % 3) * (i < 3 ? 2.0 : 0.05);
    (i < 3 ? load.head<3>() : load.tail<3>()) = along;
    sim.set("models.load.params.wrench", std::vector<double>(load.data(), load.data() + 6));
    sim.lock();
    sim.advanceTimeTo(12.0);
    Vector6 expected = Vector6::Zero();
    expected[i] = (i < 3 ? 2.0 : 0.05) / kStiffness[i];
    const Vector6 s = vector6(sim, "s");
    CAPTURE(s.transpose());
    CHECK((s - expected).cwiseAbs().maxCoeff() < 1e-9 * expected.cwiseAbs().maxCoeff());
    // The body frame moved by R_WF s (translation; A's origin is offset, but the rotation is
    // zero for i < 3) or turned by the angle s[i] about R_WF's axis (i >= 3).
    const auto q = sim.multibody().q();
    if (i < 3) {
      CHECK((Vector3(q[4], q[5], q[6]) - R_WF.col(i) * expected[i]).norm() < 1e-9 * expected[i]);
    } else {
      const Vector3 phi = spatial::rotationVectorFromQuaternion(q.head<4>());
      CHECK((phi - R_WF.col(i - 3) * expected[i]).norm() < 1e-9 * expected[i]);
    }
    // The wrench on body2 balances the load: W = K s.
    CHECK(vector6(sim, "W")[i] == doctest::Approx(kStiffness[i] * expected[i]).epsilon(1e-9));
  }
}

TEST_CASE("Bushing damping: W = D ṡ at zero deflection, on body1 as -W") {
  // One explicit-Euler evaluation at rest deflection with one rate set: U̇ = -D_i ṡ_i / m (or
  // / J). The joint frame is the world's, so U (in W) is ṡ; exact to rounding (1e-12).
  const std::vector<double> damping{3, 4, 5, 0.01, 0.02, 0.03};
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
    build(sim, RigidTransform(), damping, 1e-3);
    // U = [ω; v]; direction i of the bushing (x, y, z, rx, ry, rz) is U entry (i + 3) % 6.
    const int k = (i + 3) % 6;
    sim.multibody().u()[k] = 0.7;
    sim.lock();
    sim.advanceOverHop();
    const double inertia = i < 3 ? 1.0 : 1e-3;
    CHECK(sim.multibody().udot()[k] == doctest::Approx(-damping[i] * 0.7 / inertia).epsilon(1e-12));
    for (int j = 0; j < 6; ++j) {
      if (j != k) CHECK(std::fabs(sim.multibody().udot()[j]) < 1e-12);
    }
  }
}

/// The accelerations of two point masses (1 kg carrying A, 2 kg carrying B) on `hinge` each,
/// their markers at the hinge origins, joined by a bushing, after one hop from coordinates
/// (q1, q2).
Eigen::VectorXd twoBodyAccelerations(const Hinge& hinge, double q1, double q2) {
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  auto& tree = sim.multibody().editModel();
  const auto one = tree.addBody("one", kWorldBody, pointMass(1.0, Vector3::Zero()), hinge);
  const auto two = tree.addBody("two", kWorldBody, pointMass(2.0, Vector3::Zero()), hinge);
  tree.addNode("A", one, RigidTransform());
  tree.addNode("B", two, RigidTransform());
  sim.addModel(models::standardRegistry().create(
      "Bushing", "bush",
      {{"node1", std::string("A")}, {"node2", std::string("B")}, {"stiffness", kStiffness}}));
  sim.addSignal("s", ElementType::Double, 6);
  sim.addSignal("W", ElementType::Double, 6);
  sim.tie("bush", "deflection", "s");
  sim.tie("bush", "wrench", "W");
  sim.multibody().q() << q1, q2;
  sim.lock();
  sim.advanceOverHop();
  return sim.multibody().udot();
}

TEST_CASE("Bushing: body2 receives +W at B and body1 -W at A, in B's axes") {
  // Two bodies on pins about z, only the rz stiffness acts: one turned by 0.02 rad gives
  // s_rz = 0.02 and W_rz = 30 * 0.02 = 0.6 N m; body two (inertia 2e-3) is pulled towards one
  // (+), one (1e-3) back (-). Then two sliders along x: A ahead of B by 0.01 m gives
  // W_x = 100 * 0.01 = 1 N.
  const Eigen::VectorXd turned = twoBodyAccelerations(Hinge::pin(Vector3::UnitZ()), 0.02, 0.0);
  CHECK(turned[1] == doctest::Approx(0.6 / 2e-3).epsilon(1e-12));
  CHECK(turned[0] == doctest::Approx(-0.6 / 1e-3).epsilon(1e-12));
  const Eigen::VectorXd slid = twoBodyAccelerations(Hinge::slider(Vector3::UnitX()), 0.51, 0.5);
  CHECK(slid[1] == doctest::Approx(1.0 / 2.0).epsilon(1e-12));
  CHECK(slid[0] == doctest::Approx(-1.0).epsilon(1e-12));
}

TEST_CASE("Bushing rejects unknown nodes, one body, and bad stiffness") {
  Simulation sim({.ioStepSize = 1e-3});
  build(sim, RigidTransform(), std::vector<double>(6, 0.0), 1e-3);
  sim.set("models.bush.params.node2", std::string("C"));
  CHECK_THROWS_WITH_AS(
      sim.lock(), doctest::Contains("model 'bush' (Bushing): node2 'C' is not a node"), ModelError);
  sim.set("models.bush.params.node2", std::string("A"));
  CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("are both on body 'body'"), ModelError);
  CHECK_THROWS_WITH_AS(sim.set("models.bush.params.stiffness", std::vector<double>{1, 2, 3}),
                       doctest::Contains("expected double[6]"), InputError);
  CHECK_THROWS_AS(sim.set("models.bush.params.damping", std::vector<double>{1, 1, 1, 1, 1, -1}),
                  InputError);
}

}  // namespace hopsim
