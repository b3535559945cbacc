"""The dispersions (hopsim.campaign.dispersions): their samples follow their distributions, and
a run's values depend only on (seed, run).

Statistical checks draw N = 20000 samples through sample_run, one run each (the path the runner
uses: every run its own generator), and accept an estimate within 4.5 standard errors of its
exact value. With a fixed seed the tests are deterministic; 4.5 standard errors is the margin
a correct sampler exceeds with probability ~7e-6 per check, so a change of seed or of numpy's
generator will not make them flaky, while a wrong sampler fails: a 10% error in a standard
deviation is ~14 standard errors at this N, and test_the_tolerance_detects_a_wrong_mean shows
the check rejects a mean off by 6 standard errors.
"""

import math
import pickle

import numpy as np
import pytest
from scipy.special import ndtr

import hopsim
from hopsim.campaign import dispersions as d
from hopsim.campaign.dispersions import grid_indices, run_rng, sample_run

N = 20000
SIGMAS = 4.5
SEED = 20261127


def draws(dispersions, seed=SEED, n=N):
    """{path: array of n values} from runs 0..n-1."""
    rows = [sample_run(dispersions, seed, run) for run in range(n)]
    return {path: np.array([row[path] for row in rows]) for path in rows[0]}


def within(estimate, exact, standard_error):
    return abs(estimate - exact) <= SIGMAS * standard_error


def check_mean_and_std(x, mean, std, fourth_central_moment):
    """The sample mean (standard error std/sqrt(N)) and the sample standard deviation, whose
    standard error is sqrt(Var(s^2))/(2 std) with Var(s^2) = (mu4 - std^4 (N-3)/(N-1))/N."""
    n = len(x)
    assert within(x.mean(), mean, std / math.sqrt(n)), (x.mean(), mean)
    var_s2 = (fourth_central_moment - std**4 * (n - 3) / (n - 1)) / n
    assert within(x.std(ddof=1), std, math.sqrt(var_s2) / (2 * std)), (x.std(ddof=1), std)


def phi(z):
    return math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def truncated_moments(mean, std, low, high):
    """Mean and standard deviation of normal(mean, std) truncated to [low, high], the closed
    forms (Johnson, Kotz & Balakrishnan): with a, b the standardized bounds and Z the mass,
    mean + std (phi(a) - phi(b)) / Z and std^2 (1 + (a phi(a) - b phi(b))/Z - ((phi(a) -
    phi(b))/Z)^2). Z is taken in the lower tail, where ndtr keeps its relative precision."""
    a, b = (low - mean) / std, (high - mean) / std
    z = ndtr(-a) - ndtr(-b) if a + b > 0 else ndtr(b) - ndtr(a)
    ratio = (phi(a) - phi(b)) / z
    variance = std**2 * (1 + (a * phi(a) - b * phi(b)) / z - ratio**2)
    return mean + std * ratio, math.sqrt(variance)


def test_normal_uniform_and_log_uniform_follow_their_distributions():
    x = draws([d.Normal("n", 1000, 20), d.Uniform("u", 0.4, 0.5),
               d.LogUniform("l", 1e-3, 1)])
    check_mean_and_std(x["n"], 1000, 20, 3 * 20**4)
    width = 0.1
    check_mean_and_std(x["u"], 0.45, width / math.sqrt(12), width**4 / 80)
    assert x["u"].min() >= 0.4 and x["u"].max() < 0.5
    # log of a log-uniform is uniform on [log low, log high].
    logs = np.log(x["l"])
    width = math.log(1) - math.log(1e-3)
    check_mean_and_std(logs, 0.5 * math.log(1e-3), width / math.sqrt(12), width**4 / 80)
    assert x["l"].min() >= 1e-3 and x["l"].max() <= 1


@pytest.mark.parametrize("mean, std, low, high", [
    (600, 10, 580, 620),     # the example: symmetric, +-2 std
    (0, 1, 0.5, 3),          # above the mean (sampled in the mirrored frame)
    (0, 1, -4, -1.5),        # below the mean
    (5, 2, 5 + 2 * 6, 5 + 2 * 7),  # 6 to 7 std out: P = 1e-9, rejection sampling would hang
    (0, 1, -1e6, 1e6),       # effectively untruncated
])
def test_truncated_normal_matches_the_closed_form(mean, std, low, high):
    x = draws([d.TruncatedNormal("t", mean, std, low, high)])["t"]
    assert x.min() >= low and x.max() <= high
    exact_mean, exact_std = truncated_moments(mean, std, low, high)
    assert within(x.mean(), exact_mean, exact_std / math.sqrt(N)), (x.mean(), exact_mean)
    # The standard deviation to 4.5 standard errors of a normal's (sqrt(2N)): truncation makes
    # the distribution lighter-tailed than normal, so this bound is conservative.
    assert within(x.std(ddof=1), exact_std, exact_std / math.sqrt(2 * N)), (x.std(), exact_std)


def test_truncated_normal_probability_is_accurate_in_the_far_tail():
    # P(6.5 < X < 7) = 3.9e-11: ndtr(7) - ndtr(6.5) near 1 would keep only ~5 digits (an
    # absolute rounding of 1e-16); the lower-tail difference keeps them all.
    t = d.TruncatedNormal("t", 0, 1, 6.5, 7)
    exact = ndtr(-6.5) - ndtr(-7)
    assert t.probability == pytest.approx(exact, rel=1e-12, abs=0)
    lower = d.TruncatedNormal("t", 0, 1, -7, -6.5)
    assert lower.probability == pytest.approx(exact, rel=1e-12, abs=0)


def test_choice_frequencies_and_zero_weights():
    x = draws([d.Choice("c", [1, 2, 5], [0.5, 0.25, 0.25]), d.Choice("e", [7, 8]),
               d.Choice("z", [1, 2, 3], [1, 0, 1])])
    for values, probabilities, path in (([1, 2, 5], [0.5, 0.25, 0.25], "c"),
                                        ([7, 8], [0.5, 0.5], "e")):
        for value, p in zip(values, probabilities):
            frequency = np.mean(x[path] == value)
            assert within(frequency, p, math.sqrt(p * (1 - p) / N)), (path, value, frequency)
    assert set(np.unique(x["c"])) == {1.0, 2.0, 5.0}
    assert not np.any(x["z"] == 2)  # weight 0: never, not just rarely


def test_a_zero_weight_is_skipped_even_at_the_edge_of_its_interval():
    class Edge:
        """A generator whose uniform draw is exactly 0, the one value where a zero-weight first
        entry and the next one share a cumulative sum."""

        def random(self):
            return 0.0

    assert d.Choice("c", [1, 2, 3], [0, 1, 1]).sample(Edge(), 0, 0) == (2.0,)


def test_multivariate_normal_covariance():
    mean = np.array([1.0, 2.0])
    cov = np.array([[1.0, 0.5], [0.5, 2.0]])
    x = draws([d.MultivariateNormal(("a", "b"), mean, cov)])
    samples = np.column_stack([x["a"], x["b"]])
    for i in range(2):
        assert within(samples[:, i].mean(), mean[i], math.sqrt(cov[i, i] / N))
    sample_cov = np.cov(samples, rowvar=False)
    for i in range(2):
        for j in range(2):
            # Var of a Gaussian sample covariance: (s_ii s_jj + s_ij^2) / N.
            se = math.sqrt((cov[i, i] * cov[j, j] + cov[i, j] ** 2) / N)
            assert within(sample_cov[i, j], cov[i, j], se), (i, j, sample_cov[i, j])


def test_a_singular_covariance_gives_perfectly_correlated_values():
    x = draws([d.MultivariateNormal(("a", "b"), [0, 0], [[1, 1], [1, 1]])], n=2000)
    # Equal to rounding: both come from one eigenvector of the factor.
    assert np.max(np.abs(x["a"] - x["b"])) <= 1e-12 * np.max(np.abs(x["a"]))
    check_mean_and_std(x["a"], 0, 1, 3)


def test_the_tolerance_detects_a_wrong_mean():
    x = draws([d.Normal("n", 1000, 20)])["n"]
    assert within(x.mean(), 1000, 20 / math.sqrt(N))
    assert not within(x.mean(), 1000 + 6 * 20 / math.sqrt(N), 20 / math.sqrt(N))


ALL = [d.Normal("n", 1000, 20), d.Uniform("u", 0, 1), d.TruncatedNormal("t", 0, 1, -1, 2),
       d.LogUniform("l", 1e-3, 1), d.Choice("c", [1, 2, 5]), d.ListValues("v", range(100)),
       d.Grid("g", [0.1, 0.2, 0.3]), d.MultivariateNormal(("a", "b"), [1, 2],
                                                          [[1, 0.5], [0.5, 2]])]


def test_a_run_is_the_same_alone_as_in_a_loop_and_in_any_order():
    alone = sample_run(ALL, 12345, 17)
    in_loop = [sample_run(ALL, 12345, run) for run in range(100)]
    backwards = {run: sample_run(ALL, 12345, run) for run in reversed(range(100))}
    assert in_loop[17] == alone and backwards[17] == alone
    assert all(backwards[run] == in_loop[run] for run in range(100))
    # As a worker would have it: the dispersions pickled and sent.
    assert sample_run(pickle.loads(pickle.dumps(ALL)), 12345, 17) == alone
    assert list(alone) == ["n", "u", "t", "l", "c", "v", "g", "a", "b"]
    assert all(type(v) is float for v in alone.values())
    assert alone["v"] == 17.0 and alone["g"] == 0.3  # 17 mod 3 = 2


def test_seeds_and_runs_give_different_values():
    a, b = sample_run(ALL, 1, 5), sample_run(ALL, 2, 5)
    random_paths = ["n", "u", "t", "l", "a", "b"]
    assert all(a[p] != b[p] for p in random_paths)
    c = sample_run(ALL, 1, 6)
    assert all(a[p] != c[p] for p in random_paths)
    # run_rng(seed, run) is the generator sample_run uses, so a runner can draw from it.
    assert run_rng(1, 5).standard_normal() == run_rng(1, 5).standard_normal()
    assert run_rng(1, 5).standard_normal() != run_rng(5, 1).standard_normal()


def test_adding_a_dispersion_at_the_end_keeps_the_earlier_values():
    before = sample_run(ALL[:3], 9, 40)
    after = sample_run(ALL[:3] + [d.Normal("extra", 0, 1)], 9, 40)
    assert {k: after[k] for k in before} == before


def test_grids_cover_the_full_factorial_once_per_block():
    grids = [d.Grid("x", [1, 2]), d.Normal("n", 0, 1), d.Grid("y", [10, 20, 30]),
             d.Grid("z", [100, 200, 300, 400])]
    product = 2 * 3 * 4
    assert grid_indices(grids, 0) == {0: 0, 2: 0, 3: 0}
    assert grid_indices(grids, 1) == {0: 0, 2: 0, 3: 1}    # the last grid varies fastest
    assert grid_indices(grids, 4) == {0: 0, 2: 1, 3: 0}
    assert grid_indices(grids, 12) == {0: 1, 2: 0, 3: 0}   # the first slowest
    for block in range(3):
        points = [tuple(sample_run(grids, 3, run)[p] for p in "xyz")
                  for run in range(block * product, (block + 1) * product)]
        assert sorted(points) == sorted((x, y, z) for x in (1, 2) for y in (10, 20, 30)
                                        for z in (100, 200, 300, 400))
    assert grid_indices([d.Normal("n", 0, 1)], 5) == {}


def test_describe_and_bad_arguments():
    assert d.Normal("m", 1000, 20).describe() == "normal(mean=1000, std=20)"
    assert d.TruncatedNormal("p", 600, 10, 580, 620).describe() == (
        "truncated_normal(mean=600, std=10, low=580, high=620)")
    assert d.Choice("c", [1, 2, 5], [0.5, 0.25, 0.25]).describe() == (
        "choice(values=[1, 2, 5], weights=[0.5, 0.25, 0.25])")
    assert d.LogUniform("l", 1e-3, 1).describe() == "log_uniform(low=0.001, high=1)"
    assert d.Grid("g", [0.1, 0.2]).describe() == "grid(values=[0.1, 0.2])"
    assert d.ListValues("v", [3, 1, 2]).describe() == "list(3 values from 1 to 3)"
    assert d.MultivariateNormal(("a", "b"), [1, 2], [[1, 0.5], [0.5, 2]]).describe() == (
        "multivariate_normal(mean=[1, 2], covariance=[[1, 0.5], [0.5, 2]])")
    # Built directly (not from a file) the classes still check their numbers.
    with pytest.raises(hopsim.InputError, match=r"^std: -1 is not > 0; expected"):
        d.Normal("m", 0, -1)
    with pytest.raises(hopsim.InputError, match=r"out of range; expected a run index from 0 "
                                                r"to 2"):
        sample_run([d.ListValues("v", [1, 2, 3])], 0, 3)
    with pytest.raises(hopsim.InputError, match=r"run -1"):
        sample_run(ALL, 0, -1)
