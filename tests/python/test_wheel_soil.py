"""The wheel-soil and tyre models from Python and from a scenario file, created by class name.
Reference for the wheel: Wong's drawbar pull, normal force and torque integrated by
scipy.integrate.quad from the slip i (the model integrates its own Simpson rule, from the
velocities); tolerance 2e-4 of the normal force, the model's 64 intervals on the n = 1.1
integrand (tests/unit/models/test_bekker_wheel_soil_contact.cpp shows 2e-7 with 1024).
Reference for the tyre: Pacejka's Magic Formula with the published dry-tarmac set."""

import math

import pytest

import hopsim

scipy_integrate = pytest.importorskip("scipy.integrate")

R, B = 0.25, 0.2
SOIL = [0.99e3, 1528.43e3, 1.1, 1.04e3, math.radians(28), 0.025]  # Wong's dry sand, K 2.5 cm


def wong(z, i, c1=0.4, c2=0.15):
    kc, kphi, n, c, phi, K = SOIL
    k = kc / B + kphi
    t1 = math.acos(1 - z / R)
    tm = (c1 + c2 * i) * t1

    def sigma(t):
        te = t if t >= tm else t1 - t / tm * (t1 - tm)
        return k * R ** n * max(math.cos(te) - math.cos(t1), 0.0) ** n

    def tau(t):
        j = R * ((t1 - t) - (1 - i) * (math.sin(t1) - math.sin(t)))
        return (c + sigma(t) * math.tan(phi)) * (1 - math.exp(-j / K))

    def integral(f):
        return sum(scipy_integrate.quad(f, a, b, epsabs=1e-12, epsrel=1e-12, limit=200)[0]
                   for a, b in ((0.0, tm), (tm, t1)))

    w = R * B * integral(lambda t: sigma(t) * math.cos(t) + tau(t) * math.sin(t))
    dp = R * B * integral(lambda t: tau(t) * math.cos(t) - sigma(t) * math.sin(t))
    torque = R * R * B * integral(tau)
    return w, dp, torque


def test_bekker_wheel_from_python_matches_wong_integrated_by_scipy():
    z, vx = 0.02, 0.1
    for i in (0.05, 0.3, 0.6):
        spin = vx / (R * (1 - i))
        sim = hopsim.Simulation(1e-4)
        mb = sim.multibody
        mb.add_body("carriage", "world", hopsim.Hinge.translational(),
                    hopsim.sphere_inertia(1e12, 1.0))
        mb.add_body("wheel", "carriage", hopsim.Hinge.pin([0, 1, 0]),
                    hopsim.sphere_inertia(1e12, 1.0))
        mb.add_node("hub", "wheel", hopsim.RigidTransform.from_translation([0, 0, 0]))
        mb.set_body_q("carriage", [0.0, 0.0, R - z])
        mb.set_body_u("carriage", [vx, 0.0, 0.0])
        mb.set_body_u("wheel", [spin])
        for name, length in (("pen", 1), ("rate", 1), ("normal", 3), ("soil", 6), ("h", 1),
                             ("fn", 1), ("dp", 1), ("torque", 1), ("sink", 1), ("fy", 1),
                             ("slip", 1)):
            sim.add_signal(name, length=length)
        sim.add_model("TerrainPenetration", "ground", {"soils": SOIL},
                      ties={"penetration": "pen", "penetration_rate": "rate", "normal": "normal",
                            "soil": "soil", "surface_height": "h"}, node="hub")
        sim.add_model("BekkerWheelSoilContact", "wheel", {"radius": R, "width": B},
                      ties={"penetration": "pen", "penetration_rate": "rate", "normal": "normal",
                            "soil": "soil", "normal_force": "fn", "drawbar_pull": "dp",
                            "resistive_torque": "torque", "sinkage": "sink",
                            "lateral_force": "fy", "slip": "slip"},
                      node="hub")
        sim.lock()
        sim.advance_over_hop()
        w, dp, torque = wong(z, i)
        assert sim.get("signals.slip") == pytest.approx(i, rel=1e-9)
        assert abs(sim.get("signals.fn") - w) < 2e-4 * w
        assert abs(sim.get("signals.dp") - dp) < 2e-4 * w
        assert abs(sim.get("signals.torque") - torque) < 2e-4 * w * R


SCENARIO = """hopsim: 1
simulation: {end_time: 0.01 s, io_step: 1 ms, integrator: rk4}
assemblies:
  car:
    class: VehicleAssembly
    basename: cart
    bodygraph: {wheel: cart}
    params:
      bodies:
        cart:
          mass: 1e9 kg
          inertia: [1e9, 1e9, 1e9]
          hinge: {type: TRANSLATIONAL, q: [0, 0, 0.334], u: [20, 1.4, 0]}
        wheel:
          mass: 1e9 kg
          inertia: [1e9, 1e9, 1e9]
          hinge: {type: PIN, axes: [0, 1, 0], u: [57.142857142857146]}
          nodes:
            hub: {position: [0, 0, 0]}
signals:
  pen: {unit: m}
  rate: {unit: m/s}
  normal: {length: 3}
  h: {unit: m}
  soil: {length: 6}
  fz: {unit: N}
  fx: {unit: N}
  fy: {unit: N}
  kappa: {}
  alpha: {unit: rad}
models:
  ground:
    class: TerrainPenetration
    node: hub
    ties: {penetration: pen, penetration_rate: rate, normal: normal, surface_height: h,
           soil: soil}
  tyre:
    class: MagicFormulaTire
    node: hub
    params: {surface: DRY_TARMAC, radius: 0.35 m, normal_stiffness: 2.5e5 N/m}
    ties: {penetration: pen, penetration_rate: rate, normal: normal, normal_force: fz,
           longitudinal_force: fx, lateral_force: fy, slip_ratio: kappa, slip_angle: alpha}
logging:
  variables: [signals.fy]
"""


def test_magic_formula_tire_in_a_scenario_file(tmp_path):
    path = tmp_path / "tyre.yaml"
    path.write_text(SCENARIO)
    scenario = hopsim.load(path)
    scenario.run()
    sim = scenario.sim
    u = sim.get("multibody.bodies.cart.U")  # the velocities the last output was computed at
    alpha = math.atan2(u[1], u[0])
    bx = 10 * alpha
    expected = -sim.get("signals.fz") * math.sin(1.9 * math.atan(bx - 0.97 * (bx - math.atan(bx))))
    assert sim.get("signals.fz") == pytest.approx(2.5e5 * (0.35 - 0.334), rel=1e-6)
    assert sim.get("signals.fy") == pytest.approx(expected, rel=1e-9)
