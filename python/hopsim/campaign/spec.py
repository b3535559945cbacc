"""The campaign description: a YAML campaign file (or a Python dict with the same keys) read and
validated into a :class:`CampaignSpec` (docs/campaigns.md has the file's reference).

Everything about the description is checked here, before a single run starts, because a
mistake found by run 1 of a million-run cluster job has already cost the cluster's start-up,
and one found by the summary (a dispersion whose path was misspelt) has cost the whole
campaign. Every error is a :class:`hopsim.InputError` whose message starts with
``FILE:LINE:COL: KEY.PATH: `` (``<campaign>: KEY.PATH: `` for a dict), names the offending
value and says what was expected, in the style of the scenario loader's messages::

    c.yaml:7:18: dispersions[1].std: -2 is not > 0; expected the standard deviation, a number > 0

The checks are syntactic and self-consistent ones (types, ranges, a positive semi-definite
covariance, list lengths against ``runs``, grids against ``runs``, each path dispersed once,
scatter plots naming a dispersed path and a recorded output); whether a path exists in the
scenario is known only once a simulation is built, and the runner reads every applied value
back for that reason.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from dataclasses import dataclass, field

import numpy as np
import yaml

from hopsim import InputError
from hopsim.campaign import dispersions as _d

__all__ = ["CampaignSpec", "PlotSpec", "RecordSpec", "Series", "campaign_from_dict",
           "load_campaign"]

#: The campaign file format versions this module reads.
FORMAT_VERSIONS = (1,)


@dataclass(frozen=True)
class Series:
    """Time series recorded by every run: ``variables`` (name -> path[elem]) at ``rate`` Hz."""

    rate: float
    variables: dict


@dataclass(frozen=True)
class RecordSpec:
    """What each run keeps: final values (name -> path[elem]), the times at which the named
    events first fire, and optional time series."""

    final: dict
    events: tuple
    series: Series | None

    def scalar_names(self) -> list:
        """The outputs with one number per run (final values, then event times): what
        histograms and scatter plots can show."""
        return list(self.final) + list(self.events)

    def names(self) -> list:
        """Every output name, final values, events and series variables."""
        series = list(self.series.variables) if self.series is not None else []
        return self.scalar_names() + series


@dataclass(frozen=True)
class PlotSpec:
    """The plots the runner draws: histograms of outputs and scatters of (parameter path,
    output) pairs, into ``directory`` (absolute, or None when no plots are asked for)."""

    directory: str | None
    histograms: tuple
    scatter: tuple


@dataclass(frozen=True)
class CampaignSpec:
    """A validated campaign. Paths are absolute: the scenario resolved against the campaign
    file's directory (``base_dir`` for a dict), the outputs (output, summary, plots.directory)
    against the output directory (the current directory unless one is given); ``text`` is the
    campaign file's text, kept with the results for provenance."""

    scenario: str
    runs: int
    seed: int
    overrides: dict
    dispersions: tuple
    record: RecordSpec
    output: str | None
    summary: str | None
    plots: PlotSpec
    source: str | None = None
    text: str | None = field(default=None, repr=False)

    def parameter_paths(self) -> list:
        """Every dispersed path, in file order (a correlated group's paths in its order)."""
        return [path for dispersion in self.dispersions for path in dispersion.paths]


# --- Reading: YAML nodes (with their marks) or Python values, behind one interface ---------

class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, reading ``1e-3`` and ``2.5e10`` as numbers.

    PyYAML follows YAML 1.1, whose floats need a dot and a signed exponent: ``1e-3`` would be
    the string "1e-3". The scenario loader (yaml-cpp) and every user read it as a number.
    """


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)[eE][-+]?[0-9]+$"),
    list("-+0123456789."))


class _Node:
    """A value of the description with where it came from.

    ``value`` is the plain Python value (dicts, lists, scalars), ``key`` its key path as a
    tuple, ``mark`` its (line, column), 1-based, or None for a dict given in Python;
    ``children`` maps keys (mappings) or holds the items (sequences); ``key_marks`` are the
    marks of a mapping's keys, where unknown-key errors point.
    """

    __slots__ = ("value", "key", "mark", "children", "key_marks")

    def __init__(self, value, key, mark, children=None, key_marks=None):
        self.value = value
        self.key = key
        self.mark = mark
        self.children = children
        self.key_marks = key_marks or {}

    def is_mapping(self) -> bool:
        return isinstance(self.children, dict)

    def is_sequence(self) -> bool:
        return isinstance(self.children, list)

    def get(self, name):
        return self.children.get(name) if self.is_mapping() else None


class _Context:
    """Where the description came from: builds the ``FILE:LINE:COL: KEY.PATH: `` prefix."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, mark, key, message):
        where = self.source if mark is None else f"{self.source}:{mark[0]}:{mark[1]}"
        raise InputError(f"{where}: {_d.key_text(key) or '(top level)'}: {message}")


def _mark(yaml_node) -> tuple:
    return (yaml_node.start_mark.line + 1, yaml_node.start_mark.column + 1)


def _from_yaml(yaml_node, constructor, key, context, active):
    """The _Node tree of a composed YAML node (aliases followed, merge keys applied)."""
    if id(yaml_node) in active:
        context.fail(_mark(yaml_node), key, "a recursive alias; expected a finite value")
    active = active | {id(yaml_node)}
    mark = _mark(yaml_node)
    if isinstance(yaml_node, yaml.MappingNode):
        # Merge keys (<<: *anchor) bring in entries that the mapping's own keys override, as
        # YAML specifies; only a key written twice in the mapping itself is a duplicate.
        own = {id(k) for k, _ in yaml_node.value if k.tag != "tag:yaml.org,2002:merge"}
        constructor.flatten_mapping(yaml_node)
        children, key_marks, merged = {}, {}, set()
        for key_node, value_node in yaml_node.value:
            name = constructor.construct_object(key_node, deep=True)
            if not isinstance(name, str):
                context.fail(_mark(key_node), key, f"the key {_show(name)} is not a name; "
                             "expected a string key")
            if name in merged:
                del children[name]
                merged.discard(name)
            if id(key_node) not in own:
                merged.add(name)
            if name in children:
                context.fail(_mark(key_node), key + (name,),
                             f"duplicate key '{name}' (first at line "
                             f"{key_marks[name][0]}); expected each key once")
            key_marks[name] = _mark(key_node)
            children[name] = _from_yaml(value_node, constructor, key + (name,), context, active)
        return _Node({k: c.value for k, c in children.items()}, key, mark, children, key_marks)
    if isinstance(yaml_node, yaml.SequenceNode):
        items = [_from_yaml(item, constructor, key + (i,), context, active)
                 for i, item in enumerate(yaml_node.value)]
        return _Node([c.value for c in items], key, mark, items)
    return _Node(constructor.construct_object(yaml_node, deep=True), key, mark)


def _from_python(value, key, context):
    """The _Node tree of a Python description (no marks: messages start ``<campaign>:``)."""
    if isinstance(value, dict):
        children = {}
        for name, item in value.items():
            if not isinstance(name, str):
                context.fail(None, key, f"the key {_show(name)} is not a name; expected a "
                             "string key")
            children[name] = _from_python(item, key + (name,), context)
        return _Node({k: c.value for k, c in children.items()}, key, None, children)
    if isinstance(value, (list, tuple, np.ndarray)):
        items = [_from_python(item, key + (i,), context) for i, item in enumerate(value)]
        return _Node([c.value for c in items], key, None, items)
    if isinstance(value, np.generic):
        value = value.item()
    return _Node(value, key, None)


def _show(value, limit=80) -> str:
    """A value as the file would spell it, shortened: what an error message names."""
    if value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = _d.number_text(value)
    elif isinstance(value, str):
        text = repr(value)
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k}: {_show(v, limit)}" for k, v in value.items()) + "}"
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(_show(v, limit) for v in value) + "]"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _kind(value) -> str:
    """What a value is, for 'is not a number (a string)' messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    return type(value).__name__


def _did_you_mean(name, candidates) -> str:
    near = difflib.get_close_matches(str(name), list(candidates), n=3, cutoff=0.6)
    if not near:
        return ""
    quoted = [f"'{n}'" for n in near]
    text = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f" (did you mean {text}?)"


# --- Typed readers: each returns the checked value or raises at the value's mark -----------

_PATH = re.compile(r"^[^\s.\[\]]+(?:\.[^\s.\[\]]+)*(?:\[[0-9]{1,9}\])?$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EVENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
_PATH_EXPECTED = ("a variable-tree path, optionally with one element index at the end "
                  "(models.tank.params.empty_mass, assemblies.lander.params.position[2])")


def _check_keys(context, node, allowed):
    """Unknown keys are errors (a misspelt key silently ignored would leave a default in
    force), with the nearest allowed names."""
    for name in node.children:
        if name not in allowed:
            context.fail(node.key_marks.get(name, node.mark), node.key + (name,),
                         f"unknown key '{name}'; expected one of {', '.join(allowed)}"
                         f"{_did_you_mean(name, allowed)}")


def _required(context, node, name, expected):
    child = node.get(name)
    if child is None:
        context.fail(node.mark, node.key + (name,), f"missing; expected {expected}")
    return child


def _mapping(context, node, expected):
    if not node.is_mapping():
        context.fail(node.mark, node.key, f"{_show(node.value)} is {_kind(node.value)}, not a "
                     f"mapping; expected {expected}")
    return node


def _sequence(context, node, expected):
    if not node.is_sequence():
        context.fail(node.mark, node.key, f"{_show(node.value)} is {_kind(node.value)}, not a "
                     f"list; expected {expected}")
    return node


def _integer(context, node, expected, minimum):
    value = node.value
    if isinstance(value, bool) or not isinstance(value, int):
        context.fail(node.mark, node.key, f"{_show(value)} is {_kind(value)}, not an integer; "
                     f"expected {expected}")
    if value < minimum:
        context.fail(node.mark, node.key, f"{_show(value)} is not >= {minimum}; "
                     f"expected {expected}")
    return int(value)


def _number(context, node, expected):
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        context.fail(node.mark, node.key, f"{_show(value)} is {_kind(value)}, not a number; "
                     f"expected {expected}")
    if not math.isfinite(value):
        context.fail(node.mark, node.key, f"{_show(value)} is not finite; expected {expected}")
    return float(value)


def _numbers(context, node, expected):
    _sequence(context, node, expected)
    return [_number(context, item, expected) for item in node.children]


def _string(context, node, expected):
    if not isinstance(node.value, str) or not node.value:
        shown = "an empty string" if node.value == "" else _kind(node.value)
        context.fail(node.mark, node.key, f"{_show(node.value)} is {shown}, not a non-empty "
                     f"string; expected {expected}")
    return node.value


def _path(context, node, expected=_PATH_EXPECTED):
    value = _string(context, node, expected)
    if not _PATH.match(value):
        context.fail(node.mark, node.key, f"{_show(value)} is not a variable path; "
                     f"expected {expected}")
    return value


def _file(context, node, base_dir, expected):
    value = _string(context, node, expected)
    return os.path.normpath(os.path.join(base_dir, os.path.expanduser(value)))


def _split(path):
    """'a.b[2]' -> ('a.b', 2); 'a.b' -> ('a.b', None)."""
    if path.endswith("]"):
        base, index = path[:-1].split("[")
        return base, int(index)
    return path, None


# --- The dispersions ----------------------------------------------------------------------

_MEAN = "the mean, a number"
_STD = "the standard deviation, a number > 0"
_LOW = "the lower bound, a number"
_HIGH = "the upper bound, a number > low"

#: Per distribution: its class and its keys, (name, kind, required, expectation).
_DISTRIBUTIONS = {
    "uniform": (_d.Uniform, [("low", "number", True, _LOW), ("high", "number", True, _HIGH)]),
    "normal": (_d.Normal, [("mean", "number", True, _MEAN), ("std", "number", True, _STD)]),
    "truncated_normal": (_d.TruncatedNormal, [
        ("mean", "number", True, _MEAN), ("std", "number", True, _STD),
        ("low", "number", True, _LOW), ("high", "number", True, _HIGH)]),
    "log_uniform": (_d.LogUniform, [
        ("low", "number", True, "the lower bound, a number > 0"),
        ("high", "number", True, _HIGH)]),
    "choice": (_d.Choice, [
        ("values", "numbers", True, "the values to choose from, a non-empty list of numbers"),
        ("weights", "numbers", False, "the values' weights, a list of numbers >= 0")]),
    "list": (_d.ListValues, [
        ("values", "numbers", True, "one value per run, a list of numbers")]),
    "grid": (_d.Grid, [
        ("values", "numbers", True, "the sweep's values, a non-empty list of numbers")]),
    "multivariate_normal": (_d.MultivariateNormal, [
        ("mean", "numbers", True, "the means, one number per path"),
        ("covariance", "matrix", True, "the covariance, a square list of lists of numbers")]),
}


def _dispersion(context, node):
    """One entry of ``dispersions``: the checked Dispersion and the nodes of its paths."""
    _mapping(context, node, "a dispersion, {path: ..., distribution: ..., ...}")
    names = list(_DISTRIBUTIONS)
    distribution_node = _required(context, node, "distribution",
                                  "the distribution, one of " + ", ".join(names))
    distribution = _string(context, distribution_node, "one of " + ", ".join(names))
    if distribution not in _DISTRIBUTIONS:
        context.fail(distribution_node.mark, distribution_node.key,
                     f"unknown distribution '{distribution}'; expected one of "
                     f"{', '.join(names)}{_did_you_mean(distribution, names)}")
    cls, fields = _DISTRIBUTIONS[distribution]
    group = distribution == "multivariate_normal"
    path_key = "paths" if group else "path"
    _check_keys(context, node, [path_key, "distribution"] + [f[0] for f in fields])

    if group:
        paths_node = _required(context, node, "paths", "the group's paths, a list of "
                               "variable paths")
        _sequence(context, paths_node, "the group's paths, a non-empty list of variable paths")
        if not paths_node.children:
            context.fail(paths_node.mark, paths_node.key, "[] is empty; expected the group's "
                         "paths, a non-empty list of variable paths")
        path_nodes = paths_node.children
        arguments = {"paths": tuple(_path(context, p) for p in path_nodes)}
    else:
        path_node = _required(context, node, "path", _PATH_EXPECTED)
        path_nodes = [path_node]
        arguments = {"path": _path(context, path_node)}
    for name, kind, required, expected in fields:
        child = _required(context, node, name, expected) if required else node.get(name)
        if child is None:
            continue
        if kind == "number":
            arguments[name] = _number(context, child, expected)
        elif kind == "numbers":
            arguments[name] = tuple(_numbers(context, child, expected))
        else:  # a matrix: a list of lists of numbers (its shape is checked by the class)
            _sequence(context, child, expected)
            arguments[name] = tuple(tuple(_numbers(context, row, expected))
                                    for row in child.children)
    try:
        dispersion = cls(**arguments)
    except _d.InvalidDispersion as error:
        # Point at the deepest node of the offending key that the description has.
        target = node
        for part in error.key:
            if isinstance(part, str) and target.is_mapping() and part in target.children:
                target = target.children[part]
            elif isinstance(part, int) and target.is_sequence() and part < len(target.children):
                target = target.children[part]
            else:
                break
        context.fail(target.mark, node.key + error.key, error.detail)
    return dispersion, path_nodes


#: The sections of a scenario file whose keys are settings, not variables of the simulation.
_FILE_SECTIONS = ("simulation", "logging", "events", "contact")


def _dispersions(context, node, overrides):
    """Every dispersion, each path dispersed once and not also overridden."""
    if node is None:
        return [], []
    _sequence(context, node, "a list of dispersions")
    out, all_nodes = [], []
    seen = {}  # path -> index of its dispersion
    for index, item in enumerate(node.children):
        dispersion, path_nodes = _dispersion(context, item)
        for path, path_node in zip(dispersion.paths, path_nodes):
            base, element = _split(path)
            clash = None
            if path in seen:
                clash = f"'{path}' is already dispersed by dispersions[{seen[path]}]"
            elif element is not None and base in seen:
                clash = (f"'{path}' is an element of '{base}', dispersed whole by "
                         f"dispersions[{seen[base]}]")
            elif element is None:
                for other in seen:
                    if _split(other)[1] is not None and _split(other)[0] == path:
                        clash = (f"'{path}' is the vector whose element '{other}' is "
                                 f"dispersed by dispersions[{seen[other]}]")
                        break
            if clash:
                context.fail(path_node.mark, path_node.key,
                             clash + "; expected each variable dispersed by one dispersion")
            if base.split(".")[0] in _FILE_SECTIONS:
                context.fail(path_node.mark, path_node.key,
                             f"'{path}' is a setting of the scenario file, not a variable the "
                             "run can read back; expected a variable path (a setting goes in "
                             "overrides, the same for every run)")
            if path in overrides:
                context.fail(path_node.mark, path_node.key,
                             f"'{path}' is also set by overrides; expected a path either "
                             "overridden or dispersed, not both")
            seen[path] = index
        out.append(dispersion)
        all_nodes.append(item)
    return out, all_nodes


def _runs(context, root, runs_node, dispersions, dispersion_nodes):
    """``runs``, defaulting to the grid product, checked against the grids and lists."""
    grids = [d for d in dispersions if isinstance(d, _d.Grid)]
    product = 1
    for grid in grids:
        product *= len(grid.values)
    expected = "the number of runs, an integer >= 1"
    if runs_node is None:
        if not grids:
            context.fail(root.mark, root.key + ("runs",), f"missing; expected {expected} "
                         "(it may be omitted only when there are grid dispersions)")
        runs = product
    else:
        runs = _integer(context, runs_node, expected, 1)
        if runs % product != 0:
            sizes = " x ".join(str(len(g.values)) for g in grids)
            context.fail(runs_node.mark, runs_node.key,
                         f"{runs} is not a multiple of {product}, the number of grid points "
                         f"({sizes}); expected a multiple of {product} so that every grid "
                         "point gets the same number of runs")
    for dispersion, node in zip(dispersions, dispersion_nodes):
        if isinstance(dispersion, _d.ListValues) and len(dispersion.values) != runs:
            values = node.children["values"]
            context.fail(values.mark, values.key,
                         f"{len(dispersion.values)} values for {runs} runs; expected one "
                         f"value per run ({runs} values)")
    return runs


# --- record and outputs -------------------------------------------------------------------

def _named_paths(context, node, expected, names):
    """A ``name: path[elem]`` mapping; names are identifiers unique across all outputs."""
    _mapping(context, node, expected)
    out = {}
    for name, child in node.children.items():
        _output_name(context, node, name, names, _NAME, "an identifier ([A-Za-z_][A-Za-z0-9_]*)")
        out[name] = _path(context, child)
    return out


def _output_name(context, node, name, names, pattern, expected, item=None):
    """Checks a new output name (its syntax, and that no other output has it)."""
    mark = item.mark if item is not None else node.key_marks.get(name, node.mark)
    key = item.key if item is not None else node.key + (name,)
    if not pattern.match(name):
        context.fail(mark, key, f"{_show(name)} is not a valid output name; expected "
                     f"{expected}")
    if name in names:
        context.fail(mark, key, f"'{name}' is already recorded in {names[name]}; expected "
                     "output names unique across record.final, record.events and "
                     "record.series")
    names[name] = _d.key_text(node.key)


def _record(context, node):
    if node is None:
        return RecordSpec({}, (), None)
    _mapping(context, node, "a mapping with final, events and series")
    _check_keys(context, node, ["final", "events", "series"])
    names = {}
    final = {}
    if node.get("final") is not None:
        final = _named_paths(context, node.get("final"), "a mapping of output names to "
                             "variable paths", names)
    events = []
    if node.get("events") is not None:
        events_node = _sequence(context, node.get("events"), "a list of event names")
        for item in events_node.children:
            name = _string(context, item, "an event name")
            _output_name(context, events_node, name, names, _EVENT,
                         "an event name (identifiers joined by dots)", item)
            events.append(name)
    series = None
    if node.get("series") is not None:
        series_node = _mapping(context, node.get("series"), "a mapping with rate and variables")
        _check_keys(context, series_node, ["rate", "variables"])
        rate_node = _required(context, series_node, "rate", "the sampling rate in Hz, a "
                              "number > 0")
        rate = _number(context, rate_node, "the sampling rate in Hz, a number > 0")
        if not rate > 0:
            context.fail(rate_node.mark, rate_node.key, f"{_show(rate_node.value)} is not > 0; "
                         "expected the sampling rate in Hz, a number > 0")
        variables_node = _required(context, series_node, "variables", "a mapping of output "
                                   "names to variable paths")
        variables = _named_paths(context, variables_node, "a mapping of output names to "
                                 "variable paths", names)
        if not variables:
            context.fail(variables_node.mark, variables_node.key, "{} is empty; expected at "
                         "least one variable to record")
        if "time" in variables:
            mark = variables_node.key_marks.get("time", variables_node.mark)
            context.fail(mark, variables_node.key + ("time",), "'time' is the series' time "
                         "axis; expected another name for this variable")
        series = Series(rate, variables)
    return RecordSpec(final, tuple(events), series)


def _output_reference(context, node, record):
    """A histogram's or scatter's output: a recorded name with one number per run."""
    name = _string(context, node, "a recorded output name")
    scalars = record.scalar_names()
    if name not in scalars:
        if record.series is not None and name in record.series.variables:
            context.fail(node.mark, node.key, f"'{name}' is a time series; expected a final "
                         "value or event time from record.final or record.events")
        choices = ", ".join(scalars) if scalars else "none recorded"
        context.fail(node.mark, node.key, f"'{name}' is not recorded; expected a name from "
                     f"record.final or record.events ({choices}){_did_you_mean(name, scalars)}")
    return name


def _outputs(context, node, base_dir, record, parameters):
    """``outputs``: the HDF5 file, the summary and the plots; returns (file, summary, plots)."""
    if node is None:
        return None, None, PlotSpec(None, (), ())
    _mapping(context, node, "a mapping with file, summary and plots")
    _check_keys(context, node, ["file", "summary", "plots"])
    output = summary = None
    if node.get("file") is not None:
        output = _file(context, node.get("file"), base_dir, "the results file (HDF5), a path")
    if node.get("summary") is not None:
        summary = _file(context, node.get("summary"), base_dir, "the summary file, a path")
    plots_node = node.get("plots")
    if plots_node is None:
        return output, summary, PlotSpec(None, (), ())
    _mapping(context, plots_node, "a mapping with directory, histograms and scatter")
    _check_keys(context, plots_node, ["directory", "histograms", "scatter"])
    directory = None
    if plots_node.get("directory") is not None:
        directory = _file(context, plots_node.get("directory"), base_dir,
                          "the plots' directory, a path")
    histograms = []
    if plots_node.get("histograms") is not None:
        h = _sequence(context, plots_node.get("histograms"), "a list of recorded output names")
        histograms = [_output_reference(context, item, record) for item in h.children]
    scatter = []
    if plots_node.get("scatter") is not None:
        expected = "[parameter path, output name] pairs"
        s = _sequence(context, plots_node.get("scatter"), "a list of " + expected)
        for pair in s.children:
            if not pair.is_sequence() or len(pair.children) != 2:
                context.fail(pair.mark, pair.key, f"{_show(pair.value)} is not a pair; expected "
                             "[parameter path, output name]")
            parameter_node, output_node = pair.children
            parameter = _string(context, parameter_node, "a dispersed path")
            if parameter not in parameters:
                listed = ", ".join(parameters) if parameters else "none"
                context.fail(parameter_node.mark, parameter_node.key,
                             f"'{parameter}' is not a dispersed path; expected one of the "
                             f"dispersions' paths ({listed})"
                             f"{_did_you_mean(parameter, parameters)}")
            scatter.append((parameter, _output_reference(context, output_node, record)))
    if (histograms or scatter) and directory is None:
        context.fail(plots_node.mark, plots_node.key + ("directory",),
                     "missing; expected the directory to write the histograms and scatter "
                     "plots to")
    return output, summary, PlotSpec(directory, tuple(histograms), tuple(scatter))


# --- The whole description ----------------------------------------------------------------

_TOP_KEYS = ["campaign", "scenario", "runs", "seed", "overrides", "dispersions", "record",
             "outputs"]


def parse_value(text):
    """A value given on the command line (``--set PATH=VALUE``), read as YAML the way the
    campaign file's values are (``1e-3`` is a number). @raises yaml.YAMLError."""
    return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader


def _command_line(root, runs, overrides):
    """The file's tree with ``runs`` replaced and ``overrides`` added (a path in both takes
    the command line's value): what ``hopsim campaign --runs N --set PATH=VALUE`` runs. The
    nodes added have no mark and are named by their option, so that a bad value is reported as
    ``FILE: --runs: ...``."""
    if not root.is_mapping():
        return root
    if runs is not None:
        root.children["runs"] = _Node(runs, ("--runs",), None)
    if overrides:
        node = root.get("overrides")
        if node is None:
            node = root.children["overrides"] = _Node({}, ("overrides",), None, {})
        if node.is_mapping():
            for path, value in overrides.items():
                node.children[path] = _Node(value, (f"--set {path}",), None)
                node.key_marks.pop(path, None)
    return root


def _campaign(context, root, base_dir, output_dir, version_required):
    _mapping(context, root, "a campaign: a mapping with " + ", ".join(_TOP_KEYS))
    _check_keys(context, root, _TOP_KEYS)
    versions = " or ".join(str(v) for v in FORMAT_VERSIONS)
    version_expected = f"the campaign file format version, {versions}"
    version_node = (_required(context, root, "campaign", version_expected) if version_required
                    else root.get("campaign"))
    if version_node is not None:
        version = version_node.value
        if isinstance(version, bool) or version not in FORMAT_VERSIONS:
            context.fail(version_node.mark, version_node.key, f"{_show(version)} is not a "
                         f"supported format version; expected {version_expected}")

    scenario_node = _required(context, root, "scenario", "the scenario file, a path")
    scenario = _file(context, scenario_node, base_dir, "the scenario file, a path")
    if not os.path.isfile(scenario):
        context.fail(scenario_node.mark, scenario_node.key,
                     f"{_show(scenario_node.value)} (resolved to '{scenario}') does not exist; "
                     "expected an existing scenario file, relative to the campaign file")

    seed = 0
    if root.get("seed") is not None:
        seed = _integer(context, root.get("seed"), "the base seed, an integer >= 0", 0)

    overrides = {}
    if root.get("overrides") is not None:
        overrides_node = _mapping(context, root.get("overrides"),
                                  "a mapping of variable paths to values")
        for path, child in overrides_node.children.items():
            key_node = _Node(path, child.key, overrides_node.key_marks.get(path, child.mark))
            _path(context, key_node)
            if _split(path)[1] is not None:
                context.fail(key_node.mark, key_node.key,
                             f"'{path}' is one element; expected a whole variable (an override "
                             "gives the whole value, e.g. a vector's every element)")
            if child.value is None:
                context.fail(child.mark, child.key, "null is no value; expected the value to "
                             "set the variable to")
            overrides[path] = child.value

    dispersions, dispersion_nodes = _dispersions(context, root.get("dispersions"), overrides)
    runs = _runs(context, root, root.get("runs"), dispersions, dispersion_nodes)
    record = _record(context, root.get("record"))
    parameters = [p for d in dispersions for p in d.paths]
    output, summary, plots = _outputs(context, root.get("outputs"), output_dir, record,
                                      parameters)
    return dict(scenario=scenario, runs=runs, seed=seed, overrides=overrides,
                dispersions=tuple(dispersions), record=record, output=output, summary=summary,
                plots=plots)


def load_campaign(path, *, runs=None, overrides=None, output_dir=None) -> CampaignSpec:
    """Reads and validates a campaign file. Its scenario is relative to its directory; its
    outputs are relative to ``output_dir`` (default: the current directory), so that a run
    leaves its results where it is run, not beside a shared campaign file.

    ``runs`` replaces the file's ``runs`` and ``overrides`` (``{path: value}``) add to its
    ``overrides``: the command line's ``--runs`` and ``--set``, validated like the file's keys.
    Errors name the file as given (``c.yaml:7:18: ...``), like the scenario loader's, or the
    option (``c.yaml: --runs: ...``).
    """
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as stream:
            text = stream.read()
    except OSError as error:
        raise InputError(f"cannot read '{name}': {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"cannot read '{name}': byte {error.start} is not UTF-8 "
                         "(expected a UTF-8 text file)") from None
    context = _Context(name)
    loader = _Loader(text)
    try:
        document = loader.get_single_node()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        problem = error.problem or error.context or str(error)
        context.fail(where, ("YAML syntax",), f"{problem}; expected a valid YAML document")
    except yaml.YAMLError as error:
        context.fail((1, 1), ("YAML syntax",), f"{error}; expected a valid YAML document")
    finally:
        loader.dispose()
    if document is None:
        context.fail((1, 1), (), "the file is empty; expected a campaign: a mapping with "
                     + ", ".join(_TOP_KEYS))
    try:
        root = _from_yaml(document, _Loader(""), (), context, frozenset())
    except yaml.constructor.ConstructorError as error:
        mark = error.problem_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        context.fail(where, ("YAML syntax",), f"{error.problem}; expected a valid YAML value")
    absolute = os.path.abspath(name)
    root = _command_line(root, runs, overrides)
    values = _campaign(context, root, os.path.dirname(absolute),
                       os.path.abspath(os.fspath(output_dir or os.curdir)), version_required=True)
    return CampaignSpec(**values, source=absolute, text=text)


def campaign_from_dict(data: dict, base_dir: str = ".", source: str = "<campaign>"
                       ) -> CampaignSpec:
    """Validates a campaign given as a Python dict with the campaign file's keys.

    The checks are the file's; messages start ``<campaign>: KEY.PATH: `` (``source``).
    ``campaign`` (the format version) may be omitted here: a dict written against this API has
    no older format to be told apart from. Relative paths are relative to ``base_dir``.
    """
    context = _Context(source)
    if not isinstance(data, dict):
        context.fail(None, (), f"{_show(data)} is {_kind(data)}; expected a campaign: a dict "
                     "with " + ", ".join(_TOP_KEYS))
    root = _from_python(data, (), context)
    base = os.path.abspath(os.fspath(base_dir))
    values = _campaign(context, root, base, base, version_required=False)
    return CampaignSpec(**values, source=None, text=None)
