"""How Scenario, Simulation, Recorder and CampaignResults show in a notebook (_repr_html_) and
at the prompt (__repr__)."""

import html
import pathlib
import re

import numpy as np

import hopsim

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def rows_of(page):
    """The rows of every table of an HTML page, each a list of its cells' text."""
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", page, flags=re.S):
        rows.append([html.unescape(re.sub(r"<[^>]+>", "", cell))
                     for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, flags=re.S)])
    return rows


def small_simulation():
    sim = hopsim.Simulation(io_step_size=0.1)
    sim.add_signal("wave", unit="m")
    sim.add_signal("held", unit="m")
    sim.add_model("Gain", "zoh")  # created first, called second: it feeds u through to y
    sim.add_model("SineWave", "sine", {"frequency": 0.5})
    sim.tie("sine", "y", "wave")
    sim.tie("zoh", "u", "wave")
    sim.tie("zoh", "y", "held")
    return sim


def test_a_simulation_lists_its_models_in_calling_order_with_signals_and_values():
    sim = small_simulation()
    page = sim._repr_html_()
    assert "unlocked: models in creation order" in page
    assert rows_of(page)[1:3] == [["1", "zoh", "Gain", ""], ["2", "sine", "SineWave", ""]]
    sim.lock()
    sim.advance_time_to(0.5)
    page = sim._repr_html_()
    assert "hopsim.Simulation</b> at t = 0.5 s, 5 hops (locked: models in calling order)" in page
    rows = rows_of(page)
    assert rows[1:3] == [["1", "sine", "SineWave", "flow"], ["2", "zoh", "Gain", "flow"]]
    assert ["signal", "value", "unit"] in rows
    held = next(r for r in rows if r[0] == "held")
    assert held == ["held", f"{sim.get('signals.held'):.6g}", "m"]


def test_a_simulation_with_bodies_lists_them():
    scenario = hopsim.load(EXAMPLES / "lander_touchdown.yaml")
    page = scenario.sim._repr_html_()
    bodies = scenario.sim.multibody.body_names()
    assert bodies and f"{len(bodies)} bodies" in page
    assert all([body] in rows_of(page) for body in bodies)


def test_a_recorder_shows_its_columns_with_units_and_a_preview_of_both_ends():
    scenario = hopsim.load(EXAMPLES / "lander_touchdown.yaml")
    scenario.run(progress=False)
    recorder = scenario.recorder
    page = recorder._repr_html_()
    columns, units = list(recorder.columns), recorder.units
    assert f"{len(columns)} columns, {recorder.rows} samples" in page
    rows = rows_of(page)
    shown = min(len(columns), 8)
    assert rows[0] == ["time [s]"] + [c + (f" [{units[c]}]" if units[c] else "")
                                      for c in columns[:shown]]
    table = recorder.to_numpy()
    assert rows[1] == [f"{v:.6g}" for v in table[0, :shown + 1]]
    assert rows[4] == ["..."] * (shown + 1)
    assert rows[-1] == [f"{v:.6g}" for v in table[-1, :shown + 1]]
    assert len(rows) == 1 + 3 + 1 + 3


def test_an_empty_recorder_shows_its_columns_and_no_samples():
    sim = small_simulation()
    sim.lock()
    recorder = sim.record(["signals.*"], rate=10.0)
    page = recorder._repr_html_()
    assert "2 columns, 0 samples" in page
    assert rows_of(page) == [["time [s]", "signals.held [m]", "signals.wave [m]"]]


def test_a_scenario_shows_its_file_times_simulation_and_recording():
    path = EXAMPLES / "lander_touchdown.yaml"
    scenario = hopsim.load(path)
    text = repr(scenario)
    assert re.fullmatch(rf"<hopsim\.Scenario '{re.escape(str(path))}': t = 0 s of 10 s, \d+ "
                        r"models, \d+ signals, \d+ recorded columns, 0 warnings>", text), text
    page = scenario._repr_html_()
    assert f"<code>{html.escape(str(path))}</code>: t = 0 s of 10 s" in page
    assert "hopsim.Simulation" in page and "hopsim.Recorder" in page


def test_long_tables_are_cut_and_say_how_many_more():
    sim = hopsim.Simulation()
    for k in range(45):
        sim.add_signal(f"s{k:02d}")
    page = sim._repr_html_()
    assert "... and 15 more signals" in page
    assert sum(1 for row in rows_of(page) if row and re.fullmatch(r"s\d\d", row[0])) == 30


def test_campaign_results_show_the_summary_and_failed_runs():
    from hopsim.campaign.results import CampaignResults

    rows = [{"ok": True, "error": "", "final": {"speed": 1.5}, "events": {}, "end_time": 1.0,
             "wall": 0.1, "applied": {}},
            {"ok": False, "error": "InputError: bad", "final": {"speed": np.nan}, "events": {},
             "end_time": 0.0, "wall": 0.1, "applied": {}}]
    results = CampaignResults([], ["speed"], [], [], rows, [{}, {}], series_time=[])
    assert repr(results) == "<hopsim.CampaignResults 2 runs, 1 failed, outputs speed>"
    page_rows = rows_of(results._repr_html_())
    assert page_rows[0] == ["output", "unit", "count", "mean", "std", "min", "p5", "p50", "p95",
                            "max"]
    assert page_rows[1][:5] == ["speed", "", "1", "1.5", "0"]
    assert ["1", "InputError: bad"] in page_rows
