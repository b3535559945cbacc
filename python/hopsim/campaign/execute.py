"""One run of a campaign, as a worker executes it: a fresh simulation of the scenario with the
run's overrides, the applied values read back, the run, and what the campaign records.

Everything here is a module-level function of plain data (paths, dicts, floats), so that Dask
pickles it by reference and a worker on another machine imports the same code.
"""

import math
import re
import time

import numpy as np

_ELEMENT = re.compile(r"^(.*)\[(\d+)\]$")


def split_element(path):
    """``"a.b[2]"`` -> ``("a.b", 2)``; ``"a.b"`` -> ``("a.b", None)``."""
    found = _ELEMENT.match(path)
    return (found.group(1), int(found.group(2))) if found else (path, None)


def read_value(sim, path):
    """The float at ``path`` (``path[i]`` for an element of a vector variable)."""
    base, element = split_element(path)
    value = sim.get(base)
    if element is None:
        if isinstance(value, np.ndarray):
            raise ValueError(f"'{path}' is a vector of {value.size} elements; "
                             f"give one element, '{path}[i]'")
        return float(value)
    if not isinstance(value, np.ndarray) or element >= value.size:
        size = value.size if isinstance(value, np.ndarray) else 1
        raise ValueError(f"'{path}': element {element} of a variable of {size} "
                         f"element{'s' if size != 1 else ''}")
    return float(value[element])


def units_of(sim, paths):
    """``{path: unit}`` of each ``path`` (``path[i]`` for an element) as a recorder column of
    it is labelled; "" for a dimensionless value or a path the simulation cannot record (an
    assembly's param, which exists only while the scenario loads)."""
    units = {}
    for path in paths:
        try:
            recorder = sim.record([], rate=1.0, columns={"value": path})
            units[path] = dict(recorder.units).get("value", "")
        except Exception:  # noqa: BLE001 - any path the recorder refuses has no unit to show
            units[path] = ""
    return units


def run_overrides(fixed, parameters, base_vectors):
    """The overrides of one run: the campaign's fixed ones, then each dispersed value; the
    elements of one vector variable are written into a copy of its base value (read from the
    scenario with the fixed overrides) and given as the whole vector."""
    overrides = dict(fixed)
    vectors = {}
    for path, value in parameters.items():
        base, element = split_element(path)
        if element is None:
            overrides[path] = value
        else:
            vector = vectors.setdefault(base, list(base_vectors[base]))
            vector[element] = value
    overrides.update(vectors)
    return overrides


def _applied_mismatch(requested, applied):
    """Whether a value read back is not the one asked for (beyond the last bits a unit
    conversion may change)."""
    return not math.isclose(applied, requested, rel_tol=1e-12, abs_tol=1e-300)


def execute_run(scenario_path, fixed, parameters, base_vectors, record, run):
    """Runs one member of a campaign; never raises for the run's own failures.

    Returns a dict: ``run``, ``ok``, ``error`` (the message, "" when ok), ``applied`` (path ->
    value read back when the run started, after the step-zero update; NaN when the load
    failed), ``final`` (name -> value),
    ``events`` (name -> first firing time, NaN when it never fired), ``series`` (name -> list of
    values at the series times), ``series_time``, ``end_time`` (the simulation's time when the
    run ended) and ``wall`` (s).
    """
    import hopsim  # on the worker

    start = time.perf_counter()
    result = {
        "run": run, "ok": False, "error": "",
        "applied": {path: math.nan for path in parameters},
        "final": {name: math.nan for name in record["final"]},
        "events": {name: math.nan for name in record["events"]},
        "series": {}, "series_time": [], "end_time": math.nan,
    }
    try:
        scenario = hopsim.load(scenario_path, run_overrides(fixed, parameters, base_vectors))
        sim = scenario.sim
        for path, requested in parameters.items():
            applied = read_value(sim, path)
            if _applied_mismatch(requested, applied):
                raise ValueError(f"the dispersion of '{path}' did not apply: requested "
                                 f"{requested!r}, the loaded simulation has {applied!r}")
        # Read back again where the run starts, after the step-zero update: a value the models
        # compute or reset there (an output signal, a state a model initializes) was not
        # applied even though the load took it.
        applied_at_start = result["applied"]

        def read_at_start(s, t):
            if parameters and all(math.isnan(v) for v in applied_at_start.values()):
                for path in parameters:
                    applied_at_start[path] = read_value(s, path)

        sim.add_sampler(max(scenario.end_time, 1.0), read_at_start)
        events = result["events"]

        def observe(_sim, name, t):
            if name in events and math.isnan(events[name]):
                events[name] = t

        sim.add_event_observer(observe)
        series = record["series"]
        recorder = None
        if series is not None:
            recorder = sim.record([], rate=series["rate"], columns=dict(series["variables"]))
        scenario.run()
        result["end_time"] = sim.time()
        for name, path in record["final"].items():
            result["final"][name] = read_value(sim, path)
        if recorder is not None:
            result["series_time"] = recorder.times().tolist()
            for name in series["variables"]:
                result["series"][name] = recorder.values(name).tolist()
        for path, requested in parameters.items():
            if _applied_mismatch(requested, applied_at_start[path]):
                raise ValueError(f"the dispersion of '{path}' did not apply: requested "
                                 f"{requested!r}, the simulation had {applied_at_start[path]!r} "
                                 f"when the run started")
        result["ok"] = True
    except Exception as error:  # noqa: BLE001 - a failed run is data, whatever failed
        result["error"] = f"{type(error).__name__}: {error}"
    result["wall"] = time.perf_counter() - start
    return result


def execute_batch(scenario_path, fixed, batch, base_vectors, record):
    """Runs ``batch``, a list of (run, parameters), in order: one Dask task."""
    return [execute_run(scenario_path, fixed, parameters, base_vectors, record, run)
            for run, parameters in batch]
