"""The dispersions of a Monte Carlo campaign: how each run's parameter values are drawn.

A dispersion maps one variable-tree path (or, for a correlated group, several) to a
distribution. Every run draws its values from its own generator, :func:`run_rng`, seeded by
``SeedSequence([seed, run])``: a run's values depend only on the base seed and its index, so
they are the same whether the campaign runs serially, on any number of Dask workers, in any
order, or as a single replayed run (``hopsim campaign FILE --replay 417``). Within a run the
dispersions draw in file order from that one generator, so adding a dispersion at the end of
the file leaves the values of the earlier ones unchanged.

The classes validate their own numbers (``std > 0``, ``low < high``, a positive semi-definite
covariance, ...) and raise :class:`InvalidDispersion`, an :class:`hopsim.InputError` naming the
offending key; :mod:`hopsim.campaign.spec` catches it and adds the campaign file's
``FILE:LINE:COL`` and the dispersion's key path. Checks that involve the whole campaign (a
list's length against ``runs``, grids against ``runs``, paths used twice) live in the spec.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from scipy.special import ndtr, ndtri

from hopsim import InputError

__all__ = [
    "Choice",
    "Dispersion",
    "Grid",
    "InvalidDispersion",
    "ListValues",
    "LogUniform",
    "MultivariateNormal",
    "Normal",
    "TruncatedNormal",
    "Uniform",
    "grid_indices",
    "run_rng",
    "sample_run",
]

#: The smallest probability of a truncated normal's interval that is accepted. Inverse-CDF
#: sampling works for any interval of positive probability, but one this unlikely is almost
#: surely a unit or sign mistake (the mean a thousand standard deviations away from the bounds).
MIN_TRUNCATED_PROBABILITY = 1e-12

#: Relative tolerance of the covariance symmetry check, and of the eigenvalue check for
#: semi-definiteness (eigenvalues >= -tol * the largest): rounding in a covariance written
#: out by another program must not be rejected, a real asymmetry or a negative variance must.
COVARIANCE_TOLERANCE = 1e-12


class InvalidDispersion(InputError):
    """A dispersion's parameters are inconsistent.

    ``key`` names the offending entry of the dispersion's mapping, as a tuple of keys and
    indices (``("covariance", 1, 0)``), so the campaign loader can point at it in the file; the
    message is ``"KEY: VALUE ...; expected ..."`` without a location.
    """

    def __init__(self, key: tuple, message: str):
        self.key = tuple(key)
        self.detail = message
        super().__init__(f"{key_text(self.key)}: {message}")


def key_text(key: Sequence) -> str:
    """``("covariance", 1, 0)`` -> ``"covariance[1][0]"``: a key path as messages show it."""
    out = ""
    for part in key:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def number_text(value) -> str:
    """A number as the campaign file would spell it: ``1000`` for 1000.0, else Python's repr.

    Summaries and messages show the user's values, not ``1000.0`` for a mass written ``1000``.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    value = float(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return repr(value)


def _list_text(values) -> str:
    return "[" + ", ".join(number_text(v) for v in values) + "]"


def _count(n, noun) -> str:
    """``_count(1, "entry")`` -> "1 entry", ``_count(2, "entry")`` -> "2 entries"."""
    if n == 1:
        return f"1 {noun}"
    return f"{n} {noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'}"


def _floats(values) -> tuple:
    return tuple(float(v) for v in values)


class Dispersion(abc.ABC):
    """Base of the dispersion classes: ``paths`` (one per drawn value) and two methods.

    ``sample(rng, run, grid_index)`` draws one value per path from ``rng``, the run's generator;
    :class:`ListValues` uses ``run`` (the run index) and :class:`Grid` ``grid_index`` (its index
    along its own sweep axis, from :func:`grid_indices`); the others ignore both.
    ``describe()`` is the one-line form the summary prints, ``"normal(mean=1000, std=20)"``.
    """

    distribution: str = ""
    paths: tuple

    @abc.abstractmethod
    def sample(self, rng: np.random.Generator, run: int, grid_index: int) -> tuple:
        """One value per path."""

    @abc.abstractmethod
    def describe(self) -> str:
        """The one-line form for summaries."""


@dataclass(frozen=True)
class _OnePath(Dispersion):
    """A dispersion of one path (every kind but the correlated groups)."""

    path: str

    @property
    def paths(self) -> tuple:
        return (self.path,)


def _check_path(path) -> str:
    if not isinstance(path, str) or not path:
        raise InvalidDispersion(("path",), f"{path!r} is not a variable path; expected a "
                                "non-empty string")
    return path


@dataclass(frozen=True)
class Uniform(_OnePath):
    """Uniform on [low, high): ``rng.uniform(low, high)``."""

    low: float
    high: float
    distribution = "uniform"

    def __post_init__(self):
        _check_path(self.path)
        object.__setattr__(self, "low", float(self.low))
        object.__setattr__(self, "high", float(self.high))
        if not self.low < self.high:
            raise InvalidDispersion(("high",), f"{number_text(self.high)} is not > low "
                                    f"({number_text(self.low)}); expected the upper bound, "
                                    "a number > low")

    def sample(self, rng, run, grid_index):
        return (float(rng.uniform(self.low, self.high)),)

    def describe(self):
        return f"uniform(low={number_text(self.low)}, high={number_text(self.high)})"


@dataclass(frozen=True)
class Normal(_OnePath):
    """Normal with the given mean and standard deviation (std > 0)."""

    mean: float
    std: float
    distribution = "normal"

    def __post_init__(self):
        _check_path(self.path)
        object.__setattr__(self, "mean", float(self.mean))
        object.__setattr__(self, "std", float(self.std))
        if not self.std > 0:
            raise InvalidDispersion(("std",), f"{number_text(self.std)} is not > 0; expected "
                                    "the standard deviation, a number > 0")

    def sample(self, rng, run, grid_index):
        return (self.mean + self.std * float(rng.standard_normal()),)

    def describe(self):
        return f"normal(mean={number_text(self.mean)}, std={number_text(self.std)})"


@dataclass(frozen=True)
class TruncatedNormal(_OnePath):
    """A normal(mean, std) restricted to [low, high], drawn by inverse-CDF sampling.

    Inverse CDF rather than rejection: the cost does not depend on how much of the normal the
    interval keeps, so an interval in the tail is as cheap as one around the mean. An interval
    above the mean is sampled in the mirrored frame (below the mean) because ``ndtr`` is
    accurate to full relative precision for small probabilities but not for probabilities
    near 1; ``probability`` is the mass of [low, high] under the untruncated normal.
    """

    mean: float
    std: float
    low: float
    high: float
    distribution = "truncated_normal"
    probability: float = field(init=False, repr=False, compare=False)
    _mirror: bool = field(init=False, repr=False, compare=False)
    _cdf_low: float = field(init=False, repr=False, compare=False)
    _cdf_high: float = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        _check_path(self.path)
        for name in ("mean", "std", "low", "high"):
            object.__setattr__(self, name, float(getattr(self, name)))
        if not self.std > 0:
            raise InvalidDispersion(("std",), f"{number_text(self.std)} is not > 0; expected "
                                    "the standard deviation, a number > 0")
        if not self.low < self.high:
            raise InvalidDispersion(("high",), f"{number_text(self.high)} is not > low "
                                    f"({number_text(self.low)}); expected the upper bound, "
                                    "a number > low")
        alpha = (self.low - self.mean) / self.std
        beta = (self.high - self.mean) / self.std
        # Work in the frame where the interval is mostly below the mean, where the normal CDF
        # of both bounds is computed without cancellation against 1.
        mirror = alpha + beta > 0
        if mirror:
            alpha, beta = -beta, -alpha
        cdf_low, cdf_high = float(ndtr(alpha)), float(ndtr(beta))
        probability = cdf_high - cdf_low
        object.__setattr__(self, "probability", probability)
        object.__setattr__(self, "_mirror", mirror)
        object.__setattr__(self, "_cdf_low", cdf_low)
        object.__setattr__(self, "_cdf_high", cdf_high)
        if not probability >= MIN_TRUNCATED_PROBABILITY:
            raise InvalidDispersion(
                ("low",),
                f"[{number_text(self.low)}, {number_text(self.high)}] has probability "
                f"{probability:.3g} under normal(mean={number_text(self.mean)}, "
                f"std={number_text(self.std)}), which is < {MIN_TRUNCATED_PROBABILITY:g}; "
                "expected bounds within reach of the mean (check the units and signs)")

    def sample(self, rng, run, grid_index):
        u = float(rng.uniform(self._cdf_low, self._cdf_high))
        z = float(ndtri(u))
        x = self.mean - self.std * z if self._mirror else self.mean + self.std * z
        # Rounding (or u landing exactly on a CDF of 0) may step just outside the interval.
        return (min(max(x, self.low), self.high),)

    def describe(self):
        return (f"truncated_normal(mean={number_text(self.mean)}, std={number_text(self.std)}, "
                f"low={number_text(self.low)}, high={number_text(self.high)})")


@dataclass(frozen=True)
class LogUniform(_OnePath):
    """Log-uniform on [low, high] (0 < low < high): the log of the value is uniform."""

    low: float
    high: float
    distribution = "log_uniform"

    def __post_init__(self):
        _check_path(self.path)
        object.__setattr__(self, "low", float(self.low))
        object.__setattr__(self, "high", float(self.high))
        if not self.low > 0:
            raise InvalidDispersion(("low",), f"{number_text(self.low)} is not > 0; expected "
                                    "the lower bound of a log-uniform, a number > 0")
        if not self.low < self.high:
            raise InvalidDispersion(("high",), f"{number_text(self.high)} is not > low "
                                    f"({number_text(self.low)}); expected the upper bound, "
                                    "a number > low")

    def sample(self, rng, run, grid_index):
        x = math.exp(float(rng.uniform(math.log(self.low), math.log(self.high))))
        return (min(max(x, self.low), self.high),)

    def describe(self):
        return f"log_uniform(low={number_text(self.low)}, high={number_text(self.high)})"


@dataclass(frozen=True)
class Choice(_OnePath):
    """One of ``values``, with probabilities proportional to ``weights`` (equal if None).

    Drawn as one uniform number looked up in the cumulative weights, not with
    ``rng.choice``, so exactly one draw is consumed and zero-weight values are never chosen.
    """

    values: tuple
    weights: tuple | None = None
    distribution = "choice"
    _cumulative: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        _check_path(self.path)
        values = _floats(self.values)
        object.__setattr__(self, "values", values)
        if not values:
            raise InvalidDispersion(("values",), "[] is empty; expected at least one value")
        if self.weights is None:
            weights = (1.0,) * len(values)
        else:
            weights = _floats(self.weights)
            object.__setattr__(self, "weights", weights)
            if len(weights) != len(values):
                raise InvalidDispersion(("weights",), f"{_list_text(weights)} has "
                                        f"{_count(len(weights), 'entry')}; expected one weight per "
                                        f"value ({len(values)})")
            for i, w in enumerate(weights):
                if not w >= 0:
                    raise InvalidDispersion(("weights", i), f"{number_text(w)} is not >= 0; "
                                            "expected a weight, a number >= 0")
            if not sum(weights) > 0:
                raise InvalidDispersion(("weights",), f"{_list_text(weights)} sums to 0; "
                                        "expected at least one positive weight")
        object.__setattr__(self, "_cumulative", tuple(np.cumsum(weights).tolist()))

    def sample(self, rng, run, grid_index):
        target = float(rng.random()) * self._cumulative[-1]
        # side="right": a value whose weight is 0 has the same cumulative sum as the one
        # before it and is skipped.
        index = int(np.searchsorted(self._cumulative, target, side="right"))
        return (self.values[min(index, len(self.values) - 1)],)

    def describe(self):
        if self.weights is None:
            return f"choice(values={_list_text(self.values)})"
        return f"choice(values={_list_text(self.values)}, weights={_list_text(self.weights)})"


@dataclass(frozen=True)
class _PathValues(_OnePath):
    """One path and a non-empty list of values, picked by index (list and grid)."""

    values: tuple
    _empty = "expected at least one value"

    def __post_init__(self):
        _check_path(self.path)
        object.__setattr__(self, "values", _floats(self.values))
        if not self.values:
            raise InvalidDispersion(("values",), f"[] is empty; {self._empty}")


@dataclass(frozen=True)
class ListValues(_PathValues):
    """Explicit values: run k takes ``values[k]`` (the spec checks len(values) == runs)."""

    distribution = "list"
    _empty = "expected one value per run"

    def sample(self, rng, run, grid_index):
        if not 0 <= run < len(self.values):
            raise InputError(f"list dispersion of '{self.path}': run {run} is out of range; "
                             f"expected a run index from 0 to {len(self.values) - 1}")
        return (self.values[run],)

    def describe(self):
        return (f"list({len(self.values)} values from {number_text(min(self.values))} to "
                f"{number_text(max(self.values))})")


@dataclass(frozen=True)
class Grid(_PathValues):
    """A sweep axis: the run takes ``values[grid_index]``; all grids form a full factorial."""

    distribution = "grid"

    def sample(self, rng, run, grid_index):
        return (self.values[grid_index],)

    def describe(self):
        return f"grid(values={_list_text(self.values)})"


@dataclass(frozen=True)
class MultivariateNormal(Dispersion):
    """A correlated group: ``paths`` jointly normal with ``mean`` and ``covariance``.

    The covariance must be symmetric (to 1e-12 relative) and positive semi-definite
    (eigenvalues >= -1e-12 times the largest): a singular covariance is allowed (perfectly
    correlated parameters). A draw is ``mean + factor @ z`` with ``z`` standard normal; the
    factor (Cholesky when the matrix is definite, else from its eigendecomposition) is computed
    once here, so every worker receiving the pickled dispersion uses the same factor.
    """

    paths: tuple
    mean: tuple
    covariance: tuple
    distribution = "multivariate_normal"
    _factor: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        paths = tuple(self.paths)
        object.__setattr__(self, "paths", paths)
        if not paths:
            raise InvalidDispersion(("paths",), "[] is empty; expected the group's paths")
        for i, path in enumerate(paths):
            if not isinstance(path, str) or not path:
                raise InvalidDispersion(("paths", i), f"{path!r} is not a variable path; "
                                        "expected a non-empty string")
        n = len(paths)
        mean = _floats(self.mean)
        object.__setattr__(self, "mean", mean)
        if len(mean) != n:
            raise InvalidDispersion(("mean",), f"{_list_text(mean)} has "
                                    f"{_count(len(mean), 'entry')}; expected one mean per "
                                    f"path ({n})")
        rows = tuple(_floats(row) if isinstance(row, (list, tuple, np.ndarray)) else row
                     for row in self.covariance)
        if len(rows) != n:
            raise InvalidDispersion(("covariance",), f"{_matrix_text(rows)} has "
                                    f"{_count(len(rows), 'row')}; expected a {n}x{n} matrix, "
                                    "one row and column per path")
        for i, row in enumerate(rows):
            if not isinstance(row, tuple):
                raise InvalidDispersion(("covariance", i), f"{row!r} is not a row; "
                                        f"expected a list of {n} numbers (a {n}x{n} matrix)")
            if len(row) != n:
                raise InvalidDispersion(("covariance", i), f"{_list_text(row)} has "
                                        f"{_count(len(row), 'entry')}; expected {n} "
                                        f"(a {n}x{n} matrix)")
        object.__setattr__(self, "covariance", rows)
        c = np.array(rows, dtype=float)
        scale = float(np.max(np.abs(c))) if c.size else 0.0
        for i in range(n):
            for j in range(i + 1, n):
                if abs(c[i, j] - c[j, i]) > COVARIANCE_TOLERANCE * scale:
                    raise InvalidDispersion(
                        ("covariance", j, i),
                        f"{number_text(c[j, i])} differs from covariance[{i}][{j}] "
                        f"({number_text(c[i, j])}); expected a symmetric matrix")
        for i in range(n):
            if not c[i, i] >= 0:
                raise InvalidDispersion(("covariance", i, i), f"{number_text(c[i, i])} is not "
                                        ">= 0; expected a variance, a number >= 0")
        c = 0.5 * (c + c.T)
        eigenvalues, eigenvectors = np.linalg.eigh(c)
        largest = float(np.max(np.abs(eigenvalues)))
        if eigenvalues[0] < -COVARIANCE_TOLERANCE * largest:
            raise InvalidDispersion(
                ("covariance",),
                f"{_matrix_text(rows)} has a negative eigenvalue ({eigenvalues[0]:.6g}); "
                "expected a positive semi-definite matrix (a valid covariance)")
        try:
            factor = np.linalg.cholesky(c)
        except np.linalg.LinAlgError:
            factor = eigenvectors * np.sqrt(np.clip(eigenvalues, 0.0, None))
        object.__setattr__(self, "_factor", tuple(tuple(row) for row in factor.tolist()))

    def sample(self, rng, run, grid_index):
        z = rng.standard_normal(len(self.paths))
        x = np.asarray(self.mean) + np.asarray(self._factor) @ z
        return tuple(float(v) for v in x)

    def describe(self):
        return (f"multivariate_normal(mean={_list_text(self.mean)}, "
                f"covariance={_matrix_text(self.covariance)})")


def _matrix_text(rows) -> str:
    return "[" + ", ".join(_list_text(row) for row in rows) + "]"


def grid_indices(dispersions: Sequence[Dispersion], run: int) -> dict:
    """Each :class:`Grid`'s index along its axis for ``run``: {position in dispersions: index}.

    The grids form a full factorial of ``product(len(values))`` points; run ``run`` is point
    ``run mod product``, decomposed in mixed radix with the FIRST grid in the file varying
    slowest (like nested loops written in file order). A campaign of ``m * product`` runs
    visits every point exactly ``m`` times, once per block of ``product`` consecutive runs,
    so the random dispersions are sampled ``m`` times at each grid point.
    """
    positions = [i for i, d in enumerate(dispersions) if isinstance(d, Grid)]
    product = 1
    for i in positions:
        product *= len(dispersions[i].values)
    remainder = run % product
    out = {}
    for i in reversed(positions):
        size = len(dispersions[i].values)
        out[i] = remainder % size
        remainder //= size
    return dict(sorted(out.items()))


def run_rng(seed: int, run: int) -> np.random.Generator:
    """The generator of run ``run``: ``default_rng(SeedSequence([seed, run]))``.

    Seeding each run from the pair rather than drawing run seeds from one stream is what lets
    any run be replayed alone, and makes the values independent of which worker draws them and
    when. SeedSequence hashes the pair, so neighbouring runs' streams are independent.
    """
    return np.random.default_rng(np.random.SeedSequence([int(seed), int(run)]))


def sample_run(spec_or_dispersions, seed: int, run: int) -> dict:
    """The parameter values of run ``run``: {path: float}, in file order.

    ``spec_or_dispersions`` is a :class:`hopsim.campaign.spec.CampaignSpec` or a sequence of
    dispersions. The dispersions draw in file order from ``run_rng(seed, run)``, so the result
    is a pure function of (dispersions, seed, run).
    """
    dispersions = getattr(spec_or_dispersions, "dispersions", spec_or_dispersions)
    dispersions = tuple(dispersions)
    if isinstance(run, bool) or not isinstance(run, (int, np.integer)) or run < 0:
        raise InputError(f"sample_run: run {run!r}; expected a run index, an integer >= 0")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"sample_run: seed {seed!r}; expected an integer >= 0")
    rng = run_rng(seed, run)
    axes = grid_indices(dispersions, run)
    values = {}
    for position, dispersion in enumerate(dispersions):
        drawn = dispersion.sample(rng, int(run), axes.get(position, 0))
        for path, value in zip(dispersion.paths, drawn):
            values[path] = float(value)
    return values
