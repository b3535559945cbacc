"""Progress of :meth:`Scenario.run`: a line rewritten in place on a terminal, a progress bar in a
Jupyter notebook, nothing elsewhere (a script whose stderr goes to a file stays quiet). tqdm
draws it when installed; otherwise the plain implementations below do. The text of each report
is the one ``hopsim run`` shows (``t = 1.23 / 5 s  wall 0.4 s  rate 3.1x  ETA 1.2 s``).
"""

import html
import sys

# How often a report is due: every 1 % of the run or this many seconds of wall time.
_FRACTION = 0.01
_WALL_INTERVAL = 0.5


def run(scenario, progress=None):
    """Runs ``scenario`` to its end time and returns its :class:`RunSummary`.

    ``progress``: None shows progress where someone sees it (a terminal, a notebook), False
    never, and a callable(done, line) is called with the share of the run done (0 to 1) and
    the report's text instead.
    """
    if progress is False:
        return scenario._run(None, _FRACTION, _WALL_INTERVAL)
    if callable(progress):
        return scenario._run(progress, _FRACTION, _WALL_INTERVAL)
    if progress is not None:
        raise TypeError("Scenario.run(progress=...): expected None, False or a callable "
                        f"(done, line), got {progress!r}")
    display = _display()
    if display is None:
        return scenario._run(None, _FRACTION, _WALL_INTERVAL)
    try:
        return scenario._run(display.update, _FRACTION, _WALL_INTERVAL)
    finally:
        display.close()


def _display():
    """The progress display for where this process shows its output, or None."""
    notebook = _in_notebook()
    if not notebook and not _isatty(sys.stderr):
        return None
    try:
        import tqdm.auto
    except ImportError:
        return _NotebookBar() if notebook else _TerminalLine(sys.stderr)
    return _TqdmBar(tqdm.auto.tqdm)


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _in_notebook():
    """Whether this runs in a Jupyter kernel (IPython's ZMQ shell)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = ipython.get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class _TerminalLine:
    """One line rewritten in place and cleared at the end."""

    def __init__(self, stream):
        self._stream = stream
        self._shown = False

    def update(self, done, line):
        self._stream.write("\r" + line + "\033[K")
        self._stream.flush()
        self._shown = True

    def close(self):
        if self._shown:
            self._stream.write("\r\033[K")
            self._stream.flush()


class _NotebookBar:
    """An HTML progress bar in the cell's output, updated in place, that stays when done."""

    def __init__(self):
        from IPython.display import HTML, display

        self._html = HTML
        self._handle = display(self._html(self._page(0.0, "")), display_id=True)

    def _page(self, done, line):
        return (f'<progress value="{done:.4f}" max="1" style="width: 40ex"></progress> '
                f"<code>{html.escape(line)}</code>")

    def update(self, done, line):
        self._handle.update(self._html(self._page(done, line)))

    def close(self):
        pass


class _TqdmBar:
    """tqdm's bar (its notebook widget in Jupyter), with the report's text after it."""

    def __init__(self, tqdm):
        self._bar = tqdm(total=1.0, bar_format="{l_bar}{bar}| {postfix}", leave=False)

    def update(self, done, line):
        self._bar.n = done
        self._bar.set_postfix_str(line)

    def close(self):
        self._bar.close()
