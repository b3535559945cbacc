"""Plots of recorded variables with matplotlib.

Each helper takes what was recorded (a :class:`hopsim.Recorder`, a :class:`hopsim.Scenario` or a
DataFrame from :func:`hopsim.dataframe`), draws on a matplotlib Axes (a new figure when ``ax``
is None) with the units in the axis labels, and returns the matplotlib objects, so a script can
customise them before :func:`save`::

    import hopsim.plot

    ax = hopsim.plot.time_series(rec, ["signals.x", "signals.v"])
    ax.set_title("mass-spring-damper")
    hopsim.plot.save(ax, "msd.png")

matplotlib is imported on the first plot, not by ``import hopsim``. Without a display (no
``DISPLAY`` or ``WAYLAND_DISPLAY`` on Linux, and no ``MPLBACKEND`` chosen) the non-interactive
Agg backend is selected, so run scripts plot on servers and in tests.
"""

import os
import sys

from hopsim.recording import Recorder, dataframe, units_of

__all__ = ["phase", "save", "stacked", "time_series"]


def _pyplot():
    """matplotlib.pyplot, with the Agg backend when there is no display to show figures on."""
    if "matplotlib.pyplot" not in sys.modules:
        import matplotlib

        headless = sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        )
        if headless and not os.environ.get("MPLBACKEND"):
            matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


def _frame(source):
    """``source`` as a DataFrame indexed by time, and its units ``{column: unit}``."""
    if isinstance(source, Recorder) or isinstance(getattr(source, "recorder", None), Recorder):
        frame = dataframe(source)
    elif hasattr(source, "columns") and hasattr(source, "index") and hasattr(source, "attrs"):
        frame = source
    else:
        raise TypeError(
            "expected a hopsim.Recorder, a hopsim.Scenario or a pandas DataFrame, got "
            + type(source).__name__
        )
    return frame, units_of(frame)


def _check_column(frame, column):
    """Raises hopsim.InputError naming ``column`` and the nearest recorded names if it is absent."""
    if column in frame.columns:
        return
    import difflib

    from hopsim import InputError

    names = [str(c) for c in frame.columns]
    near = difflib.get_close_matches(str(column), names, n=3, cutoff=0.5)
    hint = " (did you mean " + ", ".join("'" + n + "'" for n in near) + "?)" if near else ""
    raise InputError("plot: no recorded column '" + str(column) + "'" + hint)


def _columns(frame, columns, caller):
    """The columns to draw: every column for None, a list for one name; each checked."""
    if columns is None:
        columns = list(frame.columns)
    elif isinstance(columns, str):
        columns = [columns]
    if not columns:
        raise ValueError(f"{caller}: no columns to plot")
    for column in columns:
        _check_column(frame, column)
    return columns


def _label(name, unit):
    """``"name [unit]"``, or the bare name when the unit is unknown or dimensionless."""
    return name + " [" + unit + "]" if unit and unit != "1" else name


def _axes(ax):
    """``ax``, or the Axes of a new figure."""
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots()
    return ax


def time_series(source, columns=None, ax=None, **line_options):
    """Draws recorded columns against time on one Axes and returns the Axes.

    ``source``: a Recorder, a Scenario or a DataFrame indexed by time (:func:`hopsim.dataframe`).
    ``columns``: one column name or a list of them (None: every column). ``ax``: the Axes to draw
    on (None: a new figure). ``line_options`` go to ``Axes.plot`` for every line (``marker="."``,
    ``linewidth=1``). The x label is ``time [s]``; the y label is the shared unit in brackets
    when every column has the same one (``[m]``), else the legend carries each column's unit
    (``signals.x [m]``). A legend is drawn when there is more than one line. An unknown column
    raises :class:`hopsim.InputError` with the nearest names.
    """
    frame, units = _frame(source)
    columns = _columns(frame, columns, "time_series")
    ax = _axes(ax)
    shared = {units.get(c, "") for c in columns}
    one_unit = len(shared) == 1
    times = frame.index.to_numpy()
    for column in columns:
        label = column if one_unit else _label(column, units.get(column, ""))
        ax.plot(times, frame[column].to_numpy(), label=label, **line_options)
    ax.set_xlabel(_label("time", units.get("time", "s")))
    if len(columns) == 1:
        ax.set_ylabel(_label(columns[0], units.get(columns[0], "")))
    elif one_unit and next(iter(shared)) not in ("", "1"):
        ax.set_ylabel("[" + next(iter(shared)) + "]")
    if len(columns) > 1:
        ax.legend()
    ax.grid(True, alpha=0.3)
    return ax


def stacked(source, columns=None, **line_options):
    """Draws each column against time on its own Axes, one above the other, sharing the time
    axis: for columns of different units (an angle and a torque).

    ``source`` and ``columns`` as for :func:`time_series` (None: every column). Each Axes has
    the column and its unit as y label (``signals.torque [N*m]``); the bottom one has
    ``time [s]``. Returns ``(figure, axes)``, ``axes`` a list in column order. An unknown column
    raises :class:`hopsim.InputError` with the nearest names.
    """
    frame, _ = _frame(source)
    columns = _columns(frame, columns, "stacked")
    figure, axes = _pyplot().subplots(len(columns), 1, sharex=True, squeeze=False,
                                      figsize=(6.4, 1.0 + 1.6 * len(columns)))
    axes = [row[0] for row in axes]
    for ax, column in zip(axes, columns):
        time_series(frame, column, ax=ax, **line_options)
        if ax is not axes[-1]:
            ax.set_xlabel("")
    return figure, axes


def phase(source, x, y, ax=None, **line_options):
    """Draws column ``y`` against column ``x`` (a phase portrait, a path in a plane).

    ``source`` as for :func:`time_series`; ``x`` and ``y`` are column names (``"time"`` allowed).
    The axis labels carry the units (``signals.x [m]``, ``signals.v [m/s]``); the start is
    marked with a dot. Returns the Axes. An unknown column raises :class:`hopsim.InputError`.
    """
    frame, units = _frame(source)

    def column(name):
        if name == "time":
            return frame.index.to_numpy()
        _check_column(frame, name)
        return frame[name].to_numpy()

    xs, ys = column(x), column(y)
    ax = _axes(ax)
    (line,) = ax.plot(xs, ys, **line_options)
    if len(xs):
        ax.plot(xs[:1], ys[:1], "o", color=line.get_color(), label="start")
    ax.set_xlabel(_label(x, units.get(x, "")))
    ax.set_ylabel(_label(y, units.get(y, "")))
    ax.grid(True, alpha=0.3)
    return ax


def save(figure_or_axes, path, dpi=100):
    """Writes the figure of ``figure_or_axes`` (a Figure or one of its Axes) to ``path``.

    The format follows the extension (``.png``, ``.pdf``, ``.svg``). The figure is laid out
    tightly first and stays open (close it with ``matplotlib.pyplot.close`` when drawing many).
    Returns ``path``. A file that cannot be written raises OSError naming it.
    """
    figure = getattr(figure_or_axes, "figure", figure_or_axes)
    if not hasattr(figure, "savefig"):
        raise TypeError(
            "save: expected a matplotlib Figure or Axes, got " + type(figure_or_axes).__name__
        )
    figure.tight_layout()
    figure.savefig(path, dpi=dpi)
    return path


# ``python3 -m hopsim.plot FILE.csv [VARS...] -o OUT.png``: what ``hopsim plot`` runs.


def _fail(message):
    """Prints ``hopsim: error: message`` on stderr and exits with status 1."""
    print("hopsim: error: " + message, file=sys.stderr)
    raise SystemExit(1)


def _read_units(csv_path, columns):
    """``{column: unit}`` from the sidecar ``F.units.json`` beside ``F.csv`` (``hopsim run``
    writes it), ``{}`` without one. A sidecar that does not parse is warned about and ignored;
    the first column is in seconds whatever the sidecar says."""
    import json

    sidecar = csv_path.with_name(csv_path.stem + ".units.json")
    units = {}
    if sidecar.is_file():
        try:
            entries = json.loads(sidecar.read_text(encoding="utf-8"))
            units = {str(name): str(entry.get("unit", "")) for name, entry in entries.items()}
        except (OSError, ValueError, AttributeError) as error:
            print("hopsim: warning: ignoring the units sidecar '" + str(sidecar) + "': "
                  + str(error), file=sys.stderr)
            units = {}
    if columns:
        units[columns[0]] = "s"
    return units


def _whole_lines(csv_path):
    """The CSV to read: the file, or, when its status sidecar ``F.status.json`` says it is
    still being written (or its writer was killed) and it does not end on a newline, its text
    without the last line, a row cut short."""
    import io
    import json

    status = csv_path.with_name(csv_path.stem + ".status.json")
    try:
        running = json.loads(status.read_text(encoding="utf-8")).get("status") == "running"
    except (OSError, ValueError, AttributeError):
        running = False
    if not running:
        return csv_path
    text = csv_path.read_text(encoding="utf-8")
    return io.StringIO(text if text.endswith("\n") else text[:text.rfind("\n") + 1])


def _read_csv(csv_path):
    """The CSV as a DataFrame indexed by its first column (time) with ``attrs["units"]``."""
    import pandas

    try:
        frame = pandas.read_csv(_whole_lines(csv_path), index_col=0)
    except FileNotFoundError:
        _fail("cannot read '" + str(csv_path) + "': no such file")
    except pandas.errors.EmptyDataError:
        _fail("'" + str(csv_path) + "' is empty: nothing was logged (logging.variables "
              "names what a run logs)")
    except (OSError, UnicodeDecodeError, pandas.errors.ParserError) as error:
        _fail("cannot read '" + str(csv_path) + "' as CSV: " + str(error).strip())
    frame.index.name = str(frame.index.name)
    frame.attrs["units"] = _read_units(csv_path, [frame.index.name] + list(frame.columns))
    return frame


def _open_hdf5(h5py, path):
    """``path`` opened for reading. A file whose writer was killed, still marked as being
    written in SWMR mode, and one whose writer stopped at a failed write (the library then
    finds it shorter than it recorded) open for SWMR reading, as ``hopsim view`` opens them;
    the error is the plain open's when that fails too."""
    try:
        return h5py.File(path, "r")
    except OSError as error:
        try:
            return h5py.File(path, "r", swmr=True)
        except OSError:
            raise error from None


def _read_hdf5(path):
    """An HDF5 file of ``hopsim run --out F.h5`` as a DataFrame indexed by ``/time``, one column
    per CSV column (each dataset's ``columns`` attribute), with ``attrs["units"]`` from the
    datasets' ``unit`` attributes. Datasets come in name order."""
    try:
        import h5py
    except ImportError:
        _fail("reading '" + str(path) + "' needs h5py (Debian's python3-h5py)")
    import numpy
    import pandas

    def text(value):
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)

    data, units = {}, {}
    try:
        with _open_hdf5(h5py, path) as f:
            if not isinstance(f.get("time"), h5py.Dataset):
                _fail("'" + str(path) + "' has no /time dataset: not written by hopsim run")
            time = numpy.asarray(f["time"][()], dtype=float).reshape(-1)

            def visit(name, item):
                if not isinstance(item, h5py.Dataset) or name == "time":
                    return
                # While a file is written (or after its writer was killed) a dataset may hold
                # more rows than /time, which is written last: the samples are /time's.
                values = numpy.asarray(item[:len(time)], dtype=float).reshape(len(time), -1)
                names = [text(c) for c in item.attrs.get("columns", [])]
                if len(names) != values.shape[1]:
                    base = name.replace("/", ".")
                    names = [base] if values.shape[1] == 1 else [
                        base + "[" + str(i) + "]" for i in range(values.shape[1])]
                for i, column in enumerate(names):
                    data[column] = values[:, i]
                    units[column] = text(item.attrs.get("unit", ""))

            f.visititems(visit)
    except FileNotFoundError:
        _fail("cannot read '" + str(path) + "': no such file")
    except (OSError, ValueError, TypeError) as error:
        _fail("cannot read '" + str(path) + "' as HDF5: " + str(error))
    frame = pandas.DataFrame(data, index=pandas.Index(time, name="time"))
    frame.attrs["units"] = {"time": "s", **units}
    return frame


def _unit_groups(columns, units):
    """``columns`` grouped by unit, groups in the order of their first column; an unknown and a
    dimensionless unit (``""``, ``"1"``) share a group."""
    groups = {}
    for column in columns:
        unit = units.get(column, "")
        groups.setdefault("" if unit == "1" else unit, []).append(column)
    return list(groups.values())


def _csv_figure(csv_path, columns=None):
    """The figure of ``hopsim plot``: returns ``(figure, axes, groups)``, ``axes`` one per unit
    group of ``columns`` (None: every column), ``groups`` the column names of each. Fails
    (``hopsim: error: ...``, SystemExit(1)) on an unreadable CSV or an unknown column."""
    import pathlib

    csv_path = pathlib.Path(csv_path)
    hdf5 = csv_path.suffix.lower() in (".h5", ".hdf5")
    frame = _read_hdf5(csv_path) if hdf5 else _read_csv(csv_path)
    if columns:
        time_name = frame.index.name
        for column in columns:
            if column == time_name:
                _fail("'" + column + "' is the time axis: name the columns to plot against it")
            if column not in frame.columns:
                near = _near(column, [str(c) for c in frame.columns])
                hint = " (did you mean " + ", ".join("'" + n + "'" for n in near) + "?)" \
                    if near else ""
                _fail("no column '" + column + "' in '" + str(csv_path) + "'" + hint)
        columns = list(dict.fromkeys(columns))
    else:
        columns = [str(c) for c in frame.columns]
    if not columns:
        _fail("'" + str(csv_path) + "' has no column besides time: nothing to plot")
    if frame.empty:
        _fail("'" + str(csv_path) + "' has no samples: nothing to plot")

    groups = _unit_groups(columns, frame.attrs["units"])
    figure, axes = _pyplot().subplots(len(groups), 1, sharex=True, squeeze=False,
                                      figsize=(7.0, 1.0 + 2.2 * len(groups)))
    axes = [row[0] for row in axes]
    for ax, group in zip(axes, groups):
        time_series(frame, group, ax=ax)
        if ax is not axes[-1]:
            ax.set_xlabel("")
    axes[0].set_title(csv_path.name)
    return figure, axes, groups


def plot_csv(csv_path, columns=None, output=None, dpi=100):
    """Draws columns of a CSV written by ``hopsim run`` (or :meth:`Recorder.write_csv`) against
    its first column, time, and saves the figure; what ``hopsim plot`` does.

    The units come from the sidecar ``F.units.json`` beside ``F.csv`` when there is one. A name
    ending in ``.h5`` or ``.hdf5`` is read as the HDF5 file of ``hopsim run --out F.h5`` (with
    h5py), its units from the datasets' attributes. The
    columns (None: every one) are grouped by unit, one Axes per group, stacked with a shared
    time axis. ``output`` defaults to ``F.png`` beside the CSV. Returns ``(output, groups)``.
    Errors (unreadable CSV, unknown column, unwritable output) print ``hopsim: error: ...``
    and raise SystemExit(1).
    """
    import pathlib

    csv_path = pathlib.Path(csv_path)
    output = pathlib.Path(output) if output else csv_path.with_suffix(".png")
    _check_image_format(output)
    figure, _, groups = _csv_figure(csv_path, columns)
    pyplot = _pyplot()
    try:
        save(figure, output, dpi=dpi)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        _fail("cannot write '" + str(output) + "': " + reason)
    finally:
        pyplot.close(figure)
    return output, groups


def _check_image_format(output):
    """Fails unless ``output``'s extension names an image format matplotlib writes (without
    one, matplotlib would add ``.png`` to the name, so the file would not be where asked)."""
    _pyplot()  # the backend chosen before matplotlib.backend_bases is imported
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = output.suffix[1:].lower()
    if not suffix:
        _fail("plot -o '" + str(output) + "': no extension (expected FILE.png, FILE.pdf or "
              "FILE.svg)")
    if suffix not in formats:
        _fail("plot -o '" + str(output) + "': unknown extension '." + suffix + "' (expected "
              + ", ".join("." + f for f in sorted(formats)) + ")")


def _near(name, names):
    """The names in ``names`` nearest ``name`` (at most three), for "did you mean"."""
    import difflib

    return difflib.get_close_matches(name, names, n=3, cutoff=0.5)


def main(argv=None):
    """``python3 -m hopsim.plot FILE.csv|FILE.h5 [VARS...] [-o OUT.png] [--dpi N]``: see
    :func:`plot_csv`. Prints ``wrote OUT.png (...)`` on stdout; returns the exit status (0)."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):  # exit status 1 for a bad command line, as hopsim's
            self.print_usage(sys.stderr)
            _fail(message)

    parser = Parser(
        prog=os.environ.get("HOPSIM_PLOT_PROG", "python3 -m hopsim.plot"),
        description="Draws the columns of a CSV written by hopsim run against time, one panel "
                    "per unit (units from the F.units.json sidecar), and saves the figure.")
    parser.add_argument("file", help="the CSV file (time first, one column per scalar), or the "
                                     "HDF5 file (.h5, .hdf5) of hopsim run")
    parser.add_argument("vars", nargs="*", metavar="VARS",
                        help="columns to plot (default: every column)")
    parser.add_argument("-o", "--output",
                        help="the image: .png, .pdf or .svg (default: FILE with .png)")
    parser.add_argument("--dpi", type=int, default=100, help="resolution (default: 100)")
    args = parser.parse_args(argv)
    if args.dpi <= 0:
        _fail("--dpi must be positive, got " + str(args.dpi))
    output, groups = plot_csv(args.file, args.vars, args.output, dpi=args.dpi)
    count = sum(len(group) for group in groups)
    print("wrote " + str(output) + " (" + str(count) + " column" + ("s" if count != 1 else "")
          + " in " + str(len(groups)) + " panel" + ("s" if len(groups) != 1 else "") + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
