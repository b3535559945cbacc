"""Zero crossings with Python residuals (DESIGN.md section 3): exact localization against the
analytic crossing times of an oscillator, bouncing with a state reset in the callback, the
seed's target condition, ordering, errors and exceptions from residuals."""

import math

import numpy as np
import pytest

import hopsim

TIGHT = hopsim.IntegratorOptions(relative_tolerance=1e-12, absolute_tolerance=1e-12)
X = "models.spring.continuousStates.x"
V = "models.spring.continuousStates.v"


def spring(integrator="rkf45", integration_steps=1, io_step_size=0.01, x0=1.0, k=4.0):
    """An undamped MassSpringDamper 'spring' (m = 1 kg, w = sqrt(k)), unforced, locked:
    x = x0 cos(w t)."""
    sim = hopsim.Simulation(io_step_size=io_step_size, integration_steps=integration_steps,
                            integrator=integrator, integrator_options=TIGHT)
    sim.add_model("MassSpringDamper", "spring", {"k": k})
    for port in ("F", "x", "v"):
        sim.add_signal(port)
        sim.tie("spring", port, port)
    sim.set("signals.F", 0.0)
    sim.set(X, x0)
    sim.lock()
    return sim


def position(sim, t):
    return sim.get(X)


class Boom(Exception):
    """A Python exception no C++ code knows about."""


# rk4 with 4 sub-steps of 2.5 ms: the trajectory itself is accurate to ~1e-11 there.
INTEGRATORS = [("rk4", 4), ("rkf45", 1), ("cvode", 1)]


@pytest.mark.parametrize("integrator, steps", INTEGRATORS)
def test_an_oscillator_crossing_zero_falling_is_located_to_1e_9_s(integrator, steps):
    # x = cos(2 t) falls through zero at pi/4 + k pi (and rises at 3 pi/4 + k pi).
    sim = spring(integrator, steps)
    fired = []

    def callback(s, t):
        fired.append(t)
        assert s.state_time() == t  # the state is at the located time ...
        assert abs(s.time() - t) <= 0.5e-9  # ... the clock at the nearest tick
        assert abs(s.get(X)) < 1e-8  # and the residual there is (almost) zero

    sim.register_zero_crossing("through_zero", position, hopsim.CrossingDirection.FALLING,
                               callback)
    sim.advance_time_to(7.5)
    expected = [math.pi / 4 + k * math.pi for k in range(3)]
    assert fired == pytest.approx(expected, abs=1e-9)
    stats = sim.propagation_statistics()
    assert stats.crossings_fired == 3
    assert stats.rollbacks == 3
    assert stats.localization_residuals > 0
    if integrator == "rk4":
        # One re-run of the crossing's sub-step (4 evaluations) when it is not the last one.
        assert 0 < stats.localization_derivatives <= 4 * stats.crossings_fired
    else:
        assert stats.localization_derivatives == 0  # dense output


@pytest.mark.parametrize("integrator, steps", INTEGRATORS)
def test_a_bouncing_oscillator_reflected_at_zero_bounces_every_half_period(integrator, steps):
    # A wall at x = 0: the callback reverses v, so x = |cos 2t| and the mass hits the wall at
    # pi/4 + k pi/2, always falling.
    sim = spring(integrator, steps)
    impacts = []

    def bounce(s, t):
        impacts.append(t)
        s.set(V, -s.get(V))

    sim.register_zero_crossing("wall", position, hopsim.CrossingDirection.FALLING, bounce)
    lowest = []
    sim.register_end_hop_event("watch", lambda s, t: lowest.append(s.get(X)))
    sim.advance_time_to(5.0)
    expected = [math.pi / 4 + k * math.pi / 2 for k in range(3)]
    assert impacts == pytest.approx(expected, abs=1e-9)
    assert min(lowest) > -1e-8  # never through the wall
    assert sim.get(X) == pytest.approx(abs(math.cos(10.0)), abs=1e-8)


def test_rising_and_either_directions():
    sim = spring()
    rising, either = [], []
    sim.register_zero_crossing("rising", position, hopsim.CrossingDirection.RISING,
                               lambda s, t: rising.append(t))
    sim.register_zero_crossing("either", position, hopsim.CrossingDirection.EITHER,
                               lambda s, t: either.append(t))
    sim.advance_time_to(4.0)
    assert rising == pytest.approx([3 * math.pi / 4], abs=1e-9)
    assert either == pytest.approx([math.pi / 4, 3 * math.pi / 4, 5 * math.pi / 4], abs=1e-9)


@pytest.mark.parametrize("finder", [hopsim.RootFinder.ILLINOIS, hopsim.RootFinder.BISECTION])
def test_the_target_crossing_fires_when_a_variable_reaches_a_value(finder):
    # cos(2 t) = 0.5 falling at t = pi/6; one_shot removes it after the first firing.
    sim = spring()
    fired = []
    sim.register_target_crossing("half", X, 0.5, hopsim.CrossingDirection.FALLING,
                                 lambda s, t: fired.append(t), root_finder=finder,
                                 one_shot=True)
    info = sim.find_event("half")
    assert (info.kind, info.target) == ("zero crossing", "falling")
    sim.advance_time_to(5.0)
    assert fired == pytest.approx([math.pi / 6], abs=1e-9)
    assert sim.find_event("half") is None


def test_a_target_crossing_on_a_signal_with_a_value_tolerance():
    # value_tolerance is the seed's eps: it stops once |x - target| <= eps, at or after the
    # crossing; then t is within eps / |x'| of it.
    sim = spring()
    fired = []
    sim.register_target_crossing("low", "signals.x", -0.5, hopsim.CrossingDirection.FALLING,
                                 lambda s, t: fired.append(t), value_tolerance=1e-3,
                                 time_tolerance=1e-3)
    sim.advance_time_to(1.5)
    assert len(fired) == 1
    crossing = math.pi / 3  # cos(2 t) = -0.5
    assert crossing - 1e-12 <= fired[0] <= crossing + 1e-3


def test_a_bad_target_path_names_the_nearest_paths():
    sim = spring()
    with pytest.raises(hopsim.InputError, match=X):
        sim.register_target_crossing("bad", X + "x", 0.5, hopsim.CrossingDirection.FALLING,
                                     lambda s, t: None)
    other = hopsim.Simulation()
    other.add_signal("label", "string")
    other.add_signal("pair", length=2)
    for path in ("signals.label", "signals.pair"):
        with pytest.raises(hopsim.InputError, match="expected a numeric scalar"):
            other.register_target_crossing("bad", path, 0.5, hopsim.CrossingDirection.FALLING,
                                           lambda s, t: None)
    with pytest.raises(hopsim.InputError, match="not finite"):
        sim.register_target_crossing("bad", X, math.inf, hopsim.CrossingDirection.FALLING,
                                     lambda s, t: None)


def test_conditions_crossing_together_fire_in_priority_then_registration_order():
    sim = spring()
    log = []
    for name, priority in [("late", 5), ("early", -5), ("plain", 0)]:
        sim.register_zero_crossing(name, position, hopsim.CrossingDirection.FALLING,
                                   lambda s, t, name=name: log.append(name), priority=priority)
    sim.advance_time_to(1.0)
    assert log == ["early", "plain", "late"]
    assert sim.propagation_statistics().rollbacks == 1
    assert [e.name for e in sim.list_events()] == ["late", "early", "plain"]
    sim.remove_event("plain")
    assert sim.find_event("plain") is None


def test_a_python_exception_in_a_residual_propagates_unchanged():
    sim = spring()
    raised = Boom("residual failed")

    def residual(s, t):
        if t > 0.3:
            raise raised
        return s.get(X)

    sim.register_zero_crossing("boom", residual, hopsim.CrossingDirection.EITHER,
                               lambda s, t: None)
    with pytest.raises(Boom) as error:
        sim.advance_time_to(1.0)
    assert error.value is raised
    assert sim.time() == pytest.approx(0.3, abs=1e-12)  # stopped in the hop after 0.3 s


def test_after_a_residual_raises_the_simulation_continues_from_a_consistent_state():
    sim = spring()

    def residual(s, t):
        if t > 0.3:
            raise Boom()
        return s.get(X)

    sim.register_zero_crossing("boom", residual, hopsim.CrossingDirection.EITHER,
                               lambda s, t: None)
    with pytest.raises(Boom):
        sim.advance_time_to(1.0)
    assert sim.get(X) == pytest.approx(math.cos(2.0 * sim.time()), abs=1e-9)
    sim.remove_event("boom")
    sim.advance_time_to(1.0)
    assert sim.get(X) == pytest.approx(math.cos(2.0), abs=1e-9)


def test_a_hopsim_error_raised_in_a_residual_keeps_its_class_and_message():
    sim = spring()

    def residual(s, t):
        return s.get("models.spring.continuousStates.xx")

    sim.register_zero_crossing("typo", residual, hopsim.CrossingDirection.EITHER,
                               lambda s, t: None)
    with pytest.raises(hopsim.InputError, match="did you mean 'models.spring.continuousStates.x'"):
        sim.step()


def test_an_exception_in_a_crossing_callback_propagates_unchanged():
    sim = spring()

    def callback(s, t):
        raise Boom(t)

    sim.register_zero_crossing("z", position, hopsim.CrossingDirection.FALLING, callback)
    with pytest.raises(Boom) as error:
        sim.advance_time_to(1.0)
    assert error.value.args[0] == pytest.approx(math.pi / 4, abs=1e-9)


def test_a_residual_answering_a_non_number_raises_input_error():
    sim = spring()
    sim.register_zero_crossing("words", lambda s, t: "zero", hopsim.CrossingDirection.EITHER,
                               lambda s, t: None)
    with pytest.raises(hopsim.InputError,
                       match=r"^the residual of zero crossing 'words' returned 'zero'; "
                             r"expected a number$"):
        sim.step()


def test_residuals_may_answer_ints_and_numpy_scalars():
    sim = spring()
    fired = []
    sim.register_zero_crossing("numpy", lambda s, t: np.float64(t - 0.5),
                               hopsim.CrossingDirection.RISING, lambda s, t: fired.append(t))
    sim.register_zero_crossing("int", lambda s, t: int(t >= 0.75) * 2 - 1,
                               hopsim.CrossingDirection.RISING, lambda s, t: fired.append(t))
    sim.advance_time_to(1.0)
    assert fired == pytest.approx([0.5, 0.75], abs=1e-9)


def test_registration_errors():
    sim = spring()
    sim.register_timed_event("taken", 1.0, lambda s, t: None)
    with pytest.raises(hopsim.InputError, match="an event named 'taken' already exists"):
        sim.register_zero_crossing("taken", position, hopsim.CrossingDirection.RISING,
                                   lambda s, t: None)
    with pytest.raises(hopsim.InputError, match="timeTolerance = 0 s"):
        sim.register_zero_crossing("z", position, hopsim.CrossingDirection.RISING,
                                   lambda s, t: None, time_tolerance=0.0)
    with pytest.raises(hopsim.InputError, match="valueTolerance"):
        sim.register_zero_crossing("z", position, hopsim.CrossingDirection.RISING,
                                   lambda s, t: None, value_tolerance=-1.0)
    with pytest.raises(TypeError):
        sim.register_zero_crossing("z", 1.0, hopsim.CrossingDirection.RISING, lambda s, t: None)
    with pytest.raises(TypeError):  # options are keyword-only
        sim.register_zero_crossing("z", position, hopsim.CrossingDirection.RISING,
                                   lambda s, t: None, 3)
    assert sim.find_event("z") is None


def test_chattering_stops_with_a_numerical_error():
    # The callback puts the mass back a hair above zero, so it crosses again at once.
    sim = spring()
    sim.set_chattering_limit(50)
    sim.register_zero_crossing("floor", position, hopsim.CrossingDirection.FALLING,
                               lambda s, t: s.set(X, 1e-12))
    with pytest.raises(hopsim.NumericalError, match="chattering: 'floor'"):
        sim.advance_time_to(2.0)
    with pytest.raises(hopsim.InputError):
        sim.set_chattering_limit(0)


def test_a_crossing_callback_stops_the_advance_with_request_stop():
    # x = cos(2t) first falls through zero at pi/4: advance_time_to(10) ends there.
    sim = spring()
    sim.register_zero_crossing("zero", position, hopsim.CrossingDirection.FALLING,
                               lambda s, t: s.request_stop())
    sim.advance_time_to(10.0)
    assert sim.time() == pytest.approx(math.pi / 4, abs=1e-9)
