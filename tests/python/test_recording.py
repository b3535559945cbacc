"""Recording from Python: hopsim.Recorder (Simulation.record) and a Scenario's samples as numpy
arrays, pandas DataFrames and CSV files.

The references are analytic: a SineWave's samples against its formula at the sample times, a
mass-spring-damper's against its closed-form solution. Recording must not change a run: runs
with and without a recorder are compared bit for bit.
"""

import gc
import math
import weakref

import numpy as np
import pytest

import hopsim
from closed_forms import damped_response

from conftest import ROOT

TIGHT = hopsim.IntegratorOptions(relative_tolerance=1e-11, absolute_tolerance=1e-12)


def sine_simulation(amplitude=2.0, frequency=1.3, phase=0.4, io_step_size=0.01):
    """A SineWave 'sine' writing signal 'wave', locked."""
    sim = hopsim.Simulation(io_step_size=io_step_size)
    sim.add_signal("wave", unit="V")
    sim.add_model("SineWave", "sine",
                  {"amplitude": amplitude, "frequency": frequency, "phase": phase})
    sim.tie("sine", "y", "wave")
    sim.lock()
    return sim


def oscillator(integrator="rkf45", m=1.0, k=4.0, c=0.4, force=1.0, x0=1.0, v0=-0.5, **options):
    """A forced, underdamped MassSpringDamper 'msd' tied to signals F, x (m) and v (m/s),
    locked."""
    sim = hopsim.Simulation(integrator=integrator, **options)
    sim.add_model("MassSpringDamper", "msd", {"m": m, "k": k, "c": c})
    for signal, unit in (("F", "N"), ("x", "m"), ("v", "m/s")):
        sim.add_signal(signal, unit=unit)
        sim.tie("msd", signal, signal)
    sim.set("signals.F", force)
    sim.set("models.msd.continuousStates.x", x0)
    sim.set("models.msd.continuousStates.v", v0)
    sim.lock()
    return sim


# ---- values against analytic references --------------------------------------------------------


def test_a_sine_wave_recorded_at_a_rate_equals_its_formula_at_the_sample_times():
    sim = sine_simulation()
    rec = hopsim.Recorder(sim, "signals.wave", rate=7.0)  # 1/7 s: not a multiple of the I/O step
    sim.advance_time_to(2.0)
    t = rec.times()
    # Samples at k / 7 s for k = 0..14, each rounded to the 1 ns tick (Period::barrier).
    np.testing.assert_array_equal(t, np.round(np.arange(15) / 7.0 * 1e9) / 1e9)
    # Sample times are not barriers: a sample inside an I/O step sees the wave as the system
    # does, held from the step's last update (zero-order hold), i.e. the formula at the latest
    # 10 ms barrier at or before t (t itself at 0, 1 and 2 s). 1e-12 leaves room for the
    # rounding of sin's argument (2 pi f t ~ 17, eps * 17 ~ 4e-15).
    ticks = np.round(t * 1e9).astype(np.int64)
    held = (ticks // 10_000_000 * 10_000_000) / 1e9
    assert (held < t).sum() == 12
    expected = 2.0 * np.sin(2.0 * math.pi * 1.3 * held + 0.4)
    np.testing.assert_allclose(rec.values("signals.wave"), expected, rtol=0, atol=1e-12)
    assert rec.rows == len(rec) == 15


def test_named_columns_alone_need_no_pattern():
    sim = sine_simulation()
    rec = sim.record([], rate=10.0, columns={"wave": "signals.wave"})
    sim.advance_time_to(0.5)
    assert rec.columns == ["wave"] and rec.rows == 6
    with pytest.raises(hopsim.InputError, match="no patterns and no columns given"):
        sim.record([])


def test_without_a_rate_samples_are_taken_at_the_start_and_every_io_step():
    sim = sine_simulation(io_step_size=0.02)
    rec = sim.record(["signals.wave"])
    assert rec.rows == 0  # the first sample is taken at the start of the next hop
    sim.advance_time_to(1.0)
    np.testing.assert_array_equal(rec.times(), np.round(np.arange(51) * 0.02 * 1e9) / 1e9)
    later = rec.values("signals.wave")[1:]
    expected = 2.0 * np.sin(2.0 * math.pi * 1.3 * rec.times()[1:] + 0.4)
    np.testing.assert_allclose(later, expected, rtol=0, atol=1e-12)


def test_a_recorded_oscillator_follows_the_closed_form_solution():
    sim = oscillator(integrator_options=TIGHT)
    rec = sim.record(["signals.x", "signals.v"], rate=20.0)
    sim.advance_time_to(10.0)
    t = rec.times()
    assert len(t) == 201 and t[-1] == 10.0
    x, v = damped_response(t, m=1.0, k=4.0, c=0.4, force=1.0, x0=1.0, v0=-0.5)
    # rkf45 at rtol 1e-11, atol 1e-12 over 10 s: its tolerance times the error growth (about
    # 3e-13 seen in test_continuous.py); 1e-10 bounds it with margin.
    np.testing.assert_allclose(rec.values("signals.x"), x, rtol=0, atol=1e-10)
    np.testing.assert_allclose(rec.values("signals.v"), v, rtol=0, atol=1e-10)


# ---- recording leaves the run unchanged ---------------------------------------------------------


def trajectory(sim, times):
    """sim advanced to each of `times`, with (x, v) read there."""
    out = []
    for t in times:
        sim.advance_time_to(t)
        out.append((sim.get("signals.x"), sim.get("signals.v")))
    return np.array(out)


def test_recording_without_a_rate_does_not_change_an_adaptive_run_bit_for_bit():
    times = np.arange(1, 301) * 0.01
    reference = trajectory(oscillator("rkf45"), times)
    sim = oscillator("rkf45")
    rec = sim.record("signals.*")
    recorded = trajectory(sim, times)
    assert (recorded == reference).all()
    # ... and the recorder saw exactly those values at the I/O steps.
    assert (rec.values("signals.x")[1:] == reference[:, 0]).all()
    assert (rec.values("signals.v")[1:] == reference[:, 1]).all()


def test_recording_at_a_multiple_of_the_io_step_does_not_change_a_fixed_step_run():
    times = np.arange(1, 101) * 0.05
    reference = trajectory(oscillator("rk4"), times)
    sim = oscillator("rk4")
    rec = sim.record(["signals.x", "signals.v"], rate=20.0)
    recorded = trajectory(sim, times)
    assert (recorded == reference).all()
    assert (rec.values("signals.x")[1:] == reference[:, 0]).all()


@pytest.mark.parametrize("integrator", ["rkf45", "cvode", "rk4"])
@pytest.mark.parametrize("rate", [997.0, 3.0])
def test_recording_at_any_rate_changes_no_result_bit(integrator, rate):
    # 997 Hz and 3 Hz never land on the 0.01 s I/O grid except at whole seconds: without
    # samplers those times would be barriers and change the steps of an adaptive method.
    times = np.arange(1, 301) * 0.01
    reference = trajectory(oscillator(integrator, io_step_size=0.01), times)
    sim = oscillator(integrator, io_step_size=0.01)
    rec = sim.record(["signals.x", "signals.v"], rate=rate)
    recorded = trajectory(sim, times)
    assert (recorded == reference).all()
    assert rec.rows == int(3.0 * rate) + 1
    # The samples inside hops cost evaluations of their own, counted apart.
    assert sim.propagation_statistics().sampling_derivatives > 0


def test_samples_between_io_steps_follow_the_closed_form_solution():
    # Samples at 1 kHz inside 0.1 s hops: the integrator's dense output there, and the outputs
    # (x and v are the model's output signals) recomputed from it.
    sim = oscillator("rkf45", io_step_size=0.1, integrator_options=TIGHT)
    rec = sim.record(["signals.x", "signals.v"], rate=1000.0)
    sim.advance_time_to(3.0)
    t = rec.times()
    assert len(t) == 3001
    x, v = damped_response(t, m=1.0, k=4.0, c=0.4, force=1.0, x0=1.0, v0=-0.5)
    np.testing.assert_allclose(rec.values("signals.x"), x, rtol=0, atol=1e-8)
    np.testing.assert_allclose(rec.values("signals.v"), v, rtol=0, atol=1e-8)


def final_values(sim):
    """Every numeric variable of a simulation, as one flat float array."""
    out = []
    for path in sim.list():
        value = sim.get(path)
        if isinstance(value, str):
            continue
        out.extend(np.atleast_1d(np.asarray(value, dtype=float)).tolist())
    return np.array(out)


@pytest.mark.parametrize("example", ["lander.yaml", "double_pendulum.yaml",
                                     "spacecraft_wheels.yaml", "cart_pole_balance.yaml",
                                     "rotor_soft_stop.yaml"])
def test_an_examples_results_do_not_depend_on_its_logging_rate(example):
    # The example's own logging against 1 kHz logging: the same final state, bit for bit (NaN
    # included), and the same samples wherever both took one.
    path = str(ROOT / "examples" / example)
    plain = hopsim.load(path, {"simulation.end_time": 2.0})
    plain.run()
    fast = hopsim.load(path, {"simulation.end_time": 2.0, "logging.rate": 1000.0})
    fast.run()
    a, b = final_values(plain.sim), final_values(fast.sim)
    assert a.tobytes() == b.tobytes()
    assert fast.recorder.rows > plain.recorder.rows
    common, mine, theirs = np.intersect1d(plain.times(), fast.times(), return_indices=True)
    assert len(common) == plain.recorder.rows
    for column in plain.columns[1:]:
        assert plain.values(column)[mine].tobytes() == fast.values(column)[theirs].tobytes()


# ---- columns, units, tables ---------------------------------------------------------------------


def test_columns_units_and_the_numpy_table():
    sim = oscillator()
    rec = hopsim.Recorder(sim, ["signals.x", "models.msd.continuousStates.*"], rate=10.0,
                          columns={"position": "signals.x"})
    assert rec.columns == ["signals.x", "models.msd.continuousStates.v",
                           "models.msd.continuousStates.x", "position"]
    assert rec.units == {"time": "s", "signals.x": "m", "models.msd.continuousStates.v": "m/s",
                         "models.msd.continuousStates.x": "m", "position": "m"}
    sim.advance_time_to(1.0)
    table = rec.to_numpy()
    assert table.shape == (11, 5) and table.dtype == np.float64
    assert (table[:, 0] == rec.times()).all()
    for i, column in enumerate(rec.columns, start=1):
        assert (table[:, i] == rec.values(column)).all()
    assert (rec.values("time") == rec.times()).all()
    assert (rec.values("position") == rec.values("signals.x")).all()


def test_vector_bool_and_int_variables_give_float_columns():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("q", length=3, unit="rad")
    sim.add_signal("flag", type=bool)
    sim.add_signal("count", type=int)
    sim.lock()
    sim.set("signals.q", [1.0, 2.0, 3.0])
    sim.set("signals.flag", True)
    sim.set("signals.count", 7)
    rec = sim.record(["signals.q", "signals.flag", "signals.count"],
                     columns={"q_last": "signals.q[2]"})
    assert rec.columns == ["signals.q[0]", "signals.q[1]", "signals.q[2]", "signals.flag",
                           "signals.count", "q_last"]
    assert rec.units["signals.q[1]"] == "rad" and rec.units["q_last"] == "rad"
    sim.advance_time_to(0.1)
    np.testing.assert_array_equal(rec.to_numpy()[0], [0.0, 1.0, 2.0, 3.0, 1.0, 7.0, 3.0])


def test_the_dataframe_is_indexed_by_time_with_units_in_attrs():
    sim = oscillator(integrator_options=TIGHT)
    rec = sim.record(["signals.x", "signals.v"], rate=10.0)
    sim.advance_time_to(2.0)
    df = rec.to_dataframe()
    assert df.index.name == "time"
    assert list(df.columns) == ["signals.x", "signals.v"]
    assert (df.index.to_numpy() == rec.times()).all()
    assert (df["signals.x"].to_numpy() == rec.values("signals.x")).all()
    assert all(str(dtype) == "float64" for dtype in df.dtypes)
    assert df.attrs["units"] == {"time": "s", "signals.x": "m", "signals.v": "m/s"}
    assert hopsim.units_of(df) == df.attrs["units"]
    assert (hopsim.dataframe(rec) == df).all().all()
    # A copy: recording on does not change a DataFrame already taken.
    sim.advance_time_to(3.0)
    assert len(df) == 21 and len(rec.to_dataframe()) == 31


def test_write_csv_round_trips_every_value_exactly(tmp_path):
    sim = sine_simulation()
    rec = sim.record("signals.wave", rate=7.0, columns={"w": "signals.wave"})
    sim.advance_time_to(1.0)
    path = tmp_path / "wave.csv"
    rec.write_csv(str(path))
    lines = path.read_text().splitlines()
    assert lines[0] == "time,signals.wave,w"
    read = np.array([[float(field) for field in line.split(",")] for line in lines[1:]])
    assert (read == rec.to_numpy()).all()  # 17 significant digits read back exactly


def test_a_scenarios_samples_as_a_dataframe():
    # examples/signal_ties.yaml: B writes a = 3 sin(2 pi 2 t), C writes y = 2 a.
    scenario = hopsim.load(str(ROOT / "examples" / "signal_ties.yaml"))
    scenario.run()
    df = scenario.to_dataframe()
    assert list(df.columns) == scenario.columns == ["signals.A.a", "signals.A.C.y"]
    assert isinstance(scenario.recorder, hopsim.Recorder)
    assert scenario.recorder.columns == scenario.columns
    assert (df.index.to_numpy() == scenario.times()).all()
    t = df.index.to_numpy()[1:]  # row 0 is the sample at the start, before step zero
    np.testing.assert_allclose(df["signals.A.C.y"].to_numpy()[1:],
                               6.0 * np.sin(2.0 * math.pi * 2.0 * t), rtol=0, atol=1e-12)
    assert scenario.to_numpy().shape == (len(df), 3)
    assert df.attrs["units"]["time"] == "s"


# ---- errors -------------------------------------------------------------------------------------


def test_a_pattern_matching_nothing_raises_input_error_with_suggestions():
    sim = sine_simulation()
    with pytest.raises(hopsim.InputError,
                       match=r"'signals.wav' matches no numeric variable "
                             r"\(did you mean 'signals.wave'\?\)"):
        sim.record("signals.wav")
    with pytest.raises(hopsim.InputError, match=r"'models.sine.param.\*' matches no numeric"):
        hopsim.Recorder(sim, ["signals.wave", "models.sine.param.*"])


def test_bad_rates_columns_and_arguments_raise_hopsim_errors():
    sim = sine_simulation()
    with pytest.raises(hopsim.InputError, match=r"logging rate 0 Hz must be finite and positive"):
        sim.record("signals.wave", rate=0.0)
    with pytest.raises(hopsim.InputError, match=r"rate nan Hz|rate NaN Hz|rate -?nan"):
        sim.record("signals.wave", rate=float("nan"))
    with pytest.raises(hopsim.InputError,
                       match=r"column 'w': 'signals.wave' has 1 elements, so element 3"):
        sim.record("signals.wave", columns={"w": "signals.wave[3]"})
    with pytest.raises(hopsim.InputError, match=r"column 'w': 'signals.wave\[x\]' \(expected"):
        sim.record("signals.wave", columns={"w": "signals.wave[x]"})
    with pytest.raises(hopsim.InputError, match=r"column 'w': no variable 'signals.wav' "
                                                r"\(did you mean 'signals.wave'\?\)"):
        sim.record("signals.wave", columns={"w": "signals.wav"})
    with pytest.raises(TypeError, match=r"patterns must be a string or a list of strings"):
        sim.record(42)
    with pytest.raises(TypeError, match=r"patterns must be strings, got 3"):
        sim.record(["signals.wave", 3])
    rec = sim.record("signals.wave")
    with pytest.raises(hopsim.InputError,
                       match=r"no column 'signals.wav' \(did you mean 'signals.wave'\?\)"):
        rec.values("signals.wav")
    with pytest.raises(hopsim.InputError, match=r"cannot write '/nonexistent/dir/w.csv'"):
        rec.write_csv("/nonexistent/dir/w.csv")
    with pytest.raises(TypeError, match=r"expected a hopsim.Recorder or a hopsim.Scenario"):
        hopsim.dataframe([1, 2])
    assert sim.sampler_count == 1  # only the one recorder that was made
    assert sim.list_events() == []  # recorders sample without events


def test_a_string_variable_named_exactly_is_refused():
    sim = hopsim.Simulation()
    sim.add_signal("mode", type=str)
    sim.add_signal("x")
    sim.lock()
    with pytest.raises(hopsim.InputError, match=r"cannot log 'signals.mode': it is a string"):
        sim.record("signals.mode")
    assert sim.record("signals.*").columns == ["signals.x"]  # a glob skips it


# ---- lifetime -----------------------------------------------------------------------------------


def test_a_recorder_keeps_its_simulation_alive_and_stops_when_dropped():
    sim = sine_simulation()
    alive = weakref.ref(sim)
    rec = hopsim.Recorder(sim, "signals.wave")
    other = sim.record("signals.wave")
    assert sim.sampler_count == 2
    del other
    gc.collect()
    assert sim.sampler_count == 1
    del sim
    gc.collect()
    assert alive() is not None  # kept alive by rec
    alive().advance_time_to(0.1)
    assert rec.rows == 11  # t = 0 and the end of each 10 ms I/O step
    del rec
    gc.collect()
    assert alive() is None


def test_a_scenarios_recorder_keeps_the_scenario_alive():
    scenario = hopsim.load(str(ROOT / "examples" / "signal_ties.yaml"))
    rec = scenario.recorder
    del scenario
    gc.collect()
    assert rec.columns == ["signals.A.a", "signals.A.C.y"] and rec.rows == 0


# ---- system quantities ----------------------------------------------------------------------------


def test_energies_and_momenta_are_loggable_and_match_the_pendulums_formulas():
    # The example's pendulum: a 1 kg bob 1 m below a y-axis pin, 0.01 kg m^2 about its centre,
    # g = 9.81 m/s^2 along -z. Independently: KE = (m L^2 + I) u^2 / 2, PE = -m g L cos q, the
    # CM, the momentum m v of the CM, and the energy conserved to the
    # integration tolerance (rtol 1e-12 over 10 s: 1e-9). A rotation q about +y takes the bob
    # from (0, 0, -L) to L (-sin q, 0, -cos q).
    path = str(ROOT / "examples" / "pendulum.yaml")
    logged = ["multibody.bodies.pendulum.Q", "multibody.bodies.pendulum.U", "multibody.energy.*",
              "multibody.centerOfMass", "multibody.momentum.*", "multibody.mass"]
    scenario = hopsim.load(path, {"logging.variables": logged, "logging.rate": 250.0})
    scenario.run()
    frame = scenario.to_dataframe()
    q, u = frame["multibody.bodies.pendulum.Q"], frame["multibody.bodies.pendulum.U"]
    np.testing.assert_allclose(frame["multibody.energy.kinetic"], 0.5 * 1.01 * u**2,
                               rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(frame["multibody.energy.potential"], -9.81 * np.cos(q),
                               rtol=0, atol=1e-13)
    total = frame["multibody.energy.total"]
    assert abs(total - (-9.81 * math.cos(2.0))).max() < 1e-9
    np.testing.assert_allclose(frame["multibody.centerOfMass[0]"], -np.sin(q), atol=1e-15)
    np.testing.assert_allclose(frame["multibody.centerOfMass[2]"], -np.cos(q), atol=1e-15)
    np.testing.assert_allclose(frame["multibody.momentum.linear[0]"], -u * np.cos(q), atol=1e-14)
    np.testing.assert_allclose(frame["multibody.momentum.linear[2]"], u * np.sin(q), atol=1e-14)
    # About the world origin (the pivot): H_y = (m L^2 + I) u.
    np.testing.assert_allclose(frame["multibody.momentum.angular[1]"], 1.01 * u, atol=1e-14)
    assert (frame["multibody.mass"] == 1.0).all()
    units = scenario.recorder.units
    assert units["multibody.energy.total"] == "J"
    assert units["multibody.momentum.angular[1]"] == "kg*m^2/s"
    # Reading them changes nothing, and they cannot be written.
    plain = hopsim.load(path)
    plain.run()
    assert final_values(plain.sim).tobytes() == final_values(scenario.sim).tobytes()
    with pytest.raises(hopsim.InputError, match=r"'multibody.energy.total' is computed from the "
                                                r"coordinates and read-only; set multibody.Q"):
        scenario.sim.set("multibody.energy.total", 1.0)


# ---- samples on events and hops ---------------------------------------------------------------


def test_the_lander_recorded_on_its_events_only():
    # logging.events without a rate: a sample right after each firing and none else. The tank
    # burns out (20 kg at mdot = F / (Isp g0) = 2800 / (300 * 9.80665) kg/s) and the lander
    # touches down; the samples sit at the located times and show the values after the event.
    path = str(ROOT / "examples" / "lander.yaml")
    scenario = hopsim.load(path, {"logging.events": ["tank.*", "touchdown"],
                                  "logging.rate": None})
    scenario.run()
    t = scenario.times()
    assert len(t) == 2
    assert t[0] == pytest.approx(20.0 / (2800.0 / (300.0 * 9.80665)), rel=1e-9)
    assert t[1] == scenario.sim.time() or abs(t[1] - scenario.sim.time()) < 1e-9
    assert scenario.values("signals.fuel_remaining")[0] == pytest.approx(0.0, abs=1e-9)
    # Outputs are recomputed by the next hop: right after burnout the engine's thrust signal
    # still holds the value it had during the hop that ended there.
    assert scenario.values("signals.thrust")[0] == 2800.0
    # At touchdown the altitude is zero to the localization's time tolerance (1e-10 s) times the
    # touchdown speed (about 9 m/s), with a factor 10 of margin for the bracket's far end.
    assert abs(scenario.values("altitude")[1]) < 1e-8
    # The same run with its own 10 Hz logging and the events together: rows in time order,
    # and the run's result unchanged.
    both = hopsim.load(path, {"logging.events": ["touchdown", "tank.burnout"]})
    both.run()
    assert (np.diff(both.times()) >= 0).all()
    assert set(t) <= set(both.times())
    assert final_values(both.sim).tobytes() == final_values(scenario.sim).tobytes()


def test_recording_every_hop_and_on_events_from_python():
    sim = oscillator("rkf45", io_step_size=0.1)
    sim.register_periodic_event("tick", 0.05, 0.25, lambda s, t: None)
    hops = sim.record("signals.x", every_hop=True)
    ticks = sim.record("signals.x", events="tick")
    sim.advance_time_to(1.0)
    # Hops end at every 0.1 s I/O barrier and at the ticks off that grid (0.05, 0.55).
    assert hops.rows == sim.hop_count() + 1 == 13
    np.testing.assert_allclose(ticks.times(), [0.05, 0.3, 0.55, 0.8])
    with pytest.raises(hopsim.InputError, match=r"event 'tock' matches no event \(did you mean "
                                                r"'tick'\?\)"):
        sim.record("signals.x", events=["tock"])
    with pytest.raises(TypeError, match=r"events must be strings, got 3"):
        sim.record("signals.x", events=["tick", 3])


def test_body_and_node_poses_and_velocities_match_the_double_pendulums_geometry():
    # Both links turn about +x; the lower link's frame sits at the upper's end, 1.1 m down its
    # axis. A rotation q about +x takes (0, 0, -L) to L (0, sin q, -cos q).
    path = str(ROOT / "examples" / "double_pendulum.yaml")
    logged = ["multibody.bodies.*.Q", "multibody.bodies.*.U", "multibody.bodies.lower.*"]
    scenario = hopsim.load(path, {"simulation.end_time": 3.0, "logging.variables": logged,
                                  "logging.rate": 100.0})
    scenario.run()
    f = scenario.to_dataframe()
    q1, q2 = f["multibody.bodies.upper.Q"], f["multibody.bodies.lower.Q"]
    u1, u2 = f["multibody.bodies.upper.U"], f["multibody.bodies.lower.U"]
    pos = [f[f"multibody.bodies.lower.position[{i}]"] for i in range(3)]
    np.testing.assert_allclose(pos[0], 0.0, atol=1e-15)
    np.testing.assert_allclose(pos[1], 1.1 * np.sin(q1), atol=1e-14)
    np.testing.assert_allclose(pos[2], -1.1 * np.cos(q1), atol=1e-14)
    vel = [f[f"multibody.bodies.lower.linearVelocity[{i}]"] for i in range(3)]
    np.testing.assert_allclose(vel[1], 1.1 * np.cos(q1) * u1, atol=1e-13)
    np.testing.assert_allclose(vel[2], 1.1 * np.sin(q1) * u1, atol=1e-13)
    np.testing.assert_allclose(f["multibody.bodies.lower.angularVelocity[0]"], u1 + u2,
                               atol=1e-13)
    # The quaternion of a rotation theta about x, scalar first, with e0 >= 0.
    theta = q1 + q2
    sign = np.where(np.cos(theta / 2) < 0, -1.0, 1.0)
    np.testing.assert_allclose(f["multibody.bodies.lower.orientation[0]"],
                               sign * np.cos(theta / 2), atol=1e-14)
    np.testing.assert_allclose(f["multibody.bodies.lower.orientation[1]"],
                               sign * np.sin(theta / 2), atol=1e-14)
    assert scenario.recorder.units["multibody.bodies.lower.position[1]"] == "m"
    assert scenario.recorder.units["multibody.bodies.lower.angularVelocity[0]"] == "rad/s"


def test_a_node_position_follows_its_body():
    # The lander's feet node is its body's origin: its world position is the FULL6DOF hinge's
    # translation Q[4:7].
    path = str(ROOT / "examples" / "lander.yaml")
    scenario = hopsim.load(path, {"simulation.end_time": 5.0, "logging.rate": 20.0,
                                  "logging.variables": ["multibody.nodes.feet.*",
                                                        "multibody.bodies.lander.Q"]})
    scenario.run()
    f = scenario.to_dataframe()
    for i in range(3):
        np.testing.assert_allclose(f[f"multibody.nodes.feet.position[{i}]"],
                                   f[f"multibody.bodies.lander.Q[{4 + i}]"], atol=1e-12)
    np.testing.assert_allclose(f["multibody.nodes.feet.orientation[0]"], 1.0, atol=1e-15)
