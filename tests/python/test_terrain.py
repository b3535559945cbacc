"""Terrain from Python and from a scenario file: TerrainPenetration created by name on a height
map written by the test, its outputs against the plane the map samples (a height map of a plane
is that plane: bilinear interpolation is exact for it), and its file errors naming file and
line. The geometry: the plane z = 0.1 + 0.2 x - 0.1 y, normal n = [-0.2, 0.1, 1]/|...|; a point
p below it is (h(x, y) - z) n_z deep."""

import math

import numpy as np
import pytest

import hopsim

C0, CX, CY = 0.1, 0.2, -0.1
NZ = 1.0 / math.sqrt(1.0 + CX * CX + CY * CY)


def plane_map(path):
    rows = []
    for j in range(5):
        y = -2.0 + j
        rows.append(" ".join(repr(C0 + CX * (-2.0 + i) + CY * y) for i in range(5)))
    path.write_text("hopsim_height_map 1\norigin -2 -2\nspacing 1 1\nsize 5 5\nheights\n"
                    + "\n".join(rows) + "\n")
    return path


def expected_depth(p):
    return (C0 + CX * p[0] + CY * p[1] - p[2]) * NZ


def test_terrain_penetration_from_python_on_a_height_map(tmp_path):
    terrain = plane_map(tmp_path / "plane.txt")
    sim = hopsim.Simulation(0.01)
    mb = sim.multibody
    mb.add_body("probe", "world", hopsim.Hinge.translational(), hopsim.sphere_inertia(1.0, 0.1))
    mb.add_node("tip", "probe", hopsim.RigidTransform.from_translation([0, 0, 0]))
    p = [0.7, -1.3, 0.05]
    mb.set_body_q("probe", p)
    for name, size in (("depth", 1), ("rate", 1), ("normal", 3), ("h", 1), ("soil", 6)):
        sim.add_signal(name, length=size)
    sim.add_model("TerrainPenetration", "ground",
                  {"terrain": "HEIGHT_MAP", "file": str(terrain)},
                  ties={"penetration": "depth", "penetration_rate": "rate", "normal": "normal",
                        "surface_height": "h", "soil": "soil"},
                  node="tip")
    sim.lock()
    sim.advance_over_hop()
    assert sim.get("signals.depth") == pytest.approx(expected_depth(p), rel=1e-13)
    assert np.allclose(sim.get("signals.normal"), np.array([-CX, -CY, 1.0]) * NZ, atol=1e-15)
    assert sim.get("signals.soil")[2] == 1.1  # the default soil, Wong's dry sand

    (tmp_path / "plane.txt").write_text("hopsim_height_map 1\norigin 0 0\nspacing 1 1\n")
    sim.set("models.ground.params.file", str(tmp_path / "plane.txt"))
    with pytest.raises(hopsim.InputError, match=r"models\.ground\.params\.file: .*plane\.txt:3: "
                       r"the file ends; expected 'size' and nx ny"):
        sim.advance_over_hop()


SCENARIO = """hopsim: 1
simulation: {end_time: 0.1 s, io_step: 10 ms, integrator: rk4}
assemblies:
  probe:
    class: BodyAssembly
    params:
      mass: 1 kg
      inertia: [0.01, 0.01, 0.01]
      hinge: {type: TRANSLATIONAL, q: [0.7, -1.3, 0.05], u: [1, 0, 0]}
      nodes:
        tip: {position: [0, 0, 0]}
signals:
  depth: {unit: m}
  rate: {unit: m/s}
  normal: {length: 3}
  h: {unit: m}
  soil: {length: 6}
models:
  ground:
    class: TerrainPenetration
    node: tip
    params: {terrain: SLOPE, slope: 0.2 rad, slope_heading: 0, height: 0.1 m}
    ties: {penetration: depth, penetration_rate: rate, normal: normal, surface_height: h,
           soil: soil}
logging:
  variables: [signals.depth]
"""


def test_terrain_penetration_in_a_scenario_file(tmp_path):
    path = tmp_path / "probe.yaml"
    path.write_text(SCENARIO)
    scenario = hopsim.load(path)
    scenario.run()
    # Moving along +x, uphill, at 1 m/s: the depth below the plane at x(t) = 0.7 + t.
    t = scenario.sim.time()
    x = 0.7 + t
    expected = (0.1 + math.tan(0.2) * x - 0.05) * math.cos(0.2)
    assert scenario.sim.get("signals.depth") == pytest.approx(expected, rel=1e-12)

    path.write_text(SCENARIO.replace("terrain: SLOPE", "terrain: HILLS"))
    with pytest.raises(hopsim.InputError, match="terrain: value 'HILLS' is not PLANE"):
        hopsim.load(path).run()
