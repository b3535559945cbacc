#!/usr/bin/python3
"""Throughput of the campaign runner (hopsim.campaign; docs/campaigns.md,
docs/performance.md "Campaigns").

The short scenario is examples/lander.yaml (40 s of a FULL6DOF lander with gravity, an engine
and a tank, rkf45 at rtol 1e-12, to its touchdown event: about 11 ms per run on a quiet
machine),
dispersed as examples/lander_campaign.yaml disperses it. Reported, for --runs runs (median of
--repeat repetitions, wall time, time.perf_counter):

  bare loop      hopsim.load(scenario, overrides) and run() in a plain Python loop, the
                 overrides drawn by the campaign: the cost of the runs themselves;
  serial runner  Campaign.run(workers=0): the same runs through the runner in this process
                 (sampling, read-back, recording, results); the difference from the bare loop,
                 per run, is the runner's overhead;
  1 / 2 workers  Campaign.run(client=...) on an already started LocalCluster of 1 or 2 worker
                 processes: runs per second without the cluster's start-up, which is reported
                 apart (it is paid once per campaign, not per run).

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/campaign_throughput.py [--runs N]
"""

import argparse
import dataclasses
import os
import pathlib
import statistics
import time

import hopsim
from hopsim.campaign import Campaign, load_campaign

ROOT = pathlib.Path(__file__).resolve().parents[1]


def median_time(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    spec = load_campaign(str(ROOT / "examples" / "lander_campaign.yaml"))
    campaign = Campaign(dataclasses.replace(spec, runs=options.runs))
    base = campaign.base_vectors()
    from hopsim.campaign.execute import run_overrides

    overrides = [run_overrides(campaign.spec.overrides, campaign.parameters(run), base)
                 for run in range(options.runs)]

    def bare():
        for run_overrides_ in overrides:
            hopsim.load(campaign.spec.scenario, run_overrides_).run()

    bare_s = median_time(bare, options.repeat)
    serial_s = median_time(lambda: campaign.run(workers=0), options.repeat)
    print(f"runs: {options.runs} of {campaign.spec.scenario}")
    print(f"bare loop      {bare_s:8.3f} s  {options.runs / bare_s:8.1f} runs/s  "
          f"{1e3 * bare_s / options.runs:7.2f} ms/run")
    print(f"serial runner  {serial_s:8.3f} s  {options.runs / serial_s:8.1f} runs/s  "
          f"overhead {1e3 * (serial_s - bare_s) / options.runs:+.2f} ms/run "
          f"({100 * (serial_s / bare_s - 1):+.1f} %)")
    from distributed import Client, LocalCluster

    for workers in (1, 2):
        start = time.perf_counter()
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.wait_for_workers(workers)
            startup = time.perf_counter() - start
            campaign.run(client=client)  # warm: the workers import hopsim once
            run_s = median_time(lambda: campaign.run(client=client), options.repeat)
        print(f"{workers} worker{'s' if workers > 1 else ' '}      {run_s:8.3f} s  "
              f"{options.runs / run_s:8.1f} runs/s  (cluster start-up {startup:.2f} s)")
    print(f"machine: {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
