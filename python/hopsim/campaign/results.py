"""The results of a campaign: one row per run, in run order, whatever order the runs finished
in, so that a campaign gives the same results serially, on local workers or on a cluster.

:class:`CampaignResults` holds them as numpy arrays, writes and reads them as one HDF5 file
(the layout is in docs/campaigns.md, "The results file"), summarizes them and plots them.
"""

import math

import numpy as np

from hopsim import _display

#: The statistics of a summary, in order.
STATISTICS = ("mean", "std", "min", "p5", "p50", "p95", "max")


class CampaignResults:
    """Runs x recorded values.

    Attributes (numpy arrays of one row per run unless said otherwise):

    - ``runs``: the run numbers (0 .. n-1);
    - ``parameter_paths`` (list) and ``parameters`` (runs x parameters): the dispersed values
      asked for; ``applied``: the values read back from each run's simulation (NaN where its
      load failed);
    - ``final_names`` and ``final`` (runs x names): the recorded final values;
    - ``event_names`` and ``events``: the first firing time of each event (NaN: never fired);
    - ``series_names``, ``series_time`` (samples) and ``series[name]`` (runs x samples, NaN
      after a run ended);
    - ``ok`` (bool), ``errors`` (list of str, "" for a run that succeeded), ``end_time`` (the
      simulation time each run ended at) and ``wall`` (s per run: the one field that differs
      from one execution to the next);
    - ``units`` (dict): the unit of each parameter path and output name ("" when
      dimensionless or unknown; :meth:`unit` reads it).
    """

    def __init__(self, parameter_paths, final_names, event_names, series_names, rows,
                 parameters, series_time=None, campaign_text="", scenario="", seed=0,
                 units=None):
        n = len(rows)
        self.runs = np.arange(n)
        self.parameter_paths = list(parameter_paths)
        self.final_names = list(final_names)
        self.event_names = list(event_names)
        self.series_names = list(series_names)
        self.campaign_text = campaign_text
        self.scenario = scenario
        self.seed = seed
        self.units = dict(units or {})
        self.parameters = np.array([[p[path] for path in self.parameter_paths]
                                    for p in parameters], dtype=float).reshape(n, -1)
        self.applied = np.array([[r["applied"][path] for path in self.parameter_paths]
                                 for r in rows], dtype=float).reshape(n, -1)
        self.final = np.array([[r["final"][name] for name in self.final_names] for r in rows],
                              dtype=float).reshape(n, -1)
        self.events = np.array([[r["events"][name] for name in self.event_names] for r in rows],
                               dtype=float).reshape(n, -1)
        self.ok = np.array([r["ok"] for r in rows], dtype=bool)
        self.errors = [r["error"] for r in rows]
        self.end_time = np.array([r["end_time"] for r in rows], dtype=float)
        self.wall = np.array([r["wall"] for r in rows], dtype=float)
        self.series_time = np.asarray(series_time if series_time is not None else
                                      _longest_series_time(rows), dtype=float)
        self.series = {}
        for name in self.series_names:
            table = np.full((n, self.series_time.size), math.nan)
            for i, r in enumerate(rows):
                values = r["series"].get(name, [])
                table[i, :len(values)] = values
            self.series[name] = table

    # ---- access -----------------------------------------------------------------------------

    @property
    def failures(self):
        """The number of runs that failed."""
        return int(np.count_nonzero(~self.ok))

    def output(self, name):
        """A recorded output by name (a final value or an event time), one value per run."""
        if name in self.final_names:
            return self.final[:, self.final_names.index(name)]
        if name in self.event_names:
            return self.events[:, self.event_names.index(name)]
        raise KeyError(f"no recorded output '{name}'; the campaign records "
                       f"{self.final_names + self.event_names}")

    def unit(self, name):
        """The unit of a parameter path or output name, "" when dimensionless or unknown."""
        return self.units.get(name, "")

    def label(self, name):
        """``name [unit]``, or ``name`` alone without a unit: an axis label."""
        unit = self.unit(name)
        return f"{name} [{unit}]" if unit else name

    def parameter(self, path):
        """A dispersed parameter's values (as asked for), one per run."""
        if path not in self.parameter_paths:
            raise KeyError(f"no dispersed parameter '{path}'; the campaign disperses "
                           f"{self.parameter_paths}")
        return self.parameters[:, self.parameter_paths.index(path)]

    # ---- summary ------------------------------------------------------------------------------

    def summary(self):
        """``{output: {statistic: value}}`` over the runs that succeeded (NaN values of an event
        that never fired left out), with ``count``; and ``runs``, ``failures``."""
        table = {"runs": int(self.runs.size), "failures": self.failures, "outputs": {}}
        for name in self.final_names + self.event_names:
            values = self.output(name)[self.ok]
            values = values[~np.isnan(values)]
            stats = {"count": int(values.size)}
            if values.size:
                p5, p50, p95 = np.percentile(values, [5, 50, 95])
                stats.update(mean=float(values.mean()), std=float(values.std(ddof=1))
                             if values.size > 1 else 0.0, min=float(values.min()),
                             p5=float(p5), p50=float(p50), p95=float(p95), max=float(values.max()))
            table["outputs"][name] = stats
        return table

    def summary_text(self):
        """The summary as a table of text, then the first failures with their errors."""
        summary = self.summary()
        lines = [f"{summary['runs']} runs, {summary['failures']} failed", ""]
        width = max([len(n) for n in summary["outputs"]] + [6])
        unit_width = max([len(self.unit(n)) for n in summary["outputs"]] + [4])
        lines.append(f"{'output':<{width}}  {'unit':<{unit_width}}  {'count':>6}" +
                     "".join(f"  {s:>13}" for s in STATISTICS))
        for name, stats in summary["outputs"].items():
            cells = "".join(f"  {stats[s]:>13.6g}" if s in stats else f"  {'-':>13}"
                            for s in STATISTICS)
            unit = self.unit(name) or "-"
            lines.append(f"{name:<{width}}  {unit:<{unit_width}}  {stats['count']:>6}{cells}")
        failed = np.flatnonzero(~self.ok)
        if failed.size:
            lines += ["", "failed runs (replay one with hopsim campaign FILE --replay RUN):"]
            for run in failed[:20]:
                lines.append(f"  run {run}: {self.errors[run]}")
            if failed.size > 20:
                lines.append(f"  ... and {failed.size - 20} more (the results file has them all)")
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return _display.results_repr(self)

    def _repr_html_(self):
        """The summary as an HTML table, then the failed runs with their errors (a notebook)."""
        return _display.results_html(self, STATISTICS)

    # ---- files --------------------------------------------------------------------------------

    def write_hdf5(self, path):
        """Writes every field into the HDF5 file ``path`` (created or truncated)."""
        import h5py

        strings = h5py.string_dtype()
        with h5py.File(path, "w") as h5:
            h5.attrs["format"] = "hopsim-campaign"
            h5.attrs["version"] = 1
            h5.attrs["campaign"] = self.campaign_text
            h5.attrs["scenario"] = self.scenario
            h5.attrs["seed"] = self.seed
            h5["runs"] = self.runs
            for name, values, names in (("parameters", self.parameters, self.parameter_paths),
                                        ("applied", self.applied, self.parameter_paths),
                                        ("final", self.final, self.final_names),
                                        ("events", self.events, self.event_names)):
                h5[name] = values
                h5[name].attrs["names"] = np.array(names, dtype=object).astype(strings)
                h5[name].attrs["units"] = np.array([self.unit(n) for n in names],
                                                   dtype=object).astype(strings)
            h5["ok"] = self.ok
            h5.create_dataset("errors", data=np.array(self.errors, dtype=object), dtype=strings)
            h5["end_time"] = self.end_time
            h5["wall"] = self.wall
            h5["wall"].attrs["unit"] = "s"
            h5["series_time"] = self.series_time
            h5["series_time"].attrs["unit"] = "s"
            group = h5.create_group("series")
            group.attrs["names"] = np.array(self.series_names, dtype=object).astype(strings)
            for name in self.series_names:
                group[name] = self.series[name]
                group[name].attrs["unit"] = self.unit(name)

    @classmethod
    def read_hdf5(cls, path):
        """The results a file written by :meth:`write_hdf5` holds."""
        import h5py

        results = cls.__new__(cls)
        with h5py.File(path, "r") as h5:
            if h5.attrs.get("format") != "hopsim-campaign":
                raise ValueError(f"{path}: not a hopsim campaign results file")

            def texts(values):
                return [n.decode() if isinstance(n, bytes) else str(n) for n in values]

            def names(dataset):
                return texts(h5[dataset].attrs["names"])

            results.units = {}
            for dataset in ("parameters", "final", "events"):
                units = texts(h5[dataset].attrs.get("units", []))
                results.units.update(zip(names(dataset), units))

            results.campaign_text = str(h5.attrs["campaign"])
            results.scenario = str(h5.attrs["scenario"])
            results.seed = int(h5.attrs["seed"])
            results.runs = h5["runs"][()]
            results.parameter_paths = names("parameters")
            results.final_names = names("final")
            results.event_names = names("events")
            results.parameters = h5["parameters"][()]
            results.applied = h5["applied"][()]
            results.final = h5["final"][()]
            results.events = h5["events"][()]
            results.ok = h5["ok"][()]
            results.errors = [e.decode() if isinstance(e, bytes) else str(e)
                              for e in h5["errors"][()]]
            results.end_time = h5["end_time"][()]
            results.wall = h5["wall"][()]
            results.series_time = h5["series_time"][()]
            results.series_names = names("series")
            results.series = {n: h5["series"][n][()] for n in results.series_names}
            results.units.update({n: texts([h5["series"][n].attrs.get("unit", "")])[0]
                                  for n in results.series_names})
        return results

    def plot(self, directory, histograms=(), scatter=()):
        """Writes ``hist_<output>.png`` per histogram and ``scatter_<output>_vs_<i>.png`` per
        (parameter, output) pair into ``directory``; returns the files written."""
        import os

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        os.makedirs(directory, exist_ok=True)
        written = []
        for name in histograms:
            values = self.output(name)[self.ok]
            values = values[~np.isnan(values)]
            figure, axes = plt.subplots(figsize=(6, 4))
            axes.hist(values, bins=max(10, int(math.sqrt(values.size))))
            axes.set_xlabel(self.label(name))
            axes.set_ylabel("runs")
            axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # runs are whole
            axes.set_title(f"{name}: {values.size} runs")
            written.append(os.path.join(directory, f"hist_{name}.png"))
            figure.tight_layout()
            figure.savefig(written[-1], dpi=100)
            plt.close(figure)
        for index, (path, name) in enumerate(scatter):
            figure, axes = plt.subplots(figsize=(6, 4))
            axes.scatter(self.parameter(path)[self.ok], self.output(name)[self.ok], s=8)
            axes.set_xlabel(self.label(path))
            axes.set_ylabel(self.label(name))
            written.append(os.path.join(directory, f"scatter_{name}_vs_{index}.png"))
            figure.tight_layout()
            figure.savefig(written[-1], dpi=100)
            plt.close(figure)
        return written


def _longest_series_time(rows):
    """The series times of the run that recorded the most samples (every run samples at the
    same times from t = 0; one that ended early has fewer)."""
    longest = max((r["series_time"] for r in rows), key=len, default=[])
    return list(longest)
