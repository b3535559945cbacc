"""Monte Carlo campaigns and parameter sweeps (docs/campaigns.md): the same scenario run many
times with dispersed parameters, on this machine or a Dask cluster, with the same results::

    campaign = hopsim.Campaign.from_file("examples/lander_campaign.yaml")
    results = campaign.run(workers=2)          # a LocalCluster of 2 worker processes
    print(results.summary_text())
    results.write_hdf5("lander_campaign.h5")

``campaign.run(client=distributed.Client("tcp://scheduler:8786"))`` runs it on a cluster, and
``campaign.replay(417)`` runs member 417 alone.
"""

from hopsim.campaign.results import CampaignResults
from hopsim.campaign.runner import Campaign, ProgressBar
from hopsim.campaign.spec import CampaignSpec, campaign_from_dict, load_campaign

__all__ = ["Campaign", "CampaignResults", "CampaignSpec", "ProgressBar", "campaign_from_dict",
           "load_campaign"]
