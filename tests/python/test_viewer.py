"""hopsim.view and hopsim.view_recorder: replay pages from Python (docs/viewer.md).

The pages themselves are tested in headless Chromium (tests/viewer); here, that Python writes
the page of a scenario, of a simulation with its page recorder and of a recording file, that
the page holds the recorded values exactly, and the errors.
"""

import html
import json
import pathlib
import re
import subprocess

import pytest

import hopsim

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
#: The hopsim program of the build tree the package comes from (<build>/python/hopsim).
HOPSIM = pathlib.Path(hopsim.__file__).resolve().parents[2] / "apps" / "hopsim"


def page_data(page):
    """The JSON data a replay page embeds."""
    text = pathlib.Path(page).read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="hopsim-replay">(.*?)</script>', text,
                      flags=re.S)
    assert found, "no data in the page"
    return json.loads(found.group(1))


def test_view_of_a_scenario_replays_its_logging(tmp_path):
    scenario = hopsim.load(EXAMPLES / "slider_crank.yaml", {"simulation.end_time": 2.0})
    scenario.run()
    page = hopsim.view(scenario, tmp_path / "crank.html")
    assert isinstance(page, hopsim.ReplayPage) and page == str(tmp_path / "crank.html")
    data = page_data(page)
    assert data["format"] == "hopsim-replay" and data["title"] == "slider_crank.yaml"
    assert data["camera"] == {"location": [9, -4, 1], "target": [2, 0, 0]}
    assert [b["name"] for b in data["bodies"]][:3] == ["crank", "slider", "rod"]
    # Every recorded value, exactly (17 digits round-trip a double).
    recording = data["recording"]
    assert recording["time"] == list(scenario.times())
    assert recording["columns"]["bodies.slider.position.x"] == list(
        scenario.values("bodies.slider.position.x"))
    # Jupyter shows the page itself, escaped into an iframe's srcdoc.
    shown = page._repr_html_()
    assert shown.startswith("<iframe") and "srcdoc=" in shown
    assert html.unescape(shown).count("hopsim-replay") >= 1


def test_view_of_a_simulation_with_its_page_recorder(tmp_path, monkeypatch):
    scenario = hopsim.load(EXAMPLES / "double_pendulum.yaml", {"simulation.end_time": 1.0})
    recorder = hopsim.view_recorder(scenario.sim, rate=20.0, logged=scenario.recorder)
    scenario.run()
    monkeypatch.chdir(tmp_path)
    page = hopsim.view(scenario.sim, recorder=recorder)
    assert page == "hopsim_replay.html" and (tmp_path / page).exists()
    data = page_data(page)
    assert len(data["recording"]["time"]) == 21
    upper = next(b for b in data["bodies"] if b["name"] == "upper")
    assert upper["defaultShape"] is True
    assert upper["pose"]["position"][0] == "multibody.bodies.upper.position[0]"
    assert data["recording"]["columns"]["multibody.bodies.upper.orientation[0]"] == list(
        recorder.values("multibody.bodies.upper.orientation[0]"))
    # The scenario, replayed through the same recorder, names its file.
    assert page_data(hopsim.view(scenario, recorder=recorder))["title"] == "double_pendulum.yaml"
    assert (tmp_path / "double_pendulum.html").exists()


def test_view_refuses_what_it_cannot_replay(tmp_path):
    scenario = hopsim.load(EXAMPLES / "double_pendulum.yaml", {"simulation.end_time": 0.1})
    scenario.run()
    # Its logging holds Q and U, not the bodies' poses.
    with pytest.raises(hopsim.InputError, match=r"no pose of the bodies 'upper', 'lower'"):
        hopsim.view(scenario, tmp_path / "p.html")
    with pytest.raises(TypeError, match="needs recorder="):
        hopsim.view(scenario.sim, tmp_path / "p.html")
    with pytest.raises(TypeError, match="expected a Scenario, a Simulation or the path"):
        hopsim.view(42)
    with pytest.raises(hopsim.InputError, match="rate"):
        hopsim.view_recorder(scenario.sim, rate=0.0)
    csv = tmp_path / "run.csv"
    scenario.recorder.write_csv(str(csv))
    with pytest.raises(hopsim.InputError, match=r"run\.scene\.json"):
        hopsim.view(csv)


@pytest.mark.skipif(not HOPSIM.exists(), reason="needs the hopsim program of the build tree")
@pytest.mark.parametrize("recording", ["run.csv", "run.h5"])
def test_view_of_a_recording_written_by_hopsim_run(tmp_path, recording):
    out = tmp_path / recording
    subprocess.run([str(HOPSIM), "run", str(EXAMPLES / "fourbar.yaml"), "--end", "1",
                    "--out", str(out), "--quiet"], check=True)
    page = hopsim.view(out)
    assert page == str(tmp_path / "run.html")
    data = page_data(page)
    assert data["title"] == "fourbar.yaml"
    assert len(data["recording"]["time"]) > 10
    # The four-bar's bars, posed by the file's own outputs.
    assert [b["shapes"][0]["type"] for b in data["bodies"] if "pose" in b] == ["box"] * 3


@pytest.mark.skipif(not HOPSIM.exists(), reason="needs the hopsim program of the build tree")
def test_a_run_without_a_scene_leaves_no_earlier_scene_beside_its_recording(tmp_path):
    model = tmp_path / "model.yaml"
    model.write_text("""chrono-version: 10.0
model:
  name: missing mesh
  bodies:
    - name: body
      location: [0, 0, 0]
      mass: 1
      inertia: {moments: [1, 1, 1]}
      visualization:
        shapes:
          - {type: MESH, filename: missing.obj}
""")
    (tmp_path / "run.scene.json").write_text('{"bodies":[]}\n')  # an earlier run's
    done = subprocess.run([str(HOPSIM), "run", str(model), "--end", "0.1", "--out",
                           str(tmp_path / "run.csv"), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "the recording will have no replay scene" in done.stderr and "missing.obj" in done.stderr
    assert not (tmp_path / "run.scene.json").exists()
    with pytest.raises(hopsim.InputError, match=r"run\.scene\.json"):
        hopsim.view(tmp_path / "run.csv")
