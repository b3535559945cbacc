"""Long runs release the GIL; Python callbacks and Python models take it back for their calls.

The check is observable from Python alone: while a simulation advances in a second thread, the
main thread keeps running Python code only if the advancing call does not hold the GIL. A run
that held it would let the main thread in only at the interpreter's switch interval (5 ms), a
few dozen times in the whole run.
"""

import sys
import threading

import hopsim


def oscillator(hop=1e-5):
    sim = hopsim.Simulation(io_step_size=hop, integrator="rk4")
    for signal in ("F", "x", "v"):
        sim.add_signal(signal)
    sim.add_model("MassSpringDamper", "msd", {"k": 4.0}, ties={"F": "F", "x": "x", "v": "v"})
    sim.set("signals.F", 0.0)
    sim.set("models.msd.continuousStates.x", 1.0)
    sim.lock()
    return sim


def iterations_while(run):
    """Runs `run` in a thread; counts the main thread's loop iterations meanwhile."""
    worker = threading.Thread(target=run)
    count = 0
    worker.start()
    while worker.is_alive():
        count += 1
    worker.join()
    return count


def test_a_run_without_python_callbacks_lets_other_python_threads_run():
    sim = oscillator()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1.0)  # a thread holding the GIL would now keep it for a second
    try:
        count = iterations_while(lambda: sim.advance_time_to(0.5))
    finally:
        sys.setswitchinterval(interval)
    assert sim.time() == 0.5
    # 50 000 hops of C++ take tens of ms; the loop runs millions of times meanwhile.
    assert count > 10_000


def test_python_callbacks_and_models_run_from_the_advancing_thread():
    class Counter(hopsim.FlowModel):
        ticks = hopsim.DiscreteState(int, default=0)

        def start_hop(self, t0, t1):
            self.ticks = self.ticks + 1

    sim = oscillator(hop=1e-3)
    sim.unlock()
    sim.add_model(Counter("counter"))
    sim.lock()
    seen = []
    sim.register_periodic_event("probe", 0.0, 0.1, lambda s, t: seen.append(
        threading.current_thread().name))
    worker = threading.Thread(target=lambda: sim.advance_time_to(1.0), name="advancing")
    worker.start()
    worker.join(timeout=60.0)
    assert not worker.is_alive()
    assert sim.get("models.counter.discreteStates.ticks") == 1000
    assert seen and set(seen) == {"advancing"}
