"""The campaign description (hopsim.campaign.spec): a valid file read into a CampaignSpec, and
every invalid one rejected with a message of the form

    FILE:LINE:COL: KEY.PATH: VALUE ...; expected ...

The error cases mark the expected LINE:COL with '@' in the campaign text (removed before the
file is written), so a message pointing one column off fails the test.
"""

import os
import re

import pytest

import hopsim
from hopsim.campaign import dispersions as d
from hopsim.campaign.spec import CampaignSpec, campaign_from_dict, load_campaign

HEAD = "campaign: 1\nscenario: scenario.yaml\nruns: 4\n"

FULL = """\
campaign: 1                       # the format version
scenario: ../scenarios/lander.yaml
runs: 12
seed: 12345
overrides:
  simulation.rtol: 1.0e-10
  "assemblies.lander.params.attitude": [1, 0, 0, 0]
dispersions:
  - {path: models.tank.params.empty_mass, distribution: normal, mean: 1000, std: 20}
  - {path: signals.throttle, distribution: uniform, low: 0.4, high: 0.5}
  - {path: "assemblies.lander.params.position[2]", distribution: truncated_normal,
     mean: 600, std: 10, low: 580, high: 620}
  - {path: models.engine.params.isp, distribution: log_uniform, low: 1e-3, high: 1}
  - {path: models.engine.params.min_level, distribution: choice, values: [1, 2, 5],
     weights: [0.5, 0.25, 0.25]}
  - {path: models.engine.params.max_level, distribution: list,
     values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
  - {path: models.gravity.params.mu, distribution: grid, values: [0.1, 0.2, 0.3]}
  - {paths: [a.b, "c.d[1]"], distribution: multivariate_normal, mean: [1, 2],
     covariance: [[1, 0.5], [0.5, 2]]}
record:
  final: {touchdown_speed: "multibody.bodies.lander.U[5]", mass: signals.mass}
  events: [touchdown, tank.burnout]
  series: {rate: 10, variables: {altitude: "multibody.bodies.lander.Q[6]"}}
outputs:
  file: results/lander_campaign.h5
  summary: lander_campaign_summary.txt
  plots:
    directory: lander_campaign_plots
    histograms: [touchdown_speed, touchdown]
    scatter: [[models.tank.params.empty_mass, touchdown_speed]]
"""


@pytest.fixture
def campaign_dir(tmp_path):
    """A directory with a scenario file next to where the campaign files go (the loader
    checks that the scenario exists; what is in it is the runner's business)."""
    (tmp_path / "scenario.yaml").write_text("hopsim: 1\n")
    return tmp_path


def write(directory, text, name="c.yaml"):
    """Writes ``text`` without its '@' marker; returns (path, "LINE:COL" of the marker)."""
    where = None
    if "@" in text:
        before = text[:text.index("@")]
        where = f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}"
        text = text.replace("@", "", 1)
    path = directory / name
    path.write_text(text)
    return str(path), where


def test_the_full_example_is_read_with_every_field(tmp_path, monkeypatch):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "lander.yaml").write_text("hopsim: 1\n")
    (tmp_path / "campaigns").mkdir()
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    path = tmp_path / "campaigns" / "c.yaml"
    path.write_text(FULL)
    spec = load_campaign(path)
    assert isinstance(spec, CampaignSpec)
    # The scenario is found beside the campaign file; the outputs go where the campaign runs.
    assert spec.scenario == str(tmp_path / "scenarios" / "lander.yaml")
    assert spec.output == str(tmp_path / "here" / "results" / "lander_campaign.h5")
    assert spec.summary == str(tmp_path / "here" / "lander_campaign_summary.txt")
    assert spec.plots.directory == str(tmp_path / "here" / "lander_campaign_plots")
    elsewhere = load_campaign(path, output_dir=tmp_path / "out")
    assert elsewhere.output == str(tmp_path / "out" / "results" / "lander_campaign.h5")
    assert spec.source == str(path) and spec.text == FULL
    assert (spec.runs, spec.seed) == (12, 12345)
    assert spec.overrides == {"simulation.rtol": 1e-10,
                              "assemblies.lander.params.attitude": [1, 0, 0, 0]}
    assert [type(x) for x in spec.dispersions] == [
        d.Normal, d.Uniform, d.TruncatedNormal, d.LogUniform, d.Choice, d.ListValues, d.Grid,
        d.MultivariateNormal]
    # 1e-3 (YAML 1.1 would read a string) is the number 0.001.
    assert spec.dispersions[3] == d.LogUniform("models.engine.params.isp", 0.001, 1.0)
    assert spec.dispersions[4].weights == (0.5, 0.25, 0.25)
    assert spec.dispersions[0].describe() == "normal(mean=1000, std=20)"
    assert spec.parameter_paths() == [
        "models.tank.params.empty_mass", "signals.throttle",
        "assemblies.lander.params.position[2]", "models.engine.params.isp",
        "models.engine.params.min_level", "models.engine.params.max_level",
        "models.gravity.params.mu", "a.b", "c.d[1]"]
    assert spec.record.final == {"touchdown_speed": "multibody.bodies.lander.U[5]",
                                 "mass": "signals.mass"}
    assert spec.record.events == ("touchdown", "tank.burnout")
    assert spec.record.series == hopsim.campaign.spec.Series(
        10.0, {"altitude": "multibody.bodies.lander.Q[6]"})
    assert spec.plots.histograms == ("touchdown_speed", "touchdown")
    assert spec.plots.scatter == (("models.tank.params.empty_mass", "touchdown_speed"),)


def test_defaults_and_runs_from_the_grids(campaign_dir):
    path, _ = write(campaign_dir, "campaign: 1\nscenario: scenario.yaml\ndispersions:\n"
                    "  - {path: a, distribution: grid, values: [1, 2, 3]}\n"
                    "  - {path: b, distribution: grid, values: [4, 5]}\n")
    spec = load_campaign(path)
    assert spec.runs == 6  # the product of the grid lengths when runs is omitted
    assert spec.seed == 0
    assert spec.overrides == {} and spec.output is None and spec.summary is None
    assert spec.record == hopsim.campaign.spec.RecordSpec({}, (), None)
    assert spec.plots == hopsim.campaign.spec.PlotSpec(None, (), ())
    # runs may be a multiple of the product: each grid point gets runs / product runs.
    path, _ = write(campaign_dir, "campaign: 1\nscenario: scenario.yaml\nruns: 18\n"
                    "dispersions:\n  - {path: a, distribution: grid, values: [1, 2, 3]}\n"
                    "  - {path: b, distribution: grid, values: [4, 5]}\n")
    assert load_campaign(path).runs == 18


def test_anchors_and_merge_keys_share_settings(campaign_dir):
    # A merged entry is overridden by the mapping's own key (YAML's rule), not a duplicate.
    path, _ = write(campaign_dir, HEAD + "dispersions:\n"
                    "  - &mass {path: a, distribution: normal, mean: 1, std: 2}\n"
                    "  - {<<: *mass, path: b, std: 3}\n")
    assert load_campaign(path).dispersions == (d.Normal("a", 1, 2), d.Normal("b", 1, 3))


def test_a_singular_but_semidefinite_covariance_is_accepted(campaign_dir):
    path, _ = write(campaign_dir, HEAD + "dispersions:\n"
                    "  - {paths: [a, b], distribution: multivariate_normal, mean: [0, 0],\n"
                    "     covariance: [[1, 1], [1, 1]]}\n")
    assert load_campaign(path).parameter_paths() == ["a", "b"]


# (case id, campaign text with '@' at the expected mark, key path, fragments of the message
# after the key path). The first fragment is the bad value as the message must name it.
ERRORS = [
    ("unknown top-level key", HEAD + "@sede: 3\n", "sede",
     ["unknown key 'sede'", "expected one of campaign, scenario", "did you mean 'seed'"]),
    ("format version missing", "@scenario: scenario.yaml\nruns: 4\n", "campaign",
     ["missing", "expected the campaign file format version, 1"]),
    ("format version 2", "campaign: @2\nscenario: scenario.yaml\nruns: 4\n", "campaign",
     ["2 is not a supported format version", "expected the campaign file format version, 1"]),
    ("format version a boolean", "campaign: @true\nscenario: scenario.yaml\nruns: 4\n",
     "campaign", ["true is not a supported format version", "expected"]),
    ("scenario missing", "@campaign: 1\nruns: 4\n", "scenario",
     ["missing", "expected the scenario file"]),
    ("scenario does not exist", "campaign: 1\nscenario: @nope.yaml\nruns: 4\n", "scenario",
     ["'nope.yaml'", "does not exist", "expected an existing scenario file"]),
    ("runs 0", "campaign: 1\nscenario: scenario.yaml\nruns: @0\n", "runs",
     ["0 is not >= 1", "expected the number of runs, an integer >= 1"]),
    ("runs a boolean", "campaign: 1\nscenario: scenario.yaml\nruns: @yes\n", "runs",
     ["true is a boolean, not an integer", "expected the number of runs"]),
    ("runs a float", "campaign: 1\nscenario: scenario.yaml\nruns: @2.5\n", "runs",
     ["2.5 is a number, not an integer", "expected the number of runs"]),
    ("runs missing without grids", "@campaign: 1\nscenario: scenario.yaml\n", "runs",
     ["missing", "expected the number of runs", "only when there are grid dispersions"]),
    ("negative seed", HEAD + "seed: @-1\n", "seed",
     ["-1 is not >= 0", "expected the base seed, an integer >= 0"]),
    ("override path with an empty segment", HEAD + "overrides:\n  @a..b: 1\n", "overrides.a..b",
     ["'a..b' is not a variable path", "expected a variable-tree path"]),
    ("override without a value", HEAD + "overrides:\n  a.b:@\n", "overrides.a.b",
     ["null is no value", "expected the value"]),
    ("negative std (the brief's example)",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: 1000, std: @-2}\n",
     "dispersions[0].std", ["-2 is not > 0", "expected the standard deviation, a number > 0"]),
    ("std a string",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: 1000, std: @twenty}\n",
     "dispersions[0].std", ["'twenty' is a string, not a number", "expected the standard "
                            "deviation"]),
    ("mean a boolean (booleans are not numbers)",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: @true, std: 1}\n",
     "dispersions[0].mean", ["true is a boolean, not a number", "expected the mean"]),
    ("mean not finite",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: @.nan, std: 1}\n",
     "dispersions[0].mean", ["nan is not finite", "expected the mean"]),
    ("unknown distribution",
     HEAD + "dispersions:\n  - {path: m, distribution: @normall, mean: 1, std: 1}\n",
     "dispersions[0].distribution",
     ["unknown distribution 'normall'", "expected one of uniform, normal",
      "did you mean 'normal'"]),
    ("distribution missing", HEAD + "dispersions:\n  - @{path: m, mean: 1, std: 1}\n",
     "dispersions[0].distribution", ["missing", "expected the distribution, one of"]),
    ("unknown key in a dispersion",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, @mena: 1, std: 1}\n",
     "dispersions[0].mena",
     ["unknown key 'mena'", "expected one of path, distribution, mean, std",
      "did you mean 'mean'"]),
    ("a key of another distribution",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: 1, std: 1, @low: 0}\n",
     "dispersions[0].low", ["unknown key 'low'", "expected one of path, distribution, mean, "
                            "std"]),
    ("mean missing", HEAD + "dispersions:\n  - @{path: m, distribution: normal, std: 1}\n",
     "dispersions[0].mean", ["missing", "expected the mean, a number"]),
    ("path missing (block style)",
     HEAD + "dispersions:\n  - @distribution: normal\n    mean: 1\n    std: 1\n",
     "dispersions[0].path", ["missing", "expected a variable-tree path"]),
    ("uniform with low >= high",
     HEAD + "dispersions:\n  - {path: m, distribution: uniform, low: 2, high: @1}\n",
     "dispersions[0].high", ["1 is not > low (2)", "expected the upper bound"]),
    ("log-uniform with low = 0",
     HEAD + "dispersions:\n  - {path: m, distribution: log_uniform, low: @0, high: 1}\n",
     "dispersions[0].low", ["0 is not > 0", "expected the lower bound of a log-uniform"]),
    ("log-uniform with low > high",
     HEAD + "dispersions:\n  - {path: m, distribution: log_uniform, low: 2, high: @1e-3}\n",
     "dispersions[0].high", ["0.001 is not > low (2)", "expected the upper bound"]),
    ("truncated normal with std 0",
     HEAD + "dispersions:\n  - {path: m, distribution: truncated_normal, mean: 0, std: @0,\n"
     "     low: -1, high: 1}\n", "dispersions[0].std", ["0 is not > 0", "expected the standard "
                                                        "deviation"]),
    ("truncated normal with low >= high",
     HEAD + "dispersions:\n  - {path: m, distribution: truncated_normal, mean: 0, std: 1,\n"
     "     low: 1, high: @1}\n", "dispersions[0].high", ["1 is not > low (1)", "expected"]),
    ("truncated normal hopelessly in the tail (600 m written as 600 km?)",
     HEAD + "dispersions:\n  - {path: m, distribution: truncated_normal, mean: 600000, std: 10,"
     "\n     low: @580, high: 620}\n", "dispersions[0].low",
     ["[580, 620] has probability 0", "< 1e-12", "expected bounds within reach of the mean"]),
    ("choice without values",
     HEAD + "dispersions:\n  - {path: m, distribution: choice, values: @[]}\n",
     "dispersions[0].values", ["[] is empty", "expected at least one value"]),
    ("choice with a weight per value missing",
     HEAD + "dispersions:\n  - {path: m, distribution: choice, values: [1, 2, 3],"
     " weights: @[1, 2]}\n", "dispersions[0].weights",
     ["[1, 2] has 2 entries", "expected one weight per value (3)"]),
    ("choice with a negative weight",
     HEAD + "dispersions:\n  - {path: m, distribution: choice, values: [1, 2],"
     " weights: [1, @-0.5]}\n", "dispersions[0].weights[1]",
     ["-0.5 is not >= 0", "expected a weight, a number >= 0"]),
    ("choice with zero total weight",
     HEAD + "dispersions:\n  - {path: m, distribution: choice, values: [1, 2],"
     " weights: @[0, 0]}\n", "dispersions[0].weights",
     ["[0, 0] sums to 0", "expected at least one positive weight"]),
    ("choice with a string value",
     HEAD + "dispersions:\n  - {path: m, distribution: choice, values: [1, @two]}\n",
     "dispersions[0].values[1]", ["'two' is a string, not a number", "expected the values"]),
    ("list shorter than runs",
     HEAD + "dispersions:\n  - {path: m, distribution: list, values: @[1, 2, 3]}\n",
     "dispersions[0].values", ["3 values for 4 runs", "expected one value per run (4 values)"]),
    ("grid without values",
     HEAD + "dispersions:\n  - {path: m, distribution: grid, values: @[]}\n",
     "dispersions[0].values", ["[] is empty", "expected at least one value"]),
    ("runs not a multiple of the grid points",
     "campaign: 1\nscenario: scenario.yaml\nruns: @10\ndispersions:\n"
     "  - {path: a, distribution: grid, values: [1, 2, 3]}\n"
     "  - {path: b, distribution: grid, values: [4, 5]}\n", "runs",
     ["10 is not a multiple of 6, the number of grid points (3 x 2)", "expected a multiple "
                                                                       "of 6"]),
    ("multivariate normal with a mean per path missing",
     HEAD + "dispersions:\n  - {paths: [a, b], distribution: multivariate_normal,"
     " mean: @[1],\n     covariance: [[1, 0], [0, 1]]}\n", "dispersions[0].mean",
     ["[1] has 1 entry", "expected one mean per path (2)"]),
    ("multivariate normal with a short covariance row",
     HEAD + "dispersions:\n  - {paths: [a, b], distribution: multivariate_normal,"
     " mean: [1, 2],\n     covariance: [[1, 0], @[0]]}\n", "dispersions[0].covariance[1]",
     ["[0] has 1 entry", "expected 2 (a 2x2 matrix)"]),
    ("multivariate normal with too many covariance rows",
     HEAD + "dispersions:\n  - {paths: [a, b], distribution: multivariate_normal,"
     " mean: [1, 2],\n     covariance: @[[1, 0], [0, 1], [0, 0]]}\n",
     "dispersions[0].covariance", ["[[1, 0], [0, 1], [0, 0]] has 3 rows", "expected a 2x2 matrix"]),
    ("multivariate normal with an asymmetric covariance",
     HEAD + "dispersions:\n  - {paths: [a, b], distribution: multivariate_normal,"
     " mean: [1, 2],\n     covariance: [[1, 0.5], [@0.4, 2]]}\n",
     "dispersions[0].covariance[1][0]",
     ["0.4 differs from covariance[0][1] (0.5)", "expected a symmetric matrix"]),
    ("multivariate normal with a covariance that is not semi-definite",
     HEAD + "dispersions:\n  - {paths: [a, b], distribution: multivariate_normal,"
     " mean: [1, 2],\n     covariance: @[[1, 2], [2, 1]]}\n", "dispersions[0].covariance",
     ["[[1, 2], [2, 1]] has a negative eigenvalue (-1)", "expected a positive semi-definite"]),
    ("multivariate normal with a path instead of paths",
     HEAD + "dispersions:\n  - {@path: a, distribution: multivariate_normal, mean: [1],"
     " covariance: [[1]]}\n", "dispersions[0].path",
     ["unknown key 'path'", "did you mean 'paths'"]),
    ("a path dispersed twice",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: 1, std: 1}\n"
     "  - {paths: [n, @m], distribution: multivariate_normal, mean: [1, 2],"
     " covariance: [[1, 0], [0, 1]]}\n", "dispersions[1].paths[1]",
     ["'m' is already dispersed by dispersions[0]", "expected each variable dispersed by one"]),
    ("a vector and one of its elements dispersed",
     HEAD + "dispersions:\n  - {path: 'v[2]', distribution: normal, mean: 1, std: 1}\n"
     "  - {path: @v, distribution: normal, mean: 1, std: 1}\n", "dispersions[1].path",
     ["'v' is the vector whose element 'v[2]' is dispersed by dispersions[0]", "expected"]),
    ("a path both overridden and dispersed",
     HEAD + "overrides: {m: 3}\ndispersions:\n"
     "  - {path: @m, distribution: normal, mean: 1, std: 1}\n", "dispersions[0].path",
     ["'m' is also set by overrides", "expected a path either overridden or dispersed"]),
    ("a series variable named like its time axis",
     HEAD + "record:\n  series:\n    rate: 1\n    variables: {@time: signals.x}\n",
     "record.series.variables.time", ["'time' is the series' time axis", "expected another name"]),
    ("a setting of the scenario file dispersed",
     HEAD + "dispersions:\n  - {path: @simulation.rtol, distribution: log_uniform, low: 1e-9, "
     "high: 1e-6}\n", "dispersions[0].path",
     ["'simulation.rtol' is a setting of the scenario file", "expected a variable path"]),
    ("one element of a vector overridden",
     HEAD + "overrides:\n  @'v[2]': 3\n", "overrides.v[2]",
     ["'v[2]' is one element", "expected a whole variable"]),
    ("a negative element index",
     HEAD + "dispersions:\n  - {path: @'v[-1]', distribution: normal, mean: 1, std: 1}\n",
     "dispersions[0].path", ["'v[-1]' is not a variable path", "optionally with one element "
                                                               "index"]),
    ("a path that is a number",
     HEAD + "dispersions:\n  - {path: @3, distribution: normal, mean: 1, std: 1}\n",
     "dispersions[0].path", ["3 is an integer, not a non-empty string", "expected a variable"]),
    ("dispersions not a list", HEAD + "dispersions: @{path: m}\n", "dispersions",
     ["{path: 'm'} is a mapping, not a list", "expected a list of dispersions"]),
    ("an output name that is not an identifier",
     HEAD + "record:\n  final: {@1speed: signals.v}\n", "record.final.1speed",
     ["'1speed' is not a valid output name", "expected an identifier"]),
    ("an output name used twice",
     HEAD + "record:\n  final: {h: signals.h}\n"
     "  series: {rate: 10, variables: {@h: signals.h}}\n", "record.series.variables.h",
     ["'h' is already recorded in record.final", "expected output names unique"]),
    ("an event named like a final value",
     HEAD + "record:\n  final: {touchdown: signals.v}\n  events: [@touchdown]\n",
     "record.events[0]", ["'touchdown' is already recorded in record.final", "expected"]),
    ("a series rate of 0",
     HEAD + "record:\n  series: {rate: @0, variables: {h: signals.h}}\n",
     "record.series.rate", ["0 is not > 0", "expected the sampling rate in Hz"]),
    ("a series without variables",
     HEAD + "record:\n  series: @{rate: 10}\n", "record.series.variables",
     ["missing", "expected a mapping of output names to variable paths"]),
    ("a misspelt record key", HEAD + "record:\n  @finale: {h: signals.h}\n", "record.finale",
     ["unknown key 'finale'", "did you mean 'final'"]),
    ("a histogram of an unrecorded output",
     HEAD + "record:\n  final: {speed: signals.v}\noutputs:\n  plots:\n    directory: p\n"
     "    histograms: [@sped]\n", "outputs.plots.histograms[0]",
     ["'sped' is not recorded", "expected a name from record.final or record.events (speed)",
      "did you mean 'speed'"]),
    ("a histogram of a time series",
     HEAD + "record:\n  series: {rate: 1, variables: {h: signals.h}}\noutputs:\n  plots:\n"
     "    directory: p\n    histograms: [@h]\n", "outputs.plots.histograms[0]",
     ["'h' is a time series", "expected a final value or event time"]),
    ("a scatter of a parameter that is not dispersed",
     HEAD + "dispersions:\n  - {path: m.mass, distribution: normal, mean: 1, std: 1}\n"
     "record:\n  final: {speed: signals.v}\noutputs:\n  plots:\n    directory: p\n"
     "    scatter: [[@m.mas, speed]]\n", "outputs.plots.scatter[0][0]",
     ["'m.mas' is not a dispersed path", "expected one of the dispersions' paths (m.mass)",
      "did you mean 'm.mass'"]),
    ("a scatter of an unrecorded output",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: 1, std: 1}\n"
     "record:\n  final: {speed: signals.v}\noutputs:\n  plots:\n    directory: p\n"
     "    scatter: [[m, @height]]\n", "outputs.plots.scatter[0][1]",
     ["'height' is not recorded", "expected a name from record.final"]),
    ("a scatter entry that is not a pair",
     HEAD + "dispersions:\n  - {path: m, distribution: normal, mean: 1, std: 1}\n"
     "record:\n  final: {speed: signals.v}\noutputs:\n  plots:\n    directory: p\n"
     "    scatter: [@[m]]\n", "outputs.plots.scatter[0]",
     ["['m'] is not a pair", "expected [parameter path, output name]"]),
    ("plots without a directory",
     HEAD + "record:\n  final: {speed: signals.v}\noutputs:\n  plots:\n"
     "    @histograms: [speed]\n", "outputs.plots.directory",
     ["missing", "expected the directory"]),
    ("a misspelt outputs key", HEAD + "outputs:\n  @fille: x.h5\n", "outputs.fille",
     ["unknown key 'fille'", "did you mean 'file'"]),
    ("a key given twice", HEAD + "seed: 1\n@seed: 2\n", "seed",
     ["duplicate key 'seed' (first at line 4)", "expected each key once"]),
    ("a YAML syntax error", HEAD + "dispersions: [1, 2\n@", "YAML syntax",
     ["expected ',' or ']'", "expected a valid YAML document"]),
    ("a document that is not a mapping", "@- campaign: 1\n", "(top level)",
     ["[{campaign: 1}] is a list, not a mapping", "expected a campaign"]),
    ("an empty file", "@", "(top level)", ["the file is empty", "expected a campaign"]),
]


@pytest.mark.parametrize("text, key, fragments", [case[1:] for case in ERRORS],
                         ids=[case[0] for case in ERRORS])
def test_errors_name_the_place_the_value_and_the_expectation(campaign_dir, text, key,
                                                             fragments):
    path, where = write(campaign_dir, text)
    with pytest.raises(hopsim.InputError) as raised:
        load_campaign(path)
    message = str(raised.value)
    prefix = f"{path}:{where}: {key}: "
    assert message.startswith(prefix), f"{message!r} does not start with {prefix!r}"
    rest = message[len(prefix):]
    assert rest.startswith(fragments[0]), f"{rest!r} does not name the bad value first"
    position = 0
    for fragment in fragments:  # in this order: value, problem, then expectation
        found = rest.find(fragment, position)
        assert found >= 0, f"{fragment!r} not in {rest!r} (after position {position})"
        position = found + len(fragment)
    assert "; expected " in rest or "(did you mean" in rest


def test_an_unreadable_file_is_an_input_error(tmp_path):
    with pytest.raises(hopsim.InputError, match=r"cannot read '.*missing\.yaml'"):
        load_campaign(tmp_path / "missing.yaml")


def test_a_dict_is_validated_the_same_way(campaign_dir):
    description = {
        "scenario": "scenario.yaml", "runs": 4,  # the format version may be omitted here
        "dispersions": [{"path": "m", "distribution": "normal", "mean": 1000, "std": 20}],
        "record": {"final": {"speed": "signals.v"}},
    }
    spec = campaign_from_dict(description, base_dir=campaign_dir)
    assert spec.scenario == os.path.join(str(campaign_dir), "scenario.yaml")
    assert spec.source is None and spec.text is None
    assert spec.dispersions == (d.Normal("m", 1000.0, 20.0),)

    description["dispersions"][0]["std"] = -2
    with pytest.raises(hopsim.InputError, match=re.escape(
            "<campaign>: dispersions[0].std: -2 is not > 0; expected the standard deviation, "
            "a number > 0")):
        campaign_from_dict(description, base_dir=campaign_dir)
    description["dispersions"][0]["std"] = 20
    description["sede"] = 1
    with pytest.raises(hopsim.InputError, match=re.escape(
            "<campaign>: sede: unknown key 'sede'")):
        campaign_from_dict(description, base_dir=campaign_dir)
    del description["sede"]
    description["campaign"] = 3  # when given, it is checked
    with pytest.raises(hopsim.InputError, match=re.escape("<campaign>: campaign: 3 is not")):
        campaign_from_dict(description, base_dir=campaign_dir)
    with pytest.raises(hopsim.InputError, match=re.escape("<campaign>: (top level): [1] is a "
                                                          "list")):
        campaign_from_dict([1])
