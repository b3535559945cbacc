"""hopsim.plot: recorded variables drawn with matplotlib, with units in the axis labels.

The drawn lines are checked against the recorded arrays and the labels against the variables'
declared units (hinge coordinates element by element); panels against their grouping rules (one
owner, quantity and unit each, at most MAX_CURVES curves, no range flattened beside one
RANGE_RATIO times larger); every helper's return against what save accepts; a saved figure as
a readable PNG of the asked size.
"""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import hopsim
import hopsim.plot

from conftest import ROOT

# No warning goes unnoticed: matplotlib's (a legend searching for its place, a layout that
# does not fit) fail the test.
pytestmark = pytest.mark.filterwarnings("error")

# Draw off-screen in this process whatever the environment (the helpers choose Agg by themselves
# only when there is no display; the subprocess test below checks that choice).
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    """Every test's figures closed after it (pyplot keeps them otherwise)."""
    yield
    plt.close("all")


def recorded_oscillator():
    """A mass-spring-damper (x in m, v in m/s) recorded at 50 Hz for 2 s."""
    sim = hopsim.Simulation(integrator="rkf45")
    sim.add_model("MassSpringDamper", "msd", {"k": 4.0, "c": 0.4})
    for signal, unit in (("F", "N"), ("x", "m"), ("v", "m/s")):
        sim.add_signal(signal, unit=unit)
        sim.tie("msd", signal, signal)
    sim.set("signals.F", 0.0)
    sim.set("models.msd.continuousStates.x", 1.0)
    sim.lock()
    rec = sim.record(["signals.x", "signals.v"], rate=50.0)
    sim.advance_time_to(2.0)
    return rec


def test_a_time_series_draws_the_recorded_values_with_the_unit_on_the_y_axis():
    rec = recorded_oscillator()
    figure, ax = hopsim.plot.time_series(rec, "signals.x")
    assert ax.figure is figure
    assert ax.get_xlabel() == "time [s]"
    assert ax.get_ylabel() == "signals.x [m]"
    assert ax.get_legend() is None
    (line,) = ax.get_lines()
    assert (line.get_xdata() == rec.times()).all()
    assert (line.get_ydata() == rec.values("signals.x")).all()


def test_a_time_series_refuses_two_units_on_one_axis():
    rec = recorded_oscillator()
    with pytest.raises(hopsim.InputError, match=(
            r"time_series draws one unit per Axes, and these columns have 2 \('signals.x' in m, "
            r"'signals.v' in m/s\); hopsim.plot.panels or hopsim.plot.stacked gives each unit "
            r"its own Axes")):
        hopsim.plot.time_series(rec, ["signals.x", "signals.v"])


def test_columns_sharing_a_unit_put_it_on_the_y_axis_and_the_legend_beside():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("a", unit="m")
    sim.add_signal("b", unit="m")
    sim.lock()
    rec = sim.record("signals.*")
    sim.advance_time_to(1.0)
    _, ax = hopsim.plot.time_series(rec)  # every column
    assert ax.get_ylabel() == "[m]"
    legend = ax.get_legend()
    assert [text.get_text() for text in legend.get_texts()] == ["signals.a", "signals.b"]
    assert legend.get_bbox_to_anchor().x0 > ax.get_window_extent().x1 - 1  # outside the curves
    _, ax = hopsim.plot.time_series(rec, "signals.*")  # a pattern names the same columns
    assert len(ax.get_lines()) == 2
    with pytest.raises(hopsim.InputError, match=r"plot: 'signals.z\*' matches no recorded column"):
        hopsim.plot.time_series(rec, "signals.z*")


def test_dataframes_and_scenarios_plot_like_recorders():
    rec = recorded_oscillator()
    _, ax = hopsim.plot.time_series(rec.to_dataframe(), "signals.x")
    assert ax.get_ylabel() == "signals.x [m]"
    assert (ax.get_lines()[0].get_ydata() == rec.values("signals.x")).all()

    scenario = hopsim.load(str(ROOT / "examples" / "signal_ties.yaml"))
    scenario.run()
    fig, axes = plt.subplots(2)
    figure, returned = hopsim.plot.time_series(scenario, "signals.A.C.y", ax=axes[1])
    assert returned is axes[1] and figure is fig  # drawn where asked
    assert not axes[0].get_lines()
    # (row 0, taken before step zero, is NaN: assert_array_equal counts NaN equal to NaN)
    np.testing.assert_array_equal(returned.get_lines()[0].get_ydata(),
                                  scenario.values("signals.A.C.y"))


def test_stacked_axes_give_each_column_its_unit_and_share_time():
    rec = recorded_oscillator()
    figure, axes = hopsim.plot.stacked(rec)
    assert len(axes) == 2 and all(ax.figure is figure for ax in axes)
    assert [ax.get_ylabel() for ax in axes] == ["signals.x [m]", "signals.v [m/s]"]
    assert [ax.get_xlabel() for ax in axes] == ["", "time [s]"]
    assert axes[0].get_shared_x_axes().joined(axes[0], axes[1])
    assert (axes[1].get_lines()[0].get_ydata() == rec.values("signals.v")).all()
    with pytest.raises(hopsim.InputError, match=r"no recorded column 'signals.q'"):
        hopsim.plot.stacked(rec, ["signals.x", "signals.q"])


def test_a_phase_portrait_labels_both_axes_with_units():
    rec = recorded_oscillator()
    figure, ax = hopsim.plot.phase(rec, "signals.x", "signals.v")
    assert ax.figure is figure
    assert ax.get_xlabel() == "signals.x [m]"
    assert ax.get_ylabel() == "signals.v [m/s]"
    path, start = ax.get_lines()
    assert (path.get_xdata() == rec.values("signals.x")).all()
    assert (path.get_ydata() == rec.values("signals.v")).all()
    assert list(start.get_xdata()) == [1.0] and list(start.get_ydata()) == [0.0]  # x0, v0
    assert hopsim.plot.phase(rec, "time", "signals.x")[1].get_xlabel() == "time [s]"


def recorded_bodies():
    """A FULL6DOF base falling freely with a PIN arm, every body variable recorded 1 s."""
    sim = hopsim.Simulation(io_step_size=0.01, integrator="rk4")
    mb = sim.multibody
    mb.gravity = [0.0, 0.0, -9.81]
    inertia = hopsim.SpatialInertia.point_mass(1.0, [0.0, 0.0, -0.5])
    mb.add_body("base", "world", hopsim.Hinge.full6dof(), inertia)
    mb.add_body("arm", "base", hopsim.Hinge.pin([1.0, 0.0, 0.0]), inertia)
    sim.lock()
    sim.set("multibody.bodies.arm.Q", 0.5)
    rec = sim.record(["multibody.bodies.base.*", "multibody.bodies.arm.*"], rate=100.0)
    sim.advance_time_to(1.0)
    return rec


def panel_of(axes, column):
    """The Axes whose legend or y label names ``column`` (legend entries drop the owner)."""
    for ax in axes:
        names = [line.get_label() for line in ax.get_lines()]
        if column in names or column.split(".")[-1] in names or ax.get_ylabel().startswith(column):
            return ax
    raise AssertionError(column + " is on no panel")


def test_panels_group_by_body_and_quantity_with_one_unit_each(capsys):
    rec = recorded_bodies()
    units = rec.units
    assert units["multibody.bodies.base.Q[0]"] == "1"  # the quaternion
    assert units["multibody.bodies.base.Q[6]"] == "m"
    assert units["multibody.bodies.base.U[2]"] == "rad/s"
    assert units["multibody.bodies.base.U[3]"] == "m/s"
    assert units["multibody.bodies.arm.Q"] == "rad" and units["multibody.bodies.arm.U"] == "rad/s"
    figure, axes = hopsim.plot.panels(rec)
    assert all(ax.figure is figure for ax in axes)
    titles = [ax.get_title() for ax in axes]
    # Each panel: one owner, one kind of quantity, one unit, at most MAX_CURVES curves.
    position = axes[titles.index("multibody.bodies.base position")]
    assert position.get_ylabel() == "[m]"
    assert [line.get_label() for line in position.get_lines()] == [
        "position[0]", "position[1]", "position[2]"]
    np.testing.assert_array_equal(position.get_lines()[2].get_ydata(),
                                  rec.values("multibody.bodies.base.position[2]"))
    base_u = [ax for ax, title in zip(axes, titles) if title == "multibody.bodies.base U"]
    assert sorted(ax.get_ylabel() for ax in base_u) == ["[m/s]", "[rad/s]"]
    assert panel_of(axes, "multibody.bodies.arm.Q").get_ylabel() == "multibody.bodies.arm.Q [rad]"
    for ax in axes:
        assert 1 <= len(ax.get_lines()) <= hopsim.plot.MAX_CURVES
    # Every recorded column is drawn exactly once.
    drawn = sum(len(ax.get_lines()) for ax in axes)
    assert drawn == len(rec.columns)
    assert axes[0].get_shared_x_axes().joined(axes[0], axes[-1])
    capsys.readouterr()


def many_columns(count, scales, unit="N"):
    """A DataFrame of ``count`` sines in ``unit``, column i scaled by scales[i % len(scales)]."""
    import pandas

    time = np.linspace(0.0, 2.0, 2001)
    frame = pandas.DataFrame(
        {f"signals.f{i}": scales[i % len(scales)] * np.sin(time + i) for i in range(count)},
        index=pandas.Index(time, name="time"))
    frame.attrs["units"] = {"time": "s", **{c: unit for c in frame.columns}}
    return frame


def test_panels_split_a_group_beyond_the_curve_limit_and_say_so(capsys):
    frame = many_columns(14, [1.0])
    _, axes = hopsim.plot.panels(frame)
    assert [len(ax.get_lines()) for ax in axes] == [6, 6, 2]
    assert all(ax.get_ylabel() == "[N]" for ax in axes)
    assert capsys.readouterr().out == (
        "note: the columns in [N]: 14 columns in 3 panels (at most 6 curves per panel)\n")
    _, axes = hopsim.plot.panels(frame, max_curves=7, notes=False)
    assert [len(ax.get_lines()) for ax in axes] == [7, 7]
    assert capsys.readouterr().out == ""


def test_panels_do_not_flatten_a_small_range_beside_a_large_one(capsys):
    import pandas

    # The lander: 20 kg of fuel used while the mass goes from 1020 kg to 1000 kg.
    time = np.linspace(0.0, 40.0, 401)
    used = np.minimum(time, 20.0)
    frame = pandas.DataFrame({"signals.fuel_used": used, "mass": 1020.0 - used,
                              "signals.dry": np.full_like(time, 1000.0)},
                             index=pandas.Index(time, name="time"))
    frame.attrs["units"] = {"time": "s", "signals.fuel_used": "kg", "mass": "kg",
                            "signals.dry": "kg"}
    _, axes = hopsim.plot.panels(frame)
    assert [[line.get_label() for line in ax.get_lines()] for ax in axes] == [
        ["signals.fuel_used"], ["mass", "signals.dry"]]
    for ax in axes:  # every curve spans at least 1/RANGE_RATIO of its axis
        low, high = ax.get_ylim()
        spans = [np.ptp(line.get_ydata()) for line in ax.get_lines()]
        assert max(spans) * hopsim.plot.RANGE_RATIO >= (high - low) * 0.9
    assert capsys.readouterr().out == (
        "note: the columns in [kg]: 3 columns in 2 panels (ranges more than 20 times apart get "
        "their own axes)\n")
    # Rounding noise is no range of its own: a constant column stays with the others.
    frame = many_columns(3, [1.0])
    frame["signals.f2"] = 1.0 + 1e-13 * np.sin(frame.index.to_numpy())
    _, axes = hopsim.plot.panels(frame)
    assert len(axes) == 1


def test_panels_beyond_the_limit_are_left_out_with_a_note(capsys):
    frame = many_columns(30, [1.0, 1e3, 1e6])  # three ranges: ten panels of at most 6
    _, axes = hopsim.plot.panels(frame, max_curves=2, max_panels=4)
    assert len(axes) == 4
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("note: drew the first 4 of 15 panels; left out 22 "
                                           "columns (")
    assert "name the columns to draw, patterns allowed ('signals.*')" in out


def test_drawing_and_saving_raise_no_warning(tmp_path):
    # Many long columns: where a legend searched for its place (loc="best"), matplotlib warned.
    import warnings

    frame = many_columns(50, [1.0, 100.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plot = hopsim.plot.panels(frame, notes=False)
        hopsim.plot.save(plot, str(tmp_path / "many.png"), dpi=40)
        hopsim.plot.save(hopsim.plot.time_series(frame, "signals.f1"), str(tmp_path / "one.png"))
        hopsim.plot.save(hopsim.plot.stacked(frame, ["signals.f1", "signals.f2"]),
                         str(tmp_path / "two.png"))
    assert (tmp_path / "many.png").stat().st_size > 1000


@pytest.mark.parametrize("helper", [
    lambda rec: hopsim.plot.time_series(rec, "signals.x"),
    lambda rec: hopsim.plot.stacked(rec),
    lambda rec: hopsim.plot.panels(rec, notes=False),
    lambda rec: hopsim.plot.phase(rec, "signals.x", "signals.v"),
], ids=["time_series", "stacked", "panels", "phase"])
def test_every_helper_returns_figure_and_axes_which_save_accepts(helper, tmp_path):
    rec = recorded_oscillator()
    returned = helper(rec)
    figure, axes = returned
    assert hasattr(figure, "savefig")
    for ax in axes if isinstance(axes, list) else [axes]:
        assert ax.figure is figure
    path = tmp_path / "plot.png"
    assert hopsim.plot.save(returned, str(path)) == str(path)
    assert plt.imread(str(path)).shape[0] > 100
    hopsim.plot.save(axes, str(tmp_path / "axes.png"))  # the Axes (or their list) too
    hopsim.plot.save(figure, str(tmp_path / "figure.svg"))  # a Figure too; format by extension
    assert (tmp_path / "figure.svg").read_text().lstrip().startswith("<?xml")


def test_save_writes_a_png_of_the_asked_size(tmp_path):
    rec = recorded_oscillator()
    figure, _ = hopsim.plot.time_series(rec, "signals.x")
    figure.set_size_inches(4, 3)
    path = tmp_path / "msd.png"
    assert hopsim.plot.save(figure, str(path), dpi=50) == str(path)
    data = path.read_bytes()
    assert len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n"
    image = plt.imread(str(path))
    assert image.shape[:2] == (150, 200)  # 3 x 4 inches at 50 dpi
    assert np.ptp(image[..., :3]) > 0.5  # something was drawn


def test_bad_arguments_raise_clear_errors():
    rec = recorded_oscillator()
    with pytest.raises(hopsim.InputError,
                       match=r"plot: no recorded column 'signals.xx' \(did you mean 'signals.x'"):
        hopsim.plot.time_series(rec, ["signals.xx"])
    with pytest.raises(hopsim.InputError, match=r"no recorded column 'signals.w'"):
        hopsim.plot.phase(rec, "signals.x", "signals.w")
    with pytest.raises(TypeError, match=r"expected a hopsim.Recorder, a hopsim.Scenario or a "):
        hopsim.plot.time_series([1.0, 2.0])
    with pytest.raises(TypeError, match=r"save: expected what a hopsim.plot helper returns, "
                                        r"\(figure, axes\), or a matplotlib Figure or Axes, "
                                        r"got str"):
        hopsim.plot.save("figure", "x.png")


def test_import_hopsim_loads_neither_matplotlib_nor_pandas_and_plots_headless(tmp_path):
    # A fresh interpreter without a display: import hopsim stays light, and the first plot
    # selects the Agg backend by itself.
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND")}
    env["PYTHONPATH"] = str(pathlib.Path(hopsim.__file__).resolve().parents[1])
    script = f"""
import sys
import hopsim
assert "matplotlib" not in sys.modules and "pandas" not in sys.modules, "imported eagerly"
sim = hopsim.Simulation()
sim.add_signal("x", unit="m")
sim.lock()
rec = sim.record("signals.x")
sim.advance_time_to(0.1)
hopsim.plot.save(hopsim.plot.time_series(rec), {str(tmp_path / "x.png")!r})
import matplotlib
print(matplotlib.get_backend())
"""
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().lower() == "agg"
    assert (tmp_path / "x.png").stat().st_size > 0
