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
