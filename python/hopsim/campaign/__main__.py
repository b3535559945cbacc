"""python3 -m hopsim.campaign FILE [--workers N | --scheduler ADDRESS] [--runs N]
[--set PATH=VALUE ...] [--out-dir D] [--replay RUN] [--out F] [--quiet]

What ``hopsim campaign`` runs (docs/campaigns.md): the campaign of FILE on a LocalCluster of N
worker processes (default: the CPU count; 0 runs serially in this process) or on the Dask
scheduler at ADDRESS; the results into one HDF5 file, the summary on stdout (and into the
file's ``outputs.summary``), the plots of ``outputs.plots``, all in the current directory or
``--out-dir``. ``--runs`` and ``--set`` change the file's runs and add overrides.
``--replay RUN`` runs one member alone and prints what it recorded.
"""

import argparse
import math
import os
import sys

import yaml

import hopsim
from hopsim.campaign import Campaign, ProgressBar
from hopsim.campaign.spec import parse_value


def _arguments(argv):
    parser = argparse.ArgumentParser(
        prog=os.environ.get("HOPSIM_CAMPAIGN_PROG", "python3 -m hopsim.campaign"),
        description="run a Monte Carlo campaign or parameter sweep of a scenario")
    parser.add_argument("file", help="the campaign file (YAML, docs/campaigns.md)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=None,
                       help="worker processes of the local cluster (default: the CPU count; "
                            "0: run serially in this process)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask scheduler at ADDRESS (tcp://host:8786)")
    parser.add_argument("--runs", type=int, metavar="N",
                        help="the number of runs, replacing the file's runs")
    parser.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                        dest="overrides",
                        help="an override of the scenario for every run, added to the file's "
                             "overrides; VALUE is YAML (repeatable)")
    parser.add_argument("--out-dir", metavar="D",
                        help="the directory the outputs go to (default: the current directory; "
                             "created if missing)")
    parser.add_argument("--replay", type=int, metavar="RUN",
                        help="run member RUN alone, here, and print what it recorded")
    parser.add_argument("--out", help="the results file (default: outputs.file, else FILE's "
                                      "name with .h5)")
    parser.add_argument("--quiet", action="store_true", help="no progress and no summary")
    options = parser.parse_args(argv)
    if options.workers is not None and options.workers < 0:
        parser.error(f"--workers: expected an integer >= 0, got {options.workers}")
    for option, value in (("--out", options.out), ("--out-dir", options.out_dir)):
        if options.replay is not None and value is not None:
            parser.error(f"{option}: a replay writes no file; give --replay or {option}")
    overrides = {}
    for text in options.overrides:
        path, equals, value = text.partition("=")
        if not equals or not path.strip():
            parser.error(f"--set: '{text}' is not PATH=VALUE; expected e.g. "
                         "--set signals.throttle=0.45")
        try:
            overrides[path.strip()] = parse_value(value)
        except yaml.YAMLError as error:
            problem = getattr(error, "problem", None) or str(error).splitlines()[0]
            parser.error(f"--set {path.strip()}: '{value}' is not a YAML value ({problem})")
    options.overrides = overrides
    return options


def _check_writable(files):
    """Each file's directory exists and is writable: found before the runs, not after them."""
    for what, path in files:
        directory = os.path.dirname(os.path.abspath(path))
        if not (os.path.isdir(directory) and os.access(directory, os.W_OK)):
            raise OSError(f"{what}: cannot write '{path}': the directory '{directory}' does "
                          "not exist or is not writable")


def _shown(path):
    """A path as the user would type it from here: relative below the current directory."""
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative


def _replay(campaign, run):
    row = campaign.replay(run)
    print(f"run {run} of {campaign.runs} ({'ok' if row['ok'] else 'failed'})")
    for path, value in campaign.parameters(run).items():
        print(f"  parameter {path} = {value!r} (applied {row['applied'][path]!r})")
    for name, value in row["final"].items():
        print(f"  final {name} = {value!r}")
    for name, value in row["events"].items():
        print(f"  event {name} at t = {value!r}" if not math.isnan(value) else
              f"  event {name}: never fired")
    if not row["ok"]:
        print(f"  error: {row['error']}")
    return 0 if row["ok"] else 1


def main(argv=None):
    options = _arguments(sys.argv[1:] if argv is None else argv)
    try:
        campaign = Campaign.from_file(options.file, runs=options.runs,
                                      overrides=options.overrides, output_dir=options.out_dir)
        if options.replay is not None:
            return _replay(campaign, options.replay)
        spec = campaign.spec
        default_out = os.path.splitext(os.path.basename(options.file))[0] + ".h5"
        out = options.out or spec.output or os.path.join(options.out_dir or "", default_out)
        if options.out_dir is not None:  # once the file and the options are known to be good
            os.makedirs(options.out_dir, exist_ok=True)
        _check_writable([("the results file", out)] +
                        ([("outputs.summary", spec.summary)] if spec.summary else []))
        progress = None if options.quiet else ProgressBar(sys.stderr)
        if options.scheduler:
            from distributed import Client

            with Client(options.scheduler) as client:
                results = campaign.run(client=client, progress=progress)
        else:
            results = campaign.run(workers=options.workers, progress=progress)
        results.write_hdf5(out)
        text = results.summary_text()
        if spec.summary:
            with open(spec.summary, "w", encoding="utf-8") as summary:
                summary.write(text)
        written = []
        if spec.plots.directory:
            written = results.plot(spec.plots.directory, spec.plots.histograms,
                                   spec.plots.scatter)
        if not options.quiet:
            sys.stdout.write(text)
            print(f"wrote {_shown(out)}" + (f", {_shown(spec.summary)}" if spec.summary else "") +
                  (f" and {len(written)} plots in {_shown(spec.plots.directory)}"
                   if written else ""))
        return 0
    except (hopsim.Error, IndexError, OSError) as error:
        print(f"hopsim campaign: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
