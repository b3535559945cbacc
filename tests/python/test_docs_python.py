"""The Python tutorial (docs/python.md) runs as written.

Its code blocks, run in order in one namespace, form the tutorial's script: a pendulum, a PD
controller in Python, events, recording and a plot. The result is checked against statics, as
examples/pendulum_control.py checks its own run: at rest, kp (target - theta) = m g l sin(theta).
"""

import math

from conftest import python_blocks




def test_the_tutorial_runs_as_written_and_settles_where_statics_says(tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in python_blocks("python.md")[:6]:
        exec(compile(block, "docs/python.md", "exec"), namespace)
    assert (tmp_path / "pendulum.png").stat().st_size > 0
    # The angle and the torque on axes of their own, each with its unit.
    assert [ax.get_ylabel() for ax in namespace["axes"]] == [
        "signals.angle [rad]", "signals.torque [N*m]"]
    assert "passes 0.4 rad at" in capsys.readouterr().out  # the zero crossing fired

    kp, target, mass, g, length = 40.0, 0.6, 2.0, 9.81, 0.75  # the tutorial's numbers
    low, high = 0.0, target
    for _ in range(200):
        middle = 0.5 * (low + high)
        if kp * (target - middle) - mass * g * length * math.sin(middle) > 0.0:
            low = middle
        else:
            high = middle
    final = namespace["sim"].get("multibody.bodies.arm.Q")
    assert abs(final - 0.5 * (low + high)) < 1e-6
    assert len(namespace["frame"]) == 2001  # 100 Hz over 20 s, both ends
