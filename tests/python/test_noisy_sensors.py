"""The noisy attitude and CM-frame sensors from a scenario file and from Python: created by
class name, seeded noise reproducible bit for bit, truth and noise related as their notes say
(docs/models/NoisyAttitude.md, docs/models/CmFrameStateSensor.md)."""

import numpy as np
import pytest

import hopsim

SCENARIO = """
hopsim: 1
simulation:
  end_time: 1 s
  io_step: 10 ms
  integrator: rk4
assemblies:
  craft:
    class: VehicleAssembly
    basename: bus
    params:
      position: [7000000, 0, 0]
      attitude: [1, 0, 0, 0]
      bodies:
        bus:
          mass: 50 kg
          inertia: [4, 4, 4]
          hinge: {{type: FULL6DOF_INERTIAL, u: [0.1, -0.2, 0.3, 0, 7500, 0]}}
          nodes:
            imu: {{position: [0.1, 0, 0.05]}}
signals:
  noisy: {{length: 4}}
  error: {{length: 4}}
  truth: {{length: 4}}
  accel: {{length: 3, unit: m/s^2}}
  lvlh: {{length: 4}}
  origin: {{length: 3, unit: m}}
  velocity: {{length: 3, unit: m/s}}
  angles: {{length: 3, unit: rad}}
  truth_error: {{length: 4}}
  truth_noisy: {{length: 4}}
models:
  star:
    class: NoisyAttitude
    node: imu
    rate: 20 Hz
    params: {{sig_att_noise: 1e-3, gyro_random_walk: 1e-3, seed: {seed}}}
    ties: {{noisy_attitude: noisy, noise_level: error}}
  truth:
    class: NoisyNodePosVelAccelSensor
    node: imu
    params: {{noise_switch: false}}
    ties: {{quat_truth: truth, bodySensedAccel_truth: accel, noise_level: truth_error,
           noisy_attitude: truth_noisy}}
  frame:
    class: CmFrameStateSensor
    node: imu
    params: {{frameType: LVLH, centerOfMassType: COMPONENT}}
    ties: {{quat: lvlh, framePosition: origin, frameVelocity: velocity, angles: angles}}
"""


def _run(tmp_path, seed):
    path = tmp_path / f"noisy_{seed}.yaml"
    path.write_text(SCENARIO.format(seed=seed))
    scenario = hopsim.load(str(path))
    scenario.run(progress=False)
    return {name: np.array(scenario.sim.get(f"signals.{name}"))
            for name in ("noisy", "error", "truth", "accel", "lvlh", "origin", "truth_error",
                         "truth_noisy")}


def _product(p, q):
    return np.array([p[0] * q[0] - p[1:] @ q[1:],
                     *(p[0] * q[1:] + q[0] * p[1:] + np.cross(p[1:], q[1:]))])


def test_a_scenario_with_the_noisy_sensors_is_reproducible_and_consistent(tmp_path):
    first, again, other = _run(tmp_path, 7), _run(tmp_path, 7), _run(tmp_path, 8)
    for name in first:
        assert np.array_equal(first[name], again[name]), name
    assert not np.array_equal(first["error"], other["error"])
    assert np.array_equal(first["truth"], other["truth"])
    # noisy = truth ⊗ error, up to the sign convention e0 >= 0; the error is small and real.
    expected = _product(first["truth"], first["error"])
    assert np.allclose(first["noisy"], expected * np.sign(expected[0]), atol=1e-12)
    assert 0 < np.linalg.norm(first["error"][1:]) < 0.05
    # A free craft spinning at a constant body rate w (spherical inertia): the node at p senses
    # the centripetal specific force w x (w x p), here from the last derivative evaluation (an
    # rk4 stage, not the accepted state: within 1e-4 relative here); the frame's
    # origin is the CM after 1 s at 7.5 km/s.
    w, p = np.array([0.1, -0.2, 0.3]), np.array([0.1, 0, 0.05])
    assert np.allclose(first["accel"], np.cross(w, np.cross(w, p)), rtol=0, atol=1e-5)
    assert np.allclose(first["origin"], [7e6, 7500, 0], rtol=1e-12)
    # With its noise off, the truth sensor's noisy attitude is the truth.
    assert np.array_equal(first["truth_error"], [1, 0, 0, 0])
    assert np.allclose(first["truth_noisy"], first["truth"], atol=1e-15)


def test_python_creates_the_sensors_by_class_name_and_refuses_bad_values():
    registry = hopsim.standard_registry()
    for name in ("NoisyAttitude", "NoisyNodePosVelAccelSensor", "CmFrameStateSensor",
                 "PulsedThrusterBlowdown"):
        assert name in registry
    sim = hopsim.Simulation(io_step_size=0.01)
    with pytest.raises(hopsim.InputError, match="sig_att_noise"):
        sim.add_model("NoisyAttitude", "star", {"sig_att_noise": -1.0})
