"""python3 -m hopsim.plot FILE.csv [VARS...] -o OUT.png: what `hopsim plot` runs.

A CSV and its units sidecar, as `hopsim run` writes them, are drawn in panels by body,
quantity, unit and range, with the units in the labels, and saved as a PNG; errors exit with
status 1 and one clear line.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

import hopsim
import hopsim.plot
from conftest import SHARED, needs_shared_data

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

pytestmark = pytest.mark.filterwarnings("error")  # matplotlib's warnings fail the test

PACKAGE_DIR = str(pathlib.Path(hopsim.__file__).resolve().parents[1])


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture
def lander_csv(tmp_path):
    """A small CSV with the lander's columns and the sidecar hopsim run writes beside it."""
    csv = tmp_path / "lander.csv"
    csv.write_text("time,signals.thrust,signals.fuel_used,altitude,mass\n"
                   "0,2800,0,600,1020\n0.5,2800,0.5,590,1019.5\n1,0,1,585,1019\n")
    units = {
        "time": {"unit": "s", "description": "simulation time of the sample"},
        "signals.thrust": {"unit": "N", "description": "engine thrust",
                           "variable": "signals.thrust"},
        "signals.fuel_used": {"unit": "kg", "description": "", "variable": "signals.fuel_used"},
        "altitude": {"unit": "", "description": "", "variable": "multibody.bodies.lander.Q[6]"},
        "mass": {"unit": "kg", "description": "", "variable": "signals.mass"},
    }
    (tmp_path / "lander.units.json").write_text(json.dumps(units))
    return csv


def run_module(*args, cwd=None):
    """``python3 -m hopsim.plot ARGS`` in a fresh interpreter without a display."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "MPLBACKEND", "HOPSIM_PLOT_PROG")}
    env["PYTHONPATH"] = PACKAGE_DIR
    return subprocess.run([sys.executable, "-m", "hopsim.plot", *map(str, args)], env=env,
                          cwd=cwd, capture_output=True, text=True, timeout=120)


def test_columns_are_grouped_by_unit_and_range_with_the_units_in_the_labels(lander_csv):
    figure, axes, groups, notes = hopsim.plot._csv_figure(lander_csv)
    # 1 kg of fuel used beside a 1020 kg mass would draw flat: each gets its own panel.
    assert groups == [["signals.thrust"], ["signals.fuel_used"], ["mass"], ["altitude"]]
    assert notes == ["the columns in [kg]: 2 columns in 2 panels (ranges more than 20 times "
                     "apart get their own axes)"]
    assert len(figure.axes) == 4
    assert [ax.get_ylabel() for ax in axes] == [
        "signals.thrust [N]", "signals.fuel_used [kg]", "mass [kg]",
        "altitude"]  # no unit, no brackets
    assert axes[3].get_xlabel() == "time [s]" and axes[0].get_xlabel() == ""
    (thrust,) = axes[0].get_lines()
    assert list(thrust.get_xdata()) == [0.0, 0.5, 1.0]
    assert list(thrust.get_ydata()) == [2800.0, 2800.0, 0.0]


def test_named_columns_only_and_without_a_sidecar_no_units(lander_csv):
    _, axes, groups, _ = hopsim.plot._csv_figure(lander_csv, ["mass", "signals.thrust"])
    assert groups == [["mass"], ["signals.thrust"]]
    assert axes[0].get_ylabel() == "mass [kg]"
    _, _, groups, _ = hopsim.plot._csv_figure(lander_csv, ["signals.*", "mass"])  # patterns
    assert groups == [["signals.thrust"], ["signals.fuel_used"], ["mass"]]
    (lander_csv.parent / "lander.units.json").unlink()
    _, axes, groups, _ = hopsim.plot._csv_figure(lander_csv, ["signals.fuel_used", "altitude"])
    assert groups == [["signals.fuel_used"], ["altitude"]]  # no units: apart by range only
    # 1019 to 1020 kg beside 585 to 600 m would draw flat on one axis from 585 to 1020.
    _, axes, groups, _ = hopsim.plot._csv_figure(lander_csv, ["mass", "altitude"])
    assert groups == [["mass"], ["altitude"]]
    assert axes[1].get_xlabel() == "time [s]"  # the first column is time, in seconds
    assert axes[0].get_ylabel() == "mass"  # no unit, no brackets


def test_the_module_writes_a_png_and_says_where(lander_csv, tmp_path):
    out = tmp_path / "plots" / "lander.png"
    out.parent.mkdir()
    result = run_module(lander_csv, "-o", out)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "note: the columns in [kg]: 2 columns in 2 panels (ranges more than 20 times apart get "
        f"their own axes)\nwrote {out} (4 columns in 4 panels)\n")
    assert result.stderr == ""  # no warning, and none from runpy: hopsim imports plot lazily
    data = out.read_bytes()
    assert len(data) > 1000 and data[:8] == b"\x89PNG\r\n\x1a\n"
    assert plt.imread(str(out)).shape[:2] == (920, 680)  # 6.8 x (0.8 + 4 * 2.1) in at 100 dpi
    # Without -o, the image goes beside the CSV; --dpi scales it.
    result = run_module(lander_csv, "mass", "--dpi", "50")
    assert result.returncode == 0, result.stderr
    beside = lander_csv.with_suffix(".png")
    assert result.stdout == f"wrote {beside} (1 column in 1 panel)\n"
    assert plt.imread(str(beside)).shape[:2] == (145, 340)


@needs_shared_data
def test_chronos_slider_crank_draws_in_readable_panels_with_units(tmp_path):
    # Chrono's slider-crank logs some 70 columns: bodies' poses and velocities, every joint's
    # coordinates and rates, the contact and the energies.
    scenario = hopsim.load(str(SHARED / "chrono-examples" / "mbs" / "model_slider_crank.yaml"))
    csv = tmp_path / "crank.csv"
    scenario.recorder.stream_to(str(csv))
    scenario.run()
    scenario.recorder.close()
    units = json.loads((tmp_path / "crank.units.json").read_text())
    # A PIN joint's coordinate and rate, a SLIDER's, a BALL's quaternion and rates.
    assert units["motors.ground_crank.q[0]"]["unit"] == "rad"
    assert units["motors.ground_crank.u[0]"]["unit"] == "rad/s"
    assert units["joints.ground_slider.q[0]"]["unit"] == "m"
    assert units["joints.ground_slider.u[0]"]["unit"] == "m/s"
    assert units["joints.crank_rod.q[0]"]["unit"] == "1"
    assert units["joints.crank_rod.u[0]"]["unit"] == "rad/s"
    assert not [c for c, entry in units.items() if entry["unit"] == ""
                and not c.startswith("contact.contact_count")]
    result = run_module(csv, "-o", tmp_path / "crank.png")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no warning
    figure, axes, groups, notes = hopsim.plot._csv_figure(csv)
    frame_units = {c: entry["unit"] for c, entry in units.items()}
    for ax, group in zip(axes, groups):
        assert 1 <= len(group) <= hopsim.plot.MAX_CURVES
        assert len({frame_units[c] for c in group}) == 1, group  # one unit per axis
        assert len({hopsim._plot_panels.describe(c)[0] for c in group}) == 1 or \
            not hopsim._plot_panels.describe(group[0])[1]  # one body, unless plain signals
    crank = groups[[ax.get_title() for ax in axes].index("bodies.crank position")]
    assert crank == ["bodies.crank.position.x", "bodies.crank.position.y",
                     "bodies.crank.position.z"]
    assert len(axes) <= hopsim.plot.MAX_PANELS
    assert result.stdout.splitlines()[-1].startswith("wrote " + str(tmp_path / "crank.png"))
    # Every column is drawn, or counted among those a note says were left out.
    left_out = [n for n in notes if n.startswith("drew the first")]
    missing = int(left_out[0].split("left out ")[1].split()[0]) if left_out else 0
    assert sum(len(g) for g in groups) + missing == len(units) - 1
    assert ["note: " + n for n in notes] == result.stdout.splitlines()[:-1]


@pytest.mark.parametrize("args, message", [
    (["missing.csv"], "hopsim: error: cannot read 'missing.csv': no such file\n"),
    (["lander.csv", "signals.thrust", "altitud"],
     "hopsim: error: no column 'altitud' in 'lander.csv' (did you mean 'altitude'?)\n"),
    (["lander.csv", "bodies.*"], "hopsim: error: 'bodies.*' matches no column of 'lander.csv'\n"),
    (["lander.csv", "time"],
     "hopsim: error: 'time' is the time axis: name the columns to plot against it\n"),
    (["lander.csv", "-o", "lander.bmpx"],
     "hopsim: error: plot -o 'lander.bmpx': unknown extension '.bmpx' (expected .eps, "),
    (["lander.csv", "-o", "lander"], "hopsim: error: plot -o 'lander': no extension"),
    (["lander.csv", "-o", "no/such/dir/x.png"],
     "hopsim: error: cannot write 'no/such/dir/x.png': No such file or directory\n"),
    (["empty.csv"], "hopsim: error: 'empty.csv' is empty: nothing was logged"),
    (["times.csv"], "hopsim: error: 'times.csv' has no column besides time: nothing to plot\n"),
    (["header.csv"], "hopsim: error: 'header.csv' has no samples: nothing to plot\n"),
    (["lander.csv", "--dpi", "x"], "hopsim: error: argument --dpi: invalid int value: 'x'\n"),
])
def test_errors_exit_1_with_one_clear_line(lander_csv, args, message):
    work = lander_csv.parent
    (work / "empty.csv").write_text("")
    (work / "times.csv").write_text("time\n0\n1\n")
    (work / "header.csv").write_text("time,x\n")
    result = run_module(*args, cwd=work)
    assert result.returncode == 1, result.stderr
    error_lines = [line for line in result.stderr.splitlines() if "error" in line]
    assert len(error_lines) == 1, result.stderr
    assert (error_lines[0] + "\n").startswith(message), result.stderr
    assert result.stdout == ""
    assert sorted(p.name for p in work.glob("*.png")) == []  # nothing written on failure


def test_a_broken_sidecar_is_warned_about_and_ignored(lander_csv):
    (lander_csv.parent / "lander.units.json").write_text("{not json")
    result = run_module(lander_csv, "mass", cwd=lander_csv.parent)
    assert result.returncode == 0, result.stderr
    assert "hopsim: warning: ignoring the units sidecar" in result.stderr
    assert lander_csv.with_suffix(".png").stat().st_size > 0


def test_hopsim_plot_is_imported_on_first_use():
    # So that `python3 -m hopsim.plot` runs the module once, as __main__, without a warning.
    script = ("import sys, hopsim\n"
              "assert 'hopsim.plot' not in sys.modules\n"
              "assert callable(hopsim.plot.time_series)\n"
              "assert sys.modules['hopsim.plot'] is hopsim.plot\n"
              "try:\n"
              "    hopsim.no_such_name\n"
              "except AttributeError as error:\n"
              "    print(error)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": PACKAGE_DIR}, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "module 'hopsim' has no attribute 'no_such_name'\n"


def test_an_hdf5_file_of_hopsim_run_is_drawn_with_its_unit_attributes(tmp_path):
    h5py = pytest.importorskip("h5py")
    path = tmp_path / "lander.h5"
    with h5py.File(path, "w") as f:  # the layout of docs/scenario-yaml.md, "The HDF5 file"
        f.create_dataset("time", data=[0.0, 0.5, 1.0]).attrs["unit"] = "s"
        thrust = f.create_dataset("signals/thrust", data=[2800.0, 2800.0, 0.0])
        thrust.attrs.update({"unit": "N", "columns": ["signals.thrust"], "elements": [0]})
        q = f.create_dataset("multibody/bodies/lander/Q", data=[[600.0], [590.0], [585.0]])
        q.attrs.update({"unit": "", "columns": ["altitude"], "elements": [6]})
        # A FULL6DOF hinge's Q: a quaternion then meters, told apart by the `units` attribute.
        free = f.create_dataset("multibody/bodies/rover/Q", data=[[1.0, 2.0], [1.0, 3.0],
                                                                   [1.0, 4.0]])
        free.attrs.update({"unit": "", "units": ["1", "m"], "elements": [0, 4],
                           "columns": ["multibody.bodies.rover.Q[0]",
                                       "multibody.bodies.rover.Q[4]"]})
    _, axes, groups, _ = hopsim.plot._csv_figure(path)
    assert groups == [["altitude"], ["multibody.bodies.rover.Q[0]"],
                      ["multibody.bodies.rover.Q[4]"], ["signals.thrust"]]  # by name, unit
    assert axes[2].get_ylabel() == "multibody.bodies.rover.Q[4] [m]"
    del axes[1:3], groups[1:3]
    assert axes[0].get_ylabel() == "altitude"
    assert axes[1].get_ylabel() == "signals.thrust [N]"
    assert list(axes[1].get_lines()[0].get_ydata()) == [2800.0, 2800.0, 0.0]
    result = run_module(path, "altitud", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == ("hopsim: error: no column 'altitud' in '" + str(path)
                             + "' (did you mean 'altitude'?)\n")
    result = run_module(path, "-o", tmp_path / "lander.png")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "lander.png").stat().st_size > 1000
    (tmp_path / "not.h5").write_text("time,x\n0,1\n")
    result = run_module(tmp_path / "not.h5", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("hopsim: error: cannot read '" + str(tmp_path / "not.h5")
                                    + "' as HDF5: ")
