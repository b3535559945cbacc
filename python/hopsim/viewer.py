"""3D replay pages of runs (docs/viewer.md): one self-contained HTML file per run that opens in
any browser, offline, and inline in Jupyter::

    scenario = hopsim.load("examples/slider_crank.yaml")
    scenario.run()
    hopsim.view(scenario)  # slider_crank.html; in Jupyter, the page itself

A native scenario or a Simulation built in Python records its bodies' poses with
:func:`view_recorder` (a Chrono or MBSE file's own logging already holds them)::

    page_recorder = hopsim.view_recorder(sim, rate=50.0)
    sim.advance_time_to(10.0)
    hopsim.view(sim, "pendulum.html", recorder=page_recorder)
"""

import html
import os

from hopsim import _hopsim
from hopsim._hopsim import Scenario, Simulation, view_recorder

__all__ = ["ReplayPage", "view", "view_recorder"]


class ReplayPage(str):
    """The path of a replay page; Jupyter shows the page itself (an iframe of it)."""

    def _repr_html_(self):
        with open(self, encoding="utf-8") as page:
            text = page.read()
        return (
            '<iframe style="width: 100%; height: 640px; border: 0" srcdoc="'
            + html.escape(text, quote=True)
            + '"></iframe>'
        )


def _default_path(run):
    if isinstance(run, Scenario):
        return os.path.splitext(os.path.basename(run.file))[0] + ".html"
    if isinstance(run, Simulation):
        return "hopsim_replay.html"
    return os.path.splitext(os.fspath(run))[0] + ".html"


def view(run, path=None, *, recorder=None, assemblies=None):
    """Writes the replay page of ``run`` and returns its path as a :class:`ReplayPage`.

    ``run`` is a :class:`Scenario` (it replays ``recorder``, else the scenario's own logging),
    a :class:`Simulation` with the :class:`Recorder` to replay as ``recorder`` (and, to draw
    the shapes of Chrono model files added through assemblies, the ``assemblies`` tree), or the
    path of a recording written by ``hopsim run`` (a CSV file with its ``.scene.json``, or an
    HDF5 file). ``path`` defaults to the recording's name, the scenario file's name (in the
    current directory) or ``hopsim_replay.html``, with ``.html``.

    Raises :class:`InputError` when the recording lacks the bodies' poses (record them with
    :func:`view_recorder`) or the page cannot be written.
    """
    if not isinstance(run, (Scenario, Simulation, str, os.PathLike)):
        raise TypeError("view: expected a Scenario, a Simulation or the path of a recording, "
                        f"got {type(run).__name__}")
    page = os.fspath(path) if path is not None else _default_path(run)
    if isinstance(run, Scenario):
        if assemblies is not None:
            raise TypeError("view(scenario): the scenario's own assemblies are drawn; "
                            "pass assemblies= only with a Simulation")
        _hopsim._write_replay_page(page, run, recorder)
    elif isinstance(run, Simulation):
        if recorder is None:
            raise TypeError("view(sim) needs recorder=: the Recorder of the run to replay, "
                            "e.g. hopsim.view_recorder(sim) started before running")
        _hopsim._write_replay_page(page, run, recorder, assemblies)
    else:
        if recorder is not None or assemblies is not None:
            raise TypeError("view(recording file): the file holds the recording and its scene; "
                            "recorder= and assemblies= do not apply")
        _hopsim._write_replay_page_of_recording(os.fspath(run), page)
    return ReplayPage(page)
