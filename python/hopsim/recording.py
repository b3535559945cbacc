"""Logging from Python: recorded variables as numpy arrays and pandas DataFrames.

:class:`Recorder` (from C++) samples variables of a running simulation into memory::

    sim.lock()
    rec = sim.record(["signals.x", "signals.v"], rate=100.0)   # or hopsim.Recorder(sim, ...)
    sim.advance_time_to(2.0)
    t, x = rec.times(), rec.values("signals.x")                 # numpy arrays
    df = rec.to_dataframe()                                     # pandas, indexed by time
    df.attrs["units"]["signals.x"]                              # 'm'

A loaded :class:`Scenario` records its ``logging`` section the same way
(``scenario.recorder``, ``scenario.to_dataframe()``).

pandas is imported only when a DataFrame is asked for, so ``import hopsim`` stays fast.
"""

from hopsim._hopsim import Recorder

Recorder.__module__ = "hopsim"

__all__ = ["Recorder", "dataframe", "units_of"]


def _recorder_of(source):
    """The Recorder behind ``source`` (a Recorder, or a Scenario's), or None for other objects."""
    if isinstance(source, Recorder):
        return source
    recorder = getattr(source, "recorder", None)
    return recorder if isinstance(recorder, Recorder) else None


def dataframe(source):
    """The samples of ``source`` (a :class:`Recorder` or a :class:`Scenario`) as a DataFrame.

    The index is the sample time in seconds, named ``"time"``; there is one float64 column per
    recorded column, in the recorder's order and with its names (``"signals.x"``,
    ``"multibody.bodies.b.Q[3]"``); bools read 0.0/1.0. The units are in
    ``df.attrs["units"]``, a dict from column name to unit with ``"time": "s"`` first (pandas
    keeps ``attrs`` through most operations, but not all: read them early). The values are
    copies: the recorder may keep recording. Raises TypeError for any other source.
    """
    recorder = _recorder_of(source)
    if recorder is None:
        raise TypeError(
            "dataframe: expected a hopsim.Recorder or a hopsim.Scenario, got "
            + type(source).__name__
        )
    import pandas  # here, not at module level: importing pandas takes a noticeable time

    table = recorder.to_numpy()
    frame = pandas.DataFrame(
        table[:, 1:],
        index=pandas.Index(table[:, 0], name="time"),
        columns=list(recorder.columns),
    )
    frame.attrs["units"] = dict(recorder.units)
    return frame


def units_of(source):
    """The units of ``source``'s columns as a dict ``{column: unit}``, ``"time"`` included.

    ``source`` is a :class:`Recorder`, a :class:`Scenario`, or a DataFrame made by
    :func:`dataframe` (its ``attrs["units"]``); a DataFrame without units gives ``{}``, so
    callers treat every unit as unknown. Raises TypeError for any other source.
    """
    recorder = _recorder_of(source)
    if recorder is not None:
        return dict(recorder.units)
    attrs = getattr(source, "attrs", None)
    if isinstance(attrs, dict) and hasattr(source, "columns"):
        return dict(attrs.get("units", {}))
    raise TypeError(
        "units_of: expected a hopsim.Recorder, a hopsim.Scenario or a pandas DataFrame, got "
        + type(source).__name__
    )
