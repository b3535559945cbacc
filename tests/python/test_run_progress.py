"""Scenario.run(): its progress reports (terminal, notebook, a callable) and the RunSummary it
returns, whose counts are those `hopsim run` prints for the same file."""

import io
import pathlib
import re
import subprocess
import sys
import types

import pytest

import hopsim
from hopsim import _progress

HOPSIM = pathlib.Path(hopsim.__file__).resolve().parents[2] / "apps" / "hopsim"
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
# Stops at touchdown, t = 3.11504 s of its 10 s: one event fired, one zero crossing.
TOUCHDOWN = EXAMPLES / "lander_touchdown.yaml"
LINE = re.compile(r"t = [0-9.e+-]+ / 10 s  wall [0-9.e+-]+ s  rate ([0-9.e+-]+x|-)  "
                  r"ETA ([0-9.e+-]+ s|-)")


def test_run_returns_a_summary_with_the_counts_hopsim_run_prints():
    summary = hopsim.load(TOUCHDOWN).run(progress=False)
    assert isinstance(summary, hopsim.RunSummary)
    assert summary.simulated_time == pytest.approx(3.11504, abs=5e-6)
    assert summary.wall_time > 0
    assert summary.events_fired == 1 and summary.zero_crossings == 1 and summary.warnings == 0
    assert summary.hops > 0 and summary.derivative_evaluations > summary.hops
    text = str(summary)
    assert re.fullmatch(r"simulated 3\.11504 s in [0-9.e+-]+ s wall time \([0-9.e+]+x real "
                        r"time\); .*", text), text
    assert f"; {summary.hops} hops, " in text
    assert f", {summary.derivative_evaluations} derivative evaluations, 1 event fired, " \
           "1 zero crossing, 0 warnings" in text
    assert repr(summary) == f"<hopsim.RunSummary: {text}>"
    # The CLI's line for the same file, from its counts on: the same hops, steps, evaluations.
    cli = subprocess.run([str(HOPSIM), "run", str(TOUCHDOWN), "--progress-interval", "1e9"],
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    cli_summary = cli.splitlines()[-1]
    assert cli_summary.split("); ", 1)[1] == text.split("); ", 1)[1]


def test_a_callable_receives_the_reports_and_a_last_one_where_the_run_stopped():
    reports = []
    summary = hopsim.load(TOUCHDOWN).run(progress=lambda done, line: reports.append((done, line)))
    dones = [done for done, _ in reports]
    assert dones == sorted(dones) and len(reports) >= 31  # every 1 % of 10 s up to 3.1 s
    assert dones[-1] == pytest.approx(summary.simulated_time / 10.0)
    for _, line in reports:
        assert LINE.fullmatch(line), line
    assert reports[-1][1].startswith("t = 3.12 / 10 s  ")


def test_a_run_with_progress_gives_the_results_of_one_without():
    quiet, watched = hopsim.load(TOUCHDOWN), hopsim.load(TOUCHDOWN)
    quiet.run(progress=False)
    watched.run(progress=lambda done, line: None)
    assert quiet.sim.time() == watched.sim.time()
    for column in quiet.columns:
        assert (quiet.values(column) == watched.values(column)).all()


def test_an_exception_from_the_callable_stops_the_run_and_propagates():
    scenario = hopsim.load(TOUCHDOWN)

    def interrupt(done, line):
        if done > 0.1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        scenario.run(progress=interrupt)
    stopped = scenario.sim.time()
    assert 1.0 <= stopped < 1.5
    # The progress callback went with the run: the scenario runs on, reporting afresh from there.
    reports = []
    scenario.run(progress=lambda done, line: reports.append(done))
    assert reports[-1] == pytest.approx((3.11504 - stopped) / (10.0 - stopped), abs=1e-6)


def test_progress_must_be_none_false_or_a_callable():
    with pytest.raises(TypeError, match=r"expected None, False or a callable \(done, line\), "
                                        r"got 'yes'"):
        hopsim.load(TOUCHDOWN).run(progress="yes")


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_on_a_terminal_one_line_is_rewritten_and_cleared(monkeypatch):
    terminal = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    hopsim.load(TOUCHDOWN).run()
    text = terminal.getvalue()
    assert text.startswith("\rt = ") and text.endswith("\r\033[K")
    lines = text.split("\r")[1:-1]
    assert len(lines) >= 31 and all(LINE.fullmatch(line[:-3]) for line in lines)


def test_elsewhere_run_shows_nothing(capfd):
    hopsim.load(TOUCHDOWN).run()
    assert capfd.readouterr().err == ""


def test_in_a_notebook_a_bar_is_updated_in_place(monkeypatch):
    # IPython as a Jupyter kernel presents itself: a ZMQInteractiveShell, and display handles.
    updates = []

    class Handle:
        def update(self, page):
            updates.append(page)

    class ZMQInteractiveShell:
        pass

    display = types.ModuleType("IPython.display")
    display.HTML = lambda text: text
    display.display = lambda page, display_id: Handle()
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = ZMQInteractiveShell
    ipython.display = display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the plain bar, tqdm installed or not
    hopsim.load(TOUCHDOWN).run()
    assert len(updates) >= 31
    assert re.fullmatch(r'<progress value="0\.3115" max="1" style="width: 40ex"></progress> '
                        r"<code>t = 3\.12 / 10 s  wall .*</code>", updates[-1])
    assert _progress._in_notebook()
