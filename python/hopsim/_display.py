"""How hopsim's objects show in a notebook (``_repr_html_``) and at the prompt (``__repr__``):
a :class:`Simulation` with its models in calling order, its signals and bodies; a
:class:`Scenario` with its file, times and recording; a :class:`Recorder` with its columns,
units and a preview of its samples. Tables are cut to a readable size, and say so.
"""

import html

import numpy as np

# Rows of a table shown before "... and N more"; preview samples at each end of a recording.
_MAX_ROWS = 30
_MAX_COLUMNS = 8
_PREVIEW_SAMPLES = 3


def _text(value):
    return html.escape(str(value))


def _table(header, rows, total=None, what="rows"):
    """An HTML table of ``rows`` (lists of cells, already HTML) under ``header``; when there
    were ``total`` rows and fewer are shown, a last line says how many more."""
    cells = "".join(f"<th style='text-align:left'>{_text(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td style='text-align:left'>{c}</td>" for c in row)
                   + "</tr>" for row in rows)
    more = ""
    if total is not None and total > len(rows):
        more = f"<p><i>... and {total - len(rows)} more {what}</i></p>"
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>{more}"


def _number(value):
    """A value as a short text: 6 significant digits, vectors in brackets, cut after 6."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, float, np.integer, np.floating)):
        return f"{value:.6g}"
    if isinstance(value, np.ndarray) or isinstance(value, (list, tuple)):
        items = list(value)
        shown = ", ".join(_number(v) for v in items[:6])
        return "[" + shown + (", ..." if len(items) > 6 else "") + "]"
    return str(value)


def _unit(unit):
    return f" [{unit}]" if unit else ""


# ---- Simulation -----------------------------------------------------------------------------

def _models(sim):
    """``(name, class, kind)`` of every model: in calling order when locked (the FlowModels,
    then the ContinuousModels), else in creation order."""
    if sim.locked():
        order = sim.model_order()
        named = [(n, "flow") for n in order.flow_models] + \
                [(n, "continuous") for n in order.continuous_models]
    else:
        named = [(n, "") for n in sim.model_names()]
    return [(name, sim.model_spec(name).class_name, kind) for name, kind in named]


def _signal_rows(sim, names):
    rows = []
    for name in names:
        info = sim.variable_info("signals." + name)
        rows.append([_text(name), _text(_number(sim.get("signals." + name))), _text(info.unit)])
    return rows


def simulation_html(sim):
    models = _models(sim)
    signals = sim.signal_names()
    bodies = sim.multibody.body_names()
    state = "locked: models in calling order" if sim.locked() else \
        "unlocked: models in creation order"
    parts = [f"<p><b>hopsim.Simulation</b> at t = {sim.time():.6g} s, {sim.hop_count()} hops "
             f"({state})</p>"]
    parts.append(f"<details open><summary>{len(models)} models</summary>")
    parts.append(_table(["#", "model", "class", "kind"],
                        [[str(i + 1), _text(n), _text(c), _text(k)]
                         for i, (n, c, k) in enumerate(models[:_MAX_ROWS])],
                        len(models), "models"))
    parts.append("</details>")
    parts.append(f"<details><summary>{len(signals)} signals</summary>")
    parts.append(_table(["signal", "value", "unit"], _signal_rows(sim, signals[:_MAX_ROWS]),
                        len(signals), "signals"))
    parts.append("</details>")
    if bodies:
        parts.append(f"<details><summary>{len(bodies)} bodies</summary>")
        parts.append(_table(["body"], [[_text(b)] for b in bodies[:_MAX_ROWS]], len(bodies),
                            "bodies"))
        parts.append("</details>")
    return "".join(parts)


# ---- Recorder -------------------------------------------------------------------------------

def recorder_html(recorder):
    columns = list(recorder.columns)
    units = recorder.units
    parts = [f"<p><b>hopsim.Recorder</b>: {len(columns)} columns, {recorder.rows} samples</p>"]
    shown = columns[:_MAX_COLUMNS]
    header = ["time [s]"] + [c + _unit(units.get(c, "")) for c in shown]
    table = recorder.to_numpy() if recorder.rows else np.empty((0, len(columns) + 1))
    if table.shape[0] > 2 * _PREVIEW_SAMPLES:
        picked = list(range(_PREVIEW_SAMPLES)) + \
            list(range(table.shape[0] - _PREVIEW_SAMPLES, table.shape[0]))
    else:
        picked = list(range(table.shape[0]))
    rows = []
    for k, row in enumerate(picked):
        if k == _PREVIEW_SAMPLES and len(picked) < table.shape[0]:
            rows.append(["..."] * len(header))
        rows.append([_text(_number(v)) for v in table[row, :len(shown) + 1]])
    parts.append(_table(header, rows))
    if len(columns) > len(shown):
        parts.append(f"<p><i>... and {len(columns) - len(shown)} more columns: "
                     f"{_text(', '.join(columns[len(shown):len(shown) + 20]))}"
                     f"{', ...' if len(columns) > len(shown) + 20 else ''}</i></p>")
    return "".join(parts)


# ---- Scenario -------------------------------------------------------------------------------

def scenario_repr(scenario):
    sim = scenario.sim
    return (f"<hopsim.Scenario '{scenario.file}': t = {sim.time():.6g} s of {scenario.end_time:.6g}"
            f" s, {len(sim.model_names())} models, {len(sim.signal_names())} signals, "
            f"{len(scenario.columns)} recorded columns, {len(scenario.warnings)} warnings>")


def scenario_html(scenario):
    sim = scenario.sim
    parts = [f"<p><b>hopsim.Scenario</b> <code>{_text(scenario.file)}</code>: t = "
             f"{sim.time():.6g} s of {scenario.end_time:.6g} s</p>"]
    if scenario.warnings:
        parts.append("<details open><summary>{} warnings</summary><ul>{}</ul></details>".format(
            len(scenario.warnings), "".join(f"<li>{_text(w)}</li>" for w in scenario.warnings)))
    parts.append(simulation_html(sim))
    parts.append(recorder_html(scenario.recorder))
    return "".join(parts)


# ---- campaign results -----------------------------------------------------------------------

def results_repr(results):
    summary = results.summary()
    return (f"<hopsim.CampaignResults {summary['runs']} runs, {summary['failures']} failed, "
            f"outputs {', '.join(summary['outputs']) or 'none'}>")


def results_html(results, statistics):
    summary = results.summary()
    parts = [f"<p><b>hopsim.CampaignResults</b>: {summary['runs']} runs, "
             f"{summary['failures']} failed</p>"]
    rows = [[_text(name), _text(results.unit(name)), str(stats["count"])] +
            [_text(f"{stats[s]:.6g}") if s in stats else "-" for s in statistics]
            for name, stats in summary["outputs"].items()]
    parts.append(_table(["output", "unit", "count"] + list(statistics), rows))
    failed = np.flatnonzero(~results.ok)
    if failed.size:
        parts.append(_table(["failed run", "error"],
                            [[str(run), _text(results.errors[run])] for run in failed[:_MAX_ROWS]],
                            int(failed.size), "failed runs"))
    return "".join(parts)
