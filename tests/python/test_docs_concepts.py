"""The concepts chapter's worked example (docs/concepts.md) runs as written.

Its code blocks, run in order in one namespace, form one script: a damped mass-spring under a
constant force beside a sine source, a gain and a 30 Hz hold; a periodic event, a zero crossing
at the equilibrium, a 250 Hz recorder. The script checks itself against the closed form; this
test checks again, from its namespace, the crossing times, the hop count and the calling order.
"""

import math

from conftest import python_blocks


def test_the_worked_example_runs_as_written_and_matches_the_closed_form(tmp_path, monkeypatch,
                                                                        capsys):
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks("concepts.md")
    assert len(blocks) == 4
    namespace = {}
    for block in blocks:
        exec(compile(block, "docs/concepts.md", "exec"), namespace)
    out = capsys.readouterr().out
    assert "hops: 602" in out
    assert out.count("x = ") == 6  # the periodic report at 0, 1, ..., 5 s

    # The first downward pass through the equilibrium F/k, from the chapter's numbers:
    # x - F/k = (x0 - F/k) e^(-sigma t) (cos wd t + sigma/wd sin wd t) = 0.
    m, k, c = 1.0, 4.0, 0.4
    sigma = c / (2.0 * m)
    wd = math.sqrt(k / m - sigma**2)
    first = (math.pi - math.atan(wd / sigma)) / wd
    crossings = namespace["crossings"]
    assert len(crossings) == 2
    assert abs(crossings[0] - first) < 1e-9
    assert abs(crossings[1] - (first + 2.0 * math.pi / wd)) < 1e-9

    sim = namespace["sim"]
    assert sim.time() == 5.0
    assert sim.hop_count() == 602
    # Gain was added before SineWave but feeds its input through, so it runs after it.
    assert list(sim.model_order().flow_models) == ["hold", "source", "scale"]
