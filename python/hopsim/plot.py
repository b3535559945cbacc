"""Plots of recorded variables with matplotlib.

Each helper takes what was recorded (a :class:`hopsim.Recorder`, a :class:`hopsim.Scenario` or a
DataFrame from :func:`hopsim.dataframe`), draws with the units in the axis labels, and returns
``(figure, axes)``, as ``matplotlib.pyplot.subplots`` does: ``axes`` is the one Axes of
:func:`time_series` and :func:`phase`, the list of Axes of :func:`stacked` and :func:`panels`.
A script customises them, then passes the pair (or the figure) to :func:`save`::

    import hopsim.plot

    figure, axes = hopsim.plot.panels(rec)      # one panel per body, quantity and unit
    axes[0].set_title("mass-spring-damper")
    hopsim.plot.save((figure, axes), "msd.png")

One y axis carries one unit: :func:`time_series` draws columns of one unit, :func:`panels` and
:func:`stacked` give each unit its own Axes. matplotlib is imported on the first plot, not by
``import hopsim``. Without a display (no ``DISPLAY`` or ``WAYLAND_DISPLAY`` on Linux, and no
``MPLBACKEND`` chosen) the non-interactive Agg backend is selected, so run scripts plot on
servers and in tests.
"""

import fnmatch
import math
import os
import sys

from hopsim import _plot_panels
from hopsim._plot_panels import MAX_CURVES, MAX_PANELS, RANGE_RATIO
from hopsim.recording import Recorder, dataframe, units_of

__all__ = ["MAX_CURVES", "MAX_PANELS", "RANGE_RATIO", "panels", "phase", "save", "stacked",
           "time_series"]


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


def _near(name, names):
    """The names in ``names`` nearest ``name`` (at most three), for "did you mean"."""
    import difflib

    return difflib.get_close_matches(name, names, n=3, cutoff=0.5)


def _check_column(frame, column):
    """Raises hopsim.InputError naming ``column`` and the nearest recorded names if it is absent."""
    if column in frame.columns:
        return
    from hopsim import InputError

    near = _near(str(column), [str(c) for c in frame.columns])
    hint = " (did you mean " + ", ".join("'" + n + "'" for n in near) + "?)" if near else ""
    raise InputError("plot: no recorded column '" + str(column) + "'" + hint)


def _pattern_matches(pattern, names):
    """The names ``pattern`` matches when it has ``*`` or ``?`` (``multibody.bodies.arm.*``; a
    ``[`` stands for itself, as in ``Q[0]``); None for a plain name."""
    if "*" not in pattern and "?" not in pattern:
        return None
    literal = pattern.replace("[", "[[]")
    return [n for n in names if fnmatch.fnmatchcase(n, literal)]


def _matching(frame, pattern):
    """The columns ``pattern`` names: itself, or those it matches (:func:`_pattern_matches`)."""
    found = _pattern_matches(pattern, [str(c) for c in frame.columns])
    if found is None:
        _check_column(frame, pattern)
        return [pattern]
    if not found:
        from hopsim import InputError

        raise InputError("plot: '" + pattern + "' matches no recorded column")
    return found


def _columns(frame, columns, caller):
    """The columns to draw: every column for None; names and patterns (``*``, ``?``) each
    checked, in the order given, each column once."""
    if columns is None:
        columns = [str(c) for c in frame.columns]
    elif isinstance(columns, str):
        columns = [columns]
    if not columns:
        raise ValueError(f"{caller}: no columns to plot")
    found = []
    for pattern in columns:
        found.extend(_matching(frame, pattern))
    return list(dict.fromkeys(found))


def _unit(units, column):
    """The unit of ``column``, ``""`` when unknown or dimensionless (``"1"``)."""
    unit = units.get(column, "")
    return "" if unit == "1" else unit


def _label(name, unit):
    """``"name [unit]"``, or the bare name when the unit is unknown or dimensionless."""
    return name + " [" + unit + "]" if unit and unit != "1" else name


def _axes(ax):
    """``ax``, or the Axes of a new figure."""
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots()
    return ax


def _legend(ax):
    """A legend beside the Axes, outside the curves, when it has more than one line (placed,
    not searched for: ``loc="best"`` is slow on long runs and matplotlib warns about it)."""
    if len(ax.get_lines()) > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                  borderaxespad=0.0)


def _draw(ax, frame, columns, units, labels=None, **line_options):
    """Draws ``columns`` (of one unit) against time on ``ax`` and labels it."""
    times = frame.index.to_numpy()
    for column, label in zip(columns, labels or columns):
        ax.plot(times, frame[column].to_numpy(), label=label, **line_options)
    ax.set_xlabel(_label("time", units.get("time", "s")))
    unit = _unit(units, columns[0])
    ax.set_ylabel(_label(columns[0], unit) if len(columns) == 1 else
                  "[" + unit + "]" if unit else "")
    _legend(ax)
    ax.grid(True, alpha=0.3)


def time_series(source, columns=None, ax=None, **line_options):
    """Draws recorded columns of one unit against time on one Axes; returns ``(figure, ax)``.

    ``source``: a Recorder, a Scenario or a DataFrame indexed by time (:func:`hopsim.dataframe`).
    ``columns``: one column name or pattern (``signals.*``) or a list of them (None: every
    column). ``ax``: the Axes to draw on (None: a new figure). ``line_options`` go to
    ``Axes.plot`` for every line (``marker="."``, ``linewidth=1``). The x label is
    ``time [s]``; the y label is the column and its unit for one column (``signals.x [m]``),
    else the unit (``[m]``) with a legend beside the Axes. Columns of different units raise
    :class:`hopsim.InputError` (an angle and a torque on one axis read as nothing:
    :func:`panels` or :func:`stacked` give each unit its own Axes), as does an unknown column,
    with the nearest names.
    """
    frame, units = _frame(source)
    columns = _columns(frame, columns, "time_series")
    distinct = list(dict.fromkeys(_unit(units, c) for c in columns))
    if len(distinct) > 1:
        from hopsim import InputError

        first = {u: next(c for c in columns if _unit(units, c) == u) for u in distinct}
        raise InputError(
            "time_series draws one unit per Axes, and these columns have "
            + str(len(distinct)) + " (" + ", ".join(
                "'" + first[u] + "' in " + (u or "no unit") for u in distinct)
            + "); hopsim.plot.panels or hopsim.plot.stacked gives each unit its own Axes")
    ax = _axes(ax)
    _draw(ax, frame, columns, units, **line_options)
    return ax.figure, ax


def stacked(source, columns=None, **line_options):
    """Draws each column against time on its own Axes, one above the other, sharing the time
    axis.

    ``source`` and ``columns`` as for :func:`time_series` (None: every column). Each Axes has
    the column and its unit as y label (``signals.torque [N*m]``); the bottom one has
    ``time [s]``. Returns ``(figure, axes)``, ``axes`` a list in column order. An unknown column
    raises :class:`hopsim.InputError` with the nearest names.
    """
    frame, units = _frame(source)
    columns = _columns(frame, columns, "stacked")
    figure, axes = _pyplot().subplots(len(columns), 1, sharex=True, squeeze=False,
                                      figsize=(6.4, 1.0 + 1.6 * len(columns)))
    axes = [row[0] for row in axes]
    for ax, column in zip(axes, columns):
        _draw(ax, frame, [column], units, **line_options)
        if ax is not axes[-1]:
            ax.set_xlabel("")
    return figure, axes


def _curve_label(column, title):
    """A column's legend entry: its name without the panel's owner (``position.x`` under
    ``bodies.crank positions``), so that the legend stays narrow."""
    owner = _plot_panels.describe(column)[0]
    return column[len(owner) + 1:] if owner and title.startswith(owner + " ") else column


def _grid(count):
    """``(rows, columns)`` of a grid of ``count`` panels: one column up to four panels, two
    up to twelve, then three."""
    across = 1 if count <= 4 else 2 if count <= 12 else 3
    return math.ceil(count / across), across


def _plan(frame, units, columns, max_curves, range_ratio, max_panels):
    """The panels for ``columns`` and the notes on what was split or left out."""
    values = {c: frame[c].to_numpy(dtype=float) for c in columns}
    plan, notes = _plot_panels.plan(columns, units, values, max_curves, range_ratio)
    if len(plan) > max_panels:
        left = plan[max_panels:]
        names = [p.title or p.columns[0] for p in left]
        notes.append(
            "drew the first " + str(max_panels) + " of " + str(len(plan)) + " panels; left "
            "out " + str(sum(len(p.columns) for p in left)) + " columns (" + ", ".join(names[:4])
            + (", ..." if len(names) > 4 else "") + "): name the columns to draw, patterns "
            "allowed ('" + _pattern_hint(left[0].columns[0]) + "')")
        plan = plan[:max_panels]
    return plan, notes


def _pattern_hint(column):
    """A pattern naming ``column``'s owner, for the note on panels left out."""
    owner = _plot_panels.describe(column)[0]
    return owner + ".*" if owner else column


def _draw_panels(frame, units, plan, title=None, **line_options):
    """The figure of ``plan``: one Axes per panel in a grid, sharing time."""
    rows, across = _grid(len(plan))
    figure, grid = _pyplot().subplots(rows, across, sharex=True, squeeze=False,
                                      layout="constrained",
                                      figsize=(6.8 * across, 0.8 + 2.1 * rows))
    cells = [ax for row in grid for ax in row]
    axes = cells[:len(plan)]
    for ax in cells[len(plan):]:
        figure.delaxes(ax)
    for ax, panel in zip(axes, plan):
        labels = [_curve_label(c, panel.title) for c in panel.columns]
        _draw(ax, frame, panel.columns, units, labels, **line_options)
        if panel.title and len(panel.columns) > 1:
            ax.set_title(panel.title, fontsize="medium")
    # The time axis is labelled under the last panel of each grid column.
    for i, ax in enumerate(axes):
        last = i + across >= len(axes)
        ax.xaxis.set_tick_params(labelbottom=last)
        if not last:
            ax.set_xlabel("")
    if title:
        figure.suptitle(title)
    return figure, axes


def panels(source, columns=None, max_curves=MAX_CURVES, range_ratio=RANGE_RATIO,
           max_panels=MAX_PANELS, notes=True, **line_options):
    """Draws recorded columns against time in panels that read: what ``hopsim plot`` draws.

    Columns are grouped by owner and kind of quantity (a body's positions, orientations,
    velocities, a hinge's coordinates) and unit; other columns by unit. Each panel has one
    unit on its y axis, at most ``max_curves`` curves (:data:`MAX_CURVES`), and no curve whose
    range is below 1/``range_ratio`` of the panel's y range (:data:`RANGE_RATIO`: a 20 kg fuel
    load is not drawn flat beside a 1000 kg mass); a group that breaks either rule is split
    into more panels. At most ``max_panels`` panels (:data:`MAX_PANELS`) are drawn, in a grid
    sharing the time axis; the rest are left out. ``notes``: print a line ``note: ...`` on
    stdout for every group split and for panels left out (False: silent).

    ``source`` and ``columns`` (names and patterns) as for :func:`time_series`. Returns
    ``(figure, axes)``, ``axes`` a list with one Axes per panel.
    """
    frame, units = _frame(source)
    columns = _columns(frame, columns, "panels")
    plan, messages = _plan(frame, units, columns, max_curves, range_ratio, max_panels)
    if notes:
        for message in messages:
            print("note: " + message)
    return _draw_panels(frame, units, plan, **line_options)


def phase(source, x, y, ax=None, **line_options):
    """Draws column ``y`` against column ``x`` (a phase portrait, a path in a plane).

    ``source`` as for :func:`time_series`; ``x`` and ``y`` are column names (``"time"`` allowed).
    The axis labels carry the units (``signals.x [m]``, ``signals.v [m/s]``); the start is
    marked with a dot. Returns ``(figure, ax)``. An unknown column raises
    :class:`hopsim.InputError`.
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
    return ax.figure, ax


def _figure_of(plot):
    """The Figure of what a helper returned (``(figure, axes)``), a Figure, an Axes or a list
    of Axes of one figure; None for anything else."""
    if isinstance(plot, tuple) and len(plot) == 2:
        plot = plot[0]
    elif isinstance(plot, list) and plot:
        plot = plot[0]
    figure = getattr(plot, "figure", plot)
    return figure if hasattr(figure, "savefig") else None


def save(plot, path, dpi=100):
    """Writes a figure to ``path``: ``plot`` is what a helper returned, ``(figure, axes)``, or
    a Figure or one of its Axes.

    The format follows the extension (``.png``, ``.pdf``, ``.svg``). A figure without a layout
    of its own is laid out tightly first; it stays open (close it with
    ``matplotlib.pyplot.close`` when drawing many). Returns ``path``. Anything else raises
    TypeError; a file that cannot be written raises OSError naming it.
    """
    figure = _figure_of(plot)
    if figure is None:
        raise TypeError("save: expected what a hopsim.plot helper returns, (figure, axes), or "
                        "a matplotlib Figure or Axes, got " + type(plot).__name__)
    if figure.get_layout_engine() is None:
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
                # ``units`` has each column's unit (a FULL6DOF hinge's Q mixes "1" and "m");
                # files without it have the one ``unit`` of every column.
                each = [text(u) for u in item.attrs.get("units", [])]
                if len(each) != values.shape[1]:
                    each = [text(item.attrs.get("unit", ""))] * values.shape[1]
                for i, column in enumerate(names):
                    data[column] = values[:, i]
                    units[column] = each[i]

            f.visititems(visit)
    except FileNotFoundError:
        _fail("cannot read '" + str(path) + "': no such file")
    except (OSError, ValueError, TypeError) as error:
        _fail("cannot read '" + str(path) + "' as HDF5: " + str(error))
    frame = pandas.DataFrame(data, index=pandas.Index(time, name="time"))
    frame.attrs["units"] = {"time": "s", **units}
    return frame


def _csv_figure(csv_path, columns=None):
    """The figure of ``hopsim plot``: returns ``(figure, axes, groups, notes)``, ``axes`` one per
    panel of ``columns`` (None: every column; names or patterns), ``groups`` the column names
    of each panel, ``notes`` what was split or left out (:func:`panels`). Fails
    (``hopsim: error: ...``, SystemExit(1)) on an unreadable CSV or an unknown column."""
    import pathlib

    csv_path = pathlib.Path(csv_path)
    hdf5 = csv_path.suffix.lower() in (".h5", ".hdf5")
    frame = _read_hdf5(csv_path) if hdf5 else _read_csv(csv_path)
    if columns:
        time_name = frame.index.name
        found = []
        for column in columns:
            if column == time_name:
                _fail("'" + column + "' is the time axis: name the columns to plot against it")
            names = [str(c) for c in frame.columns]
            matched = _pattern_matches(column, names)
            if matched is not None:
                if not matched:
                    _fail("'" + column + "' matches no column of '" + str(csv_path) + "'")
                found.extend(matched)
            elif column not in frame.columns:
                near = _near(column, names)
                hint = " (did you mean " + ", ".join("'" + n + "'" for n in near) + "?)" \
                    if near else ""
                _fail("no column '" + column + "' in '" + str(csv_path) + "'" + hint)
            else:
                found.append(column)
        columns = list(dict.fromkeys(found))
    else:
        columns = [str(c) for c in frame.columns]
    if not columns:
        _fail("'" + str(csv_path) + "' has no column besides time: nothing to plot")
    if frame.empty:
        _fail("'" + str(csv_path) + "' has no samples: nothing to plot")

    units = frame.attrs["units"]
    plan, notes = _plan(frame, units, columns, MAX_CURVES, RANGE_RATIO, MAX_PANELS)
    figure, axes = _draw_panels(frame, units, plan, title=csv_path.name)
    return figure, axes, [p.columns for p in plan], notes


def plot_csv(csv_path, columns=None, output=None, dpi=100):
    """Draws columns of a CSV written by ``hopsim run`` (or :meth:`Recorder.write_csv`) against
    its first column, time, and saves the figure; what ``hopsim plot`` does.

    The units come from the sidecar ``F.units.json`` beside ``F.csv`` when there is one. A name
    ending in ``.h5`` or ``.hdf5`` is read as the HDF5 file of ``hopsim run --out F.h5`` (with
    h5py), its units from the datasets' attributes. The columns (None: every one; names or
    patterns such as ``'bodies.crank.*'``) are drawn in panels as :func:`panels` draws them.
    ``output`` defaults to ``F.png`` beside the CSV. Returns ``(output, groups, notes)``,
    ``groups`` the columns of each panel, ``notes`` the sentences on groups split and panels
    left out. Errors (unreadable CSV, unknown column, unwritable output) print
    ``hopsim: error: ...`` and raise SystemExit(1).
    """
    import pathlib

    csv_path = pathlib.Path(csv_path)
    output = pathlib.Path(output) if output else csv_path.with_suffix(".png")
    _check_image_format(output)
    figure, _, groups, notes = _csv_figure(csv_path, columns)
    pyplot = _pyplot()
    try:
        save(figure, output, dpi=dpi)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        _fail("cannot write '" + str(output) + "': " + reason)
    finally:
        pyplot.close(figure)
    return output, groups, notes


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
        description="Draws the columns of a CSV written by hopsim run against time, in panels "
                    "by body, quantity and unit (units from the F.units.json sidecar), and "
                    "saves the figure.")
    parser.add_argument("file", help="the CSV file (time first, one column per scalar), or the "
                                     "HDF5 file (.h5, .hdf5) of hopsim run")
    parser.add_argument("vars", nargs="*", metavar="VARS",
                        help="columns to plot, names or patterns with * and ? (default: every "
                             "column)")
    parser.add_argument("-o", "--output",
                        help="the image: .png, .pdf or .svg (default: FILE with .png)")
    parser.add_argument("--dpi", type=int, default=100, help="resolution (default: 100)")
    args = parser.parse_args(argv)
    if args.dpi <= 0:
        _fail("--dpi must be positive, got " + str(args.dpi))
    output, groups, notes = plot_csv(args.file, args.vars, args.output, dpi=args.dpi)
    for note in notes:
        print("note: " + note)
    count = sum(len(group) for group in groups)
    print("wrote " + str(output) + " (" + str(count) + " column" + ("s" if count != 1 else "")
          + " in " + str(len(groups)) + " panel" + ("s" if len(groups) != 1 else "") + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
