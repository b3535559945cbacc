"""How :func:`hopsim.plot.panels` and ``hopsim plot`` share recorded columns out among panels.

Pure data work, no matplotlib: each column is named after its variable
(``multibody.bodies.arm.Q[0]``, ``bodies.crank.position.x``); the variable's owner (``multibody.bodies.arm``) and quantity
(``Q``) give its group, one group per owner, kind of quantity (positions, orientations,
velocities, coordinates) and unit; a column of any other quantity is grouped with the others of
its unit. A group becomes one panel, or several when it holds more than ``max_curves`` columns
or columns whose ranges differ by more than ``range_ratio`` (a 20 kg fuel load beside a 1000 kg
mass would draw as a flat line): each panel has one unit, so one y axis, and every curve on it
spans at least 1/``range_ratio`` of that axis.
"""

import math
import re
from dataclasses import dataclass, field

#: Most curves drawn on one panel: more do not tell apart by colour, nor fit a legend.
MAX_CURVES = 6
#: A curve whose range is below 1/RANGE_RATIO of its panel's y range draws as a flat line, so
#: it goes to another panel.
RANGE_RATIO = 20.0
#: Most panels in one figure (``hopsim plot``); the rest are left out, with a note.
MAX_PANELS = 24
#: A column whose range is below this fraction of its values' magnitude is constant (rounding
#: noise on a quaternion element): it never needs a panel of its own.
_FLAT = 1e-9

# ``path[i]`` (a recorder's element) or ``path.x`` / ``path.e0`` (a Chrono-style component).
_ELEMENT = re.compile(r"^(?P<variable>.+?)(?:\[\d+\]|\.(?:x|y|z|e[0-3]))$")

_KINDS = {
    "position": "positions",
    "orientation": "orientations",
    "quaternion": "orientations",
    "velocity": "velocities",
    "linearvelocity": "velocities",
    "angularvelocity": "velocities",
    "q": "coordinates",
    "u": "coordinates",
}


@dataclass
class Panel:
    """One panel: its title, the unit of its y axis and the columns drawn on it."""

    title: str
    unit: str
    columns: list = field(default_factory=list)
    low: float = math.nan  # the y range of the finite values drawn so far
    high: float = math.nan


def describe(column):
    """``(owner, kind, variable)`` of a column name: ``multibody.bodies.arm.Q[0]`` gives
    ``("multibody.bodies.arm", "coordinates", "multibody.bodies.arm.Q")``; a quantity of no
    known kind has ``kind`` None."""
    match = _ELEMENT.match(column)
    variable = match.group("variable") if match else column
    owner, _, quantity = variable.rpartition(".")
    return owner, _KINDS.get(quantity.replace("_", "").lower()), variable


def _range(values):
    finite = [v for v in values if math.isfinite(v)]
    return (min(finite), max(finite)) if finite else (math.nan, math.nan)


def _fits(panel, ranges, low, high, range_ratio):
    """Whether a column of range [low, high] joins ``panel`` with every curve still readable."""
    if math.isnan(low) or not panel.columns:
        return True
    lows = [low] + ([panel.low] if not math.isnan(panel.low) else [])
    highs = [high] + ([panel.high] if not math.isnan(panel.high) else [])
    axis_low, axis_high = min(lows), max(highs)
    span = axis_high - axis_low
    magnitude = max(abs(axis_low), abs(axis_high))
    for column_low, column_high in [ranges[c] for c in panel.columns] + [(low, high)]:
        own = column_high - column_low
        if own > _FLAT * magnitude and own * range_ratio < span:
            return False
    return True


def _unit_key(unit):
    return "" if unit in ("", "1") else unit


def _title(owner, kind, columns):
    """A panel's title: the owner and its quantities drawn (``bodies.crank angular_velocity``),
    or the one variable drawn, or nothing (the legend names the columns)."""
    variables = list(dict.fromkeys(describe(c)[2] for c in columns))
    if kind:
        quantities = [v[len(owner) + 1:] if owner else v for v in variables]
        return (owner + " " if owner else "") + ", ".join(quantities)
    return variables[0] if len(variables) == 1 else ""


def _split_note(owner, kind, unit, members, mine, max_curves, range_ratio):
    """The sentence saying that a group's columns went to several panels, and why."""
    if kind:
        what = "'" + (owner + " " if owner else "") + kind + "'"
    else:
        what = "the columns in " + ("[" + unit + "]" if unit else "no unit")
    reasons = []
    if len(members) > max_curves:
        reasons.append("at most " + str(max_curves) + " curves per panel")
    if len(mine) > math.ceil(len(members) / max_curves):
        reasons.append("ranges more than " + f"{range_ratio:g}" + " times apart get their own "
                       "axes")
    return (what + ": " + str(len(members)) + " columns in " + str(len(mine)) + " panels ("
            + "; ".join(reasons) + ")")


def plan(columns, units, values, max_curves=MAX_CURVES, range_ratio=RANGE_RATIO):
    """The panels for ``columns`` (in their order) and notes on the groups split.

    ``units``: ``{column: unit}``; ``values``: ``{column: sequence of floats}``. Returns
    ``(panels, notes)``, ``notes`` a list of sentences saying which groups were split and why.
    """
    groups = {}
    for column in columns:
        owner, kind, _ = describe(column)
        unit = _unit_key(units.get(column, ""))
        key = (owner, kind, unit) if kind else ("", None, unit)
        groups.setdefault(key, []).append(column)
    ranges = {c: _range(values[c]) for c in columns}
    panels, notes = [], []
    for (owner, kind, unit), members in groups.items():
        mine = []
        for column in members:
            low, high = ranges[column]
            home = next((p for p in mine if len(p.columns) < max_curves
                         and _fits(p, ranges, low, high, range_ratio)), None)
            if home is None:
                home = Panel("", unit)
                mine.append(home)
            home.columns.append(column)
            if not math.isnan(low):
                home.low = low if math.isnan(home.low) else min(home.low, low)
                home.high = high if math.isnan(home.high) else max(home.high, high)
        for panel in mine:
            panel.title = _title(owner, kind, panel.columns)
        if len(mine) > 1:
            notes.append(_split_note(owner, kind, unit, members, mine, max_curves, range_ratio))
            for title in {p.title for p in mine if p.title}:
                alike = [p for p in mine if p.title == title]
                for i, panel in enumerate(alike if len(alike) > 1 else []):
                    panel.title += " (" + str(i + 1) + "/" + str(len(alike)) + ")"
        panels.extend(mine)
    return panels, notes
