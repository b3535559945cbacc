"""Running a campaign: serially in this process, on a local Dask cluster, or on a running Dask
scheduler, with the same results whichever (docs/campaigns.md).

Each run's parameters are sampled here, from its own seed (the campaign's seed and the run
number), before anything is sent: a worker gets plain values, the results come back in run
order, and any run can be replayed alone with :meth:`Campaign.replay`.
"""

import math
import os
import sys
import time

from hopsim.campaign import dispersions as _dispersions
from hopsim.campaign import spec as _spec
from hopsim.campaign.execute import execute_batch, execute_run, split_element, units_of
from hopsim.campaign.results import CampaignResults


class Campaign:
    """A campaign: a scenario, its dispersions, what each run records and where results go.

    Make one from a campaign file (:meth:`from_file`) or from a dict with the file's keys
    (``Campaign({"scenario": ..., "runs": 100, "dispersions": [...], ...})``); both are
    validated the same way and raise :class:`hopsim.InputError` naming the key path.
    """

    def __init__(self, description, base_dir="."):
        if isinstance(description, _spec.CampaignSpec):
            self.spec = description
        else:
            self.spec = _spec.campaign_from_dict(dict(description), base_dir=base_dir)
        self._base_vectors = None
        self._units = None

    @classmethod
    def from_file(cls, path, *, runs=None, overrides=None, output_dir=None):
        """The campaign of a campaign file; ``runs`` and ``overrides`` (``{path: value}``)
        replace and add to the file's, and its outputs are relative to ``output_dir``
        (default: the current directory). See :func:`hopsim.campaign.load_campaign`."""
        return cls(_spec.load_campaign(os.fspath(path), runs=runs, overrides=overrides,
                                       output_dir=output_dir))

    @property
    def runs(self):
        return self.spec.runs

    def parameters(self, run):
        """The dispersed values of run ``run`` (path -> value), the same whenever asked."""
        if not 0 <= run < self.spec.runs:
            raise IndexError(f"run {run}: the campaign has runs 0 to {self.spec.runs - 1}")
        return _dispersions.sample_run(self.spec, self.spec.seed, run)

    def _record(self):
        record = self.spec.record
        series = None
        if record.series is not None:
            series = {"rate": record.series.rate, "variables": dict(record.series.variables)}
        return {"final": dict(record.final), "events": list(record.events), "series": series}

    def _load_unchanged(self):
        """The scenario with the fixed overrides only: where base vectors and units are read."""
        import hopsim

        return hopsim.load(self.spec.scenario, dict(self.spec.overrides))

    def base_vectors(self):
        """The scenario's value (with the fixed overrides) of every vector variable whose
        elements are dispersed: each run overrides the whole vector with its elements set."""
        if self._base_vectors is None:
            bases = {split_element(p)[0] for p in self.spec.parameter_paths()
                     if split_element(p)[1] is not None}
            vectors = {}
            if bases:
                scenario = self._load_unchanged()
                for base in sorted(bases):
                    vectors[base] = [float(v) for v in scenario.sim.get(base)]
            self._base_vectors = vectors
        return self._base_vectors

    def units(self):
        """``{name: unit}`` of every dispersed parameter (by path) and recorded output (by
        name): the variables' units as the scenario declares them, "s" for event times, ""
        for a dimensionless value or one whose unit the simulation does not know."""
        if self._units is None:
            record = self.spec.record
            series = dict(record.series.variables) if record.series is not None else {}
            paths = {**{p: p for p in self.spec.parameter_paths()}, **record.final, **series}
            try:
                sim = self._load_unchanged().sim
                found = units_of(sim, sorted(set(paths.values())))
            except Exception:  # noqa: BLE001 - a scenario that fails to load fails each run,
                found = {}  # which the results report; its units are then unknown
            units = {name: found.get(path, "") for name, path in paths.items()}
            units.update({name: "s" for name in record.events})
            self._units = units
        return self._units

    def replay(self, run):
        """Runs member ``run`` alone, in this process; returns its result dict (the row
        :meth:`run` would have stored for it)."""
        return execute_run(self.spec.scenario, dict(self.spec.overrides), self.parameters(run),
                           self.base_vectors(), self._record(), run)

    def run(self, client=None, workers=None, progress=None, batch_size=None):
        """Runs every member and returns the :class:`CampaignResults` (in run order).

        - ``client``: a ``distributed.Client`` to run on (a LocalCluster's or a remote
          scheduler's); the caller keeps it.
        - else ``workers``: 0 runs serially in this process; N > 0 (default: the CPU count)
          starts a ``LocalCluster`` of N single-threaded worker processes for this call.
        - ``progress``: a callable(done, failed, total, elapsed) called as runs finish, or
          None for none.
        - ``batch_size``: runs per Dask task (default: enough tasks for 8 per worker, at most
          100 runs each), so that millions of runs are not millions of tasks.
        """
        total = self.spec.runs
        parameters = [self.parameters(run) for run in range(total)]
        fixed, record, base = dict(self.spec.overrides), self._record(), self.base_vectors()
        rows = [None] * total
        start = time.perf_counter()
        done = failed = 0

        def collect(batch_rows):
            nonlocal done, failed
            for row in batch_rows:
                rows[row["run"]] = row
                done += 1
                failed += not row["ok"]
            if progress is not None:
                progress(done, failed, total, time.perf_counter() - start)

        if client is None and workers == 0:
            for run in range(total):
                collect([execute_run(self.spec.scenario, fixed, parameters[run], base, record,
                                     run)])
        elif client is not None:
            self._run_on(client, parameters, fixed, record, base, collect, batch_size)
        else:
            from distributed import Client, LocalCluster

            count = workers if workers is not None else (os.cpu_count() or 1)
            with LocalCluster(n_workers=count, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as local:
                self._run_on(local, parameters, fixed, record, base, collect, batch_size)
        return CampaignResults(self.spec.parameter_paths(), list(record["final"]),
                               record["events"],
                               list(record["series"]["variables"]) if record["series"] else [],
                               rows, parameters, campaign_text=self.spec.text or "",
                               scenario=self.spec.scenario, seed=self.spec.seed,
                               units=self.units())

    def _run_on(self, client, parameters, fixed, record, base, collect, batch_size):
        from distributed import as_completed

        total = len(parameters)
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = batch_size or max(1, min(100, math.ceil(total / (8 * workers))))
        batches = {}
        for first in range(0, total, size):
            batch = [(run, parameters[run]) for run in range(first, min(first + size, total))]
            future = client.submit(execute_batch, self.spec.scenario, fixed, batch, base, record,
                                   pure=False)
            batches[future.key] = (future, batch)
        for future in as_completed([f for f, _ in batches.values()]):
            try:
                collect(future.result())
            except Exception as error:  # noqa: BLE001 - a lost worker fails its runs, not all
                collect([_lost_run(run, p, record, error) for run, p in batches[future.key][1]])


def _lost_run(run, parameters, record, error):
    """The row of a run whose task failed outside the run itself (a worker that died)."""
    return {"run": run, "ok": False, "error": f"the task failed: {type(error).__name__}: {error}",
            "applied": {path: math.nan for path in parameters},
            "final": {name: math.nan for name in record["final"]},
            "events": {name: math.nan for name in record["events"]},
            "series": {}, "series_time": [], "end_time": math.nan, "wall": math.nan}


class ProgressBar:
    """Runs done and failed, and the time left, on one line of ``stream``: rewritten in place
    on a terminal, a line every 10 % elsewhere."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.terminal = self.stream.isatty()
        self.next_tenth = 1

    def __call__(self, done, failed, total, elapsed):
        if not self.terminal and done * 10 < self.next_tenth * total and done < total:
            return
        self.next_tenth = done * 10 // total + 1
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else math.inf
        width = 30
        filled = width * done // total
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} runs, {failed} failed, "
                f"{rate:.1f} runs/s, ETA {left:.0f} s" if left != math.inf else
                f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} runs, {failed} failed")
        if self.terminal:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
