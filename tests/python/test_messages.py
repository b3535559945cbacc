"""Messages that point the right way from Python: an error names the override or the file, never
a command-line flag the user did not type, and says which tool takes a file load() does not."""

import pathlib
import re

import pytest

import hopsim

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("overrides", [{"simulation.end_time": "soon"},
                                       ["simulation.end_time=soon"]])
def test_a_bad_override_is_named_as_an_override_not_as_a_flag(overrides):
    with pytest.raises(hopsim.InputError) as error:
        hopsim.load(EXAMPLES / "pendulum_pd.yaml", overrides)
    message = str(error.value)
    assert message.startswith("override simulation.end_time=soon:1:1: ")
    assert "--" not in message


def test_a_bad_override_of_a_variable_is_named_as_an_override():
    with pytest.raises(hopsim.InputError) as error:
        hopsim.load(EXAMPLES / "pendulum_pd.yaml", {"models.nothing.params.k": 3})
    assert str(error.value).startswith("override models.nothing.params.k=3:1:1: ")
    assert "--" not in str(error.value)


def test_loading_a_campaign_file_says_what_runs_it():
    campaign = EXAMPLES / "lander_campaign.yaml"
    with pytest.raises(hopsim.InputError, match=re.escape(
            f"{campaign}:11:1: is a campaign file (`campaign: 1`), which runs its scenario many "
            f"times: run it with `hopsim campaign {campaign}` (docs/campaigns.md), or "
            "hopsim.Campaign.from_file in Python")):
        hopsim.load(campaign)
