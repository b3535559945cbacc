"""hopsim.load: native scenarios, Chrono MBS files and MBSE files from Python.

Checked against the mechanisms' own invariants (loop lengths, the relative angle's definition)
and a balanced cart-pole; bad input raises InputError with file:line:col. The project's own
Chrono and MBSE files (tests/data/) run always; Chrono's and libmbse's example files, which are
not part of the repository, run when their directory is there (skipped otherwise).
"""

import math

import numpy as np
import pytest

import hopsim

from conftest import ROOT, SHARED, needs_shared_data

DATA = ROOT / "tests" / "data"


def run_four_bar(path, links, angles):
    """Runs the MBSE four-bar at `path` for 2 s and checks, at every sample, that each link
    (a, b, length) keeps its length and each relative coordinate (label: (a, b)) is the
    direction of point b from point a, continuous through +-pi. Returns the points' positions
    and the scenario."""
    scenario = hopsim.load(str(path), ["simulation.end_time=2"])
    assert scenario.end_time == 2.0
    scenario.run()
    assert scenario.sim.time() == 2.0
    t = scenario.times()
    assert t[0] == 0.0 and t[-1] == pytest.approx(2.0) and len(t) > 100
    p = {k: np.column_stack([scenario.values(f"points.{k}.position.{c}") for c in "xy"])
         for k in range(4)}
    for a, b, length in links:
        np.testing.assert_allclose(np.linalg.norm(p[b] - p[a], axis=1), length, rtol=1e-10)
    for label, (a, b) in angles.items():
        angle = scenario.values(f"relative_coordinates.{label}.angle")
        d = p[b] - p[a]
        offset = angle - np.arctan2(d[:, 1], d[:, 0])
        wrapped = np.remainder(offset + math.pi, 2 * math.pi) - math.pi
        assert np.max(np.abs(wrapped)) < 1e-12
        assert np.max(np.abs(np.diff(angle))) < 0.5
    return p, scenario


def test_an_mbse_crank_rocker_keeps_its_loop_closed_and_its_relative_angles():
    # The crank keeps its 0.8 m about (0, 0), the coupler and the rocker the lengths the points
    # give them; the crank swings past -pi, where the angle must not jump.
    p, scenario = run_four_bar(DATA / "mbse" / "crank_rocker.yaml",
                               [(0, 1, 0.8), (1, 2, math.hypot(0.6, 1.9)),
                                (3, 2, math.hypot(1.8, 1.9))], {0: (0, 1), 1: (3, 2)})
    np.testing.assert_array_equal(p[3], [[3.2, 0.0]] * len(p[3]))  # the rocker's pivot
    assert scenario.values("relative_coordinates.0.angle").min() < -math.pi


@needs_shared_data
def test_an_mbse_four_bar_keeps_its_loop_closed_and_its_relative_angle():
    # libmbse's four-bar: the crank turns about (0, 0) at 1 m, the coupler keeps its 2 m and the
    # rocker its sqrt(13) m.
    p, _ = run_four_bar(SHARED / "mbse-examples" / "fourbars1-with-rel-angle.yaml",
                        [(0, 1, 1.0), (1, 2, 2.0), (3, 2, math.sqrt(13.0))], {0: (0, 1)})
    assert p[1][-1, 1] < -0.01  # it moved


def test_a_chrono_model_in_a_scenario_is_balanced_by_a_pd_controller():
    scenario = hopsim.load(str(ROOT / "examples" / "cart_pole_balance.yaml"))
    assert scenario.warnings == []
    scenario.run()
    theta = scenario.values("signals.cp.joints.hinge.q")[1:]  # row 0 is taken before step zero
    assert 0.02 < np.max(np.abs(theta)) < 0.3  # it leans, then comes back
    assert abs(theta[-1]) < 1e-6
    assert scenario.sim.get("signals.cp.controllers.push") == pytest.approx(0.0, abs=1e-4)


def test_a_chrono_simulation_file_runs_with_its_columns():
    # rk4 integrates the motor angle's quadratic exactly; the file's own implicit Euler (HHT is
    # run as euler_implicit_linearized) errs by O(h) (docs/chrono-yaml.md, "Integrators").
    scenario = hopsim.load(str(DATA / "chrono" / "shuttle.yaml"),
                           ["simulation.end_time=0.5", "simulation.integrator=rk4"])
    assert "bodies.crank.position.x" in scenario.columns
    assert "motors.drive.q[0]" in scenario.columns
    assert "contact.normal_force" in scenario.columns
    assert sum("collision_family" in w for w in scenario.warnings) == 2
    scenario.run()
    # The SPEED motor's DATA function ramps the speed from 0 to 6 rad/s over the first half
    # second, so the angle is 12 t^2 / 2. The crank is the motor's body1, whose angle relative
    # to body2 (the ground) is Chrono's: q = 6 t^2, u = 12 t.
    t = scenario.times()
    np.testing.assert_allclose(scenario.values("motors.drive.u[0]"), 12 * t, rtol=1e-12,
                               atol=1e-15)
    np.testing.assert_allclose(scenario.values("motors.drive.q[0]"), 6 * t**2, rtol=1e-12,
                               atol=1e-15)
    with pytest.raises(hopsim.InputError, match="no column 'bodies.crank.positon.x'"):
        scenario.values("bodies.crank.positon.x")


@needs_shared_data
def test_chronos_example_simulation_file_runs_with_its_columns():
    # rk4 rather than the solver file's first-order implicit Euler: it integrates the motor's
    # quadratic angle exactly, which the check below needs.
    scenario = hopsim.load(str(SHARED / "chrono-examples" / "mbs" / "mbs.yaml"),
                           ["simulation.end_time=0.5", "simulation.integrator=rk4"])
    assert "bodies.crank.position.x" in scenario.columns
    assert "motors.ground_crank.q[0]" in scenario.columns
    assert any("collision_family" in w for w in scenario.warnings)
    scenario.run()
    # The SPEED motor's DATA function ramps the speed from 0 to 3.14 rad/s over the first second,
    # so the angle is 3.14 t² / 2. The crank is the motor's body2, whose angle relative to
    # body1 (the ground) is the opposite of Chrono's: q = -3.14 t² / 2, u = -3.14 t.
    t = scenario.times()
    np.testing.assert_allclose(scenario.values("motors.ground_crank.u[0]"), -3.14 * t,
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(scenario.values("motors.ground_crank.q[0]"), -1.57 * t**2,
                               rtol=1e-12, atol=1e-15)
    with pytest.raises(hopsim.InputError, match="no column 'bodies.crank.positon.x'"):
        scenario.values("bodies.crank.positon.x")


def test_bad_chrono_input_raises_input_error_with_its_location(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("chrono-version: 10.0\nmodel:\n  bodies:\n"
                   "    - {name: b, location: [0, 0, 0], mass: -1, inertia: {moments: [1, 1, 1]}}\n")
    with pytest.raises(hopsim.InputError, match=r"bad\.yaml:4:\d+: model\.bodies\[0\]\.mass"):
        hopsim.load(str(bad))
    with pytest.raises(hopsim.InputError, match="simulation.end_time"):
        hopsim.load(str(DATA / "mbse" / "hammer.yaml"), ["simulation.end_time=-1"])


def test_contact_from_a_scenario_file_rests_a_ball_on_the_ground():
    # A native scenario's contact section (docs/scenario-yaml.md): a 2 kg ball on a HALFSPACE
    # ground with Hooke's k = 2e5 N/m rests mg/k below its radius, and the contact signals log.
    scenario = hopsim.load(str(ROOT / "tests" / "data" / "contact_ball_on_ground.yaml"))
    scenario.run()
    assert scenario.sim.get("multibody.bodies.ball.Q")[6] == pytest.approx(0.1 - 2 * 9.81 / 2e5,
                                                                         rel=1e-9)
    normal = scenario.values("signals.contact.normal_force")
    assert normal[0] == 0.0 and normal.max() > 2 * 9.81  # the ball falls, lands and bounces
    assert normal[-1] == pytest.approx(2 * 9.81, rel=1e-6)
    assert scenario.values("signals.contact.contact_count")[-1] == 1.0
