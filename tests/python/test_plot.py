"""hopsim.plot: recorded variables drawn with matplotlib, with units in the axis labels.

The drawn lines are checked against the recorded arrays and the labels against the variables'
declared units; a saved figure is checked as a readable PNG of the asked size.
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


def test_a_time_series_draws_the_recorded_values_with_units_in_the_labels():
    rec = recorded_oscillator()
    ax = hopsim.plot.time_series(rec, ["signals.x", "signals.v"])
    assert ax.get_xlabel() == "time [s]"
    assert [text.get_text() for text in ax.get_legend().get_texts()] == [
        "signals.x [m]", "signals.v [m/s]"]
    x_line, v_line = ax.get_lines()
    assert (x_line.get_xdata() == rec.times()).all()
    assert (x_line.get_ydata() == rec.values("signals.x")).all()
    assert (v_line.get_ydata() == rec.values("signals.v")).all()


def test_one_column_is_named_with_its_unit_on_the_y_axis():
    rec = recorded_oscillator()
    ax = hopsim.plot.time_series(rec, "signals.v")
    assert ax.get_ylabel() == "signals.v [m/s]"
    assert ax.get_legend() is None
    assert len(ax.get_lines()) == 1


def test_columns_sharing_a_unit_put_it_on_the_y_axis():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("a", unit="m")
    sim.add_signal("b", unit="m")
    sim.lock()
    rec = sim.record("signals.*")
    sim.advance_time_to(1.0)
    ax = hopsim.plot.time_series(rec)  # every column
    assert ax.get_ylabel() == "[m]"
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["signals.a", "signals.b"]


def test_dataframes_and_scenarios_plot_like_recorders():
    rec = recorded_oscillator()
    ax = hopsim.plot.time_series(rec.to_dataframe(), "signals.x")
    assert ax.get_ylabel() == "signals.x [m]"
    assert (ax.get_lines()[0].get_ydata() == rec.values("signals.x")).all()

    scenario = hopsim.load(str(ROOT / "examples" / "signal_ties.yaml"))
    scenario.run()
    fig, axes = plt.subplots(2)
    returned = hopsim.plot.time_series(scenario, "signals.A.C.y", ax=axes[1])
    assert returned is axes[1]  # drawn where asked
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
    ax = hopsim.plot.phase(rec, "signals.x", "signals.v")
    assert ax.get_xlabel() == "signals.x [m]"
    assert ax.get_ylabel() == "signals.v [m/s]"
    path, start = ax.get_lines()
    assert (path.get_xdata() == rec.values("signals.x")).all()
    assert (path.get_ydata() == rec.values("signals.v")).all()
    assert list(start.get_xdata()) == [1.0] and list(start.get_ydata()) == [0.0]  # x0, v0
    assert hopsim.plot.phase(rec, "time", "signals.x").get_xlabel() == "time [s]"


def test_save_writes_a_png_of_the_figure(tmp_path):
    rec = recorded_oscillator()
    ax = hopsim.plot.time_series(rec)
    ax.figure.set_size_inches(4, 3)
    path = tmp_path / "msd.png"
    assert hopsim.plot.save(ax, str(path), dpi=50) == str(path)
    data = path.read_bytes()
    assert len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n"
    image = plt.imread(str(path))
    assert image.shape[:2] == (150, 200)  # 3 x 4 inches at 50 dpi
    assert np.ptp(image[..., :3]) > 0.5  # something was drawn
    hopsim.plot.save(ax.figure, str(tmp_path / "msd.svg"))  # a Figure too; format by extension
    assert (tmp_path / "msd.svg").read_text().lstrip().startswith("<?xml")


def test_bad_arguments_raise_clear_errors():
    rec = recorded_oscillator()
    with pytest.raises(hopsim.InputError,
                       match=r"plot: no recorded column 'signals.xx' \(did you mean 'signals.x'"):
        hopsim.plot.time_series(rec, ["signals.xx"])
    with pytest.raises(hopsim.InputError, match=r"no recorded column 'signals.w'"):
        hopsim.plot.phase(rec, "signals.x", "signals.w")
    with pytest.raises(TypeError, match=r"expected a hopsim.Recorder, a hopsim.Scenario or a "):
        hopsim.plot.time_series([1.0, 2.0])
    with pytest.raises(TypeError, match=r"save: expected a matplotlib Figure or Axes"):
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
