"""Continuous dynamics from Python (DESIGN.md sections 3 and 7): the standard ContinuousModels
against analytic solutions with every integrator, integrator selection, options and
statistics, the bonus derivative evaluation, and masked states."""

import math

import numpy as np
import pytest

import hopsim
from closed_forms import damped_response

TIGHT = hopsim.IntegratorOptions(relative_tolerance=1e-11, absolute_tolerance=1e-12)


def mass_spring_damper(sim, m=1.0, k=4.0, c=0.0, force=0.0, x0=0.0, v0=0.0):
    """Adds a MassSpringDamper 'msd' tied to signals F (constant `force`), x and v."""
    sim.add_model("MassSpringDamper", "msd", {"m": m, "k": k, "c": c})
    for signal in ("F", "x", "v"):
        sim.add_signal(signal)
        sim.tie("msd", signal, signal)
    sim.set("signals.F", force)
    sim.set("models.msd.continuousStates.x", x0)
    sim.set("models.msd.continuousStates.v", v0)
    return sim


def run_damped(integrator, integration_steps=1, options=None):
    """The forced, underdamped oscillator (m = 1 kg, k = 4 N/m, c = 0.4 N s/m, F = 1 N) sampled
    every 0.5 s for 10 s: the largest errors in x and v against the analytic solution."""
    params = dict(m=1.0, k=4.0, c=0.4, force=1.0, x0=1.0, v0=-0.5)
    sim = hopsim.Simulation(integration_steps=integration_steps, integrator=integrator,
                            integrator_options=options)
    mass_spring_damper(sim, **params)
    sim.lock()
    times, xs, vs = [], [], []
    for k in range(1, 21):
        sim.advance_time_to(0.5 * k)
        times.append(sim.time())
        xs.append(sim.get("signals.x"))
        vs.append(sim.get("signals.v"))
    x, v = damped_response(np.array(times), **params)
    return np.max(np.abs(np.array(xs) - x)), np.max(np.abs(np.array(vs) - v))


@pytest.mark.parametrize("integrator, tolerance", [
    # rk4 at 0.01 s hops: global error ~ (w h)^4 / 120 * w t ~ 1e-8 (7e-9 seen); rkf45 and
    # cvode at rtol 1e-11 / atol 1e-12: their tolerance times the error growth (rkf45 3e-13,
    # cvode 1e-9 seen).
    ("rk4", 2e-8), ("rkf45", 1e-11), ("cvode", 1e-8)])
def test_the_forced_damped_oscillator_matches_the_analytic_solution(integrator, tolerance):
    x_error, v_error = run_damped(integrator, options=TIGHT)
    assert x_error < tolerance
    assert v_error < tolerance


def test_euler_converges_to_the_analytic_solution_at_first_order():
    # Euler's global error is ~ t h: halving the sub-step halves it (ratio 2 within 10 %).
    coarse, _ = run_damped("euler", integration_steps=10)
    fine, _ = run_damped("euler", integration_steps=20)
    assert coarse < 0.005  # 1 ms sub-steps: 3e-3 seen
    assert coarse / fine == pytest.approx(2.0, rel=0.1)


@pytest.mark.parametrize("integrator", ["euler_implicit_linearized", "euler_implicit"])
def test_implicit_euler_converges_at_first_order_and_damps_a_stiff_spring(integrator):
    # Global error ~ t h, as explicit Euler's: halving the sub-step halves it (ratio 2 within
    # 10 %).
    coarse, _ = run_damped(integrator, integration_steps=10, options=TIGHT)
    fine, _ = run_damped(integrator, integration_steps=20, options=TIGHT)
    assert coarse < 0.01  # 1 ms sub-steps
    assert coarse / fine == pytest.approx(2.0, rel=0.1)
    # k = 1e8 N/m on 1 kg (w = 1e4 rad/s) with one 1 ms step per hop (h w = 10, where rk4
    # diverges): each step multiplies the amplitude sqrt(x^2 + (v / w)^2) by
    # 1 / sqrt(1 + (h w)^2) (docs/integrators.md); over 20 steps to relative 1e-6.
    sim = hopsim.Simulation(io_step_size=1e-3, integrator=integrator)
    mass_spring_damper(sim, k=1e8, x0=1.0)
    sim.lock()
    sim.advance_time_to(0.02)
    x, v = sim.get("signals.x"), sim.get("signals.v")
    assert math.hypot(x, v / 1e4) == pytest.approx(101.0 ** -10, rel=1e-6)


def test_the_undamped_oscillator_matches_x0_cos_wt_with_every_integrator():
    # m = 2 kg, k = 8 N/m: w = 2 rad/s; x = x0 cos(wt) + v0/w sin(wt).
    for integrator, steps, tolerance in [("euler", 1000, 2e-3), ("rk4", 1, 5e-8),
                                         ("rkf45", 1, 1e-8), ("cvode", 1, 1e-7)]:
        sim = hopsim.Simulation(integration_steps=steps, integrator=integrator,
                                integrator_options=TIGHT)
        mass_spring_damper(sim, m=2.0, k=8.0, x0=0.3, v0=-0.4)
        sim.lock()
        sim.advance_time_to(3.0)
        expected = 0.3 * math.cos(6.0) - 0.2 * math.sin(6.0)
        assert abs(sim.get("models.msd.continuousStates.x") - expected) < tolerance, integrator
        assert sim.get("signals.x") == sim.get("models.msd.continuousStates.x")


def test_the_continuous_integrator_of_an_oscillators_velocity_is_its_displacement():
    # y' = v, so y(t) = y0 + x(t) - x0 = y0 + x0 (cos 2t - 1).
    sim = hopsim.Simulation(integrator="rkf45", integrator_options=TIGHT)
    mass_spring_damper(sim, x0=0.75)
    sim.add_signal("y")
    sim.add_model("ContinuousIntegrator", "int")
    sim.tie("int", "u", "v")
    sim.tie("int", "y", "y")
    sim.set("models.int.continuousStates.y", [-1.0])
    sim.lock()
    assert sim.model_order().continuous_models == ["msd", "int"]
    assert sim.model_order().flow_models == []
    assert sim.state_names() == ["models.msd.continuousStates.x", "models.msd.continuousStates.v",
                                 "models.int.continuousStates.y"]
    sim.advance_time_to(4.0)
    assert sim.get("signals.y") == pytest.approx(-1.0 + 0.75 * (math.cos(8.0) - 1.0), abs=1e-8)


def test_the_integrator_is_chosen_by_name_with_options():
    options = hopsim.IntegratorOptions(relative_tolerance=1e-8, absolute_tolerance=1e-10,
                                       max_step=0.5, initial_step=1e-4,
                                       max_steps_per_advance=5000,
                                       multistep=hopsim.MultistepMethod.ADAMS)
    sim = hopsim.Simulation(integrator="cvode", integrator_options=options)
    assert sim.integrator_name() == "cvode"
    got = sim.integrator_options()
    assert (got.relative_tolerance, got.absolute_tolerance, got.max_step, got.initial_step,
            got.max_steps_per_advance, got.multistep) == (
        1e-8, 1e-10, 0.5, 1e-4, 5000, hopsim.MultistepMethod.ADAMS)
    assert hopsim.Simulation().integrator_name() == "rk4"  # the default
    sim.set_integrator("rkf45")
    assert sim.integrator_name() == "rkf45"
    default = hopsim.IntegratorOptions()
    assert sim.integrator_options().relative_tolerance == default.relative_tolerance
    sim.set_integrator("euler", hopsim.IntegratorOptions(max_step=0.1))
    assert sim.integrator_options().max_step == 0.1
    sim.lock()
    with pytest.raises(hopsim.ModelError):
        sim.set_integrator("rk4")
    assert hopsim.integrator_names() == ["euler", "rk4", "rkf45", "cvode",
                                         "euler_implicit_linearized", "euler_implicit"]


def test_cvode_with_fixed_point_iteration():
    options = hopsim.IntegratorOptions(relative_tolerance=1e-10, absolute_tolerance=1e-12,
                                       multistep=hopsim.MultistepMethod.ADAMS,
                                       nonlinear_solver=hopsim.NonlinearSolver.FIXED_POINT)
    assert "nonlinear_solver=NonlinearSolver.FIXED_POINT" in repr(options)
    assert hopsim.IntegratorOptions().nonlinear_solver == hopsim.NonlinearSolver.NEWTON
    sim = hopsim.Simulation(integrator="cvode", integrator_options=options)
    assert sim.integrator_options().nonlinear_solver == hopsim.NonlinearSolver.FIXED_POINT
    mass_spring_damper(sim, k=4.0, x0=1.0)  # x = cos(2 t)
    sim.lock()
    sim.advance_time_to(3.0)
    assert sim.get("models.msd.continuousStates.x") == pytest.approx(math.cos(6.0), abs=1e-8)


def test_cvode_continues_across_hops_when_asked():
    # x = cos(2 t) over 300 hops: one restart and 299 continuations, to the same tolerance level
    # as the restarted run, with a fraction of its derivative evaluations.
    evaluations = {}
    for continuing in (False, True):
        options = hopsim.IntegratorOptions(relative_tolerance=1e-10, absolute_tolerance=1e-12,
                                           continue_across_hops=continuing)
        assert f"continue_across_hops={continuing}" in repr(options)
        sim = hopsim.Simulation(integrator="cvode", integrator_options=options)
        assert sim.integrator_options().continue_across_hops == continuing
        mass_spring_damper(sim, k=4.0, x0=1.0)
        sim.lock()
        sim.advance_time_to(3.0)
        assert sim.get("models.msd.continuousStates.x") == pytest.approx(math.cos(6.0), abs=1e-7)
        stats = sim.integrator_statistics()
        assert (stats.restarts, stats.continuations) == ((1, 299) if continuing else (300, 0))
        assert f"continuations={stats.continuations}" in repr(stats)
        evaluations[continuing] = sim.propagation_statistics().derivative_evaluations
    assert 3 * evaluations[True] < evaluations[False]
    assert hopsim.IntegratorOptions().continue_across_hops is False


def test_per_state_absolute_tolerances_are_numpy_arrays():
    options = hopsim.IntegratorOptions()
    assert isinstance(options.absolute_tolerances, np.ndarray)
    assert options.absolute_tolerances.size == 0
    options.absolute_tolerances = [1e-10, 1e-9]
    tolerances = options.absolute_tolerances
    assert tolerances.dtype == np.float64 and list(tolerances) == [1e-10, 1e-9]
    tolerances[0] = 5.0  # a copy: the options keep their value
    assert options.absolute_tolerances[0] == 1e-10
    options.absolute_tolerances = None
    assert options.absolute_tolerances.size == 0
    assert "absolute_tolerances" not in repr(options)

    # Used by cvode, one per state in state_names() order.
    per_state = hopsim.IntegratorOptions(relative_tolerance=1e-10,
                                         absolute_tolerances=np.array([1e-12, 1e-11]))
    sim = hopsim.Simulation(integrator="cvode", integrator_options=per_state)
    mass_spring_damper(sim, x0=1.0)
    sim.lock()
    sim.advance_time_to(1.0)
    assert sim.get("signals.x") == pytest.approx(math.cos(2.0), abs=1e-8)
    assert list(sim.integrator_options().absolute_tolerances) == [1e-12, 1e-11]


def test_a_bad_integrator_name_raises_input_error_naming_the_nearest_names():
    with pytest.raises(hopsim.InputError, match=r"unknown integrator 'rkf54'.*'rkf45'") as error:
        hopsim.Simulation(integrator="rkf54")
    assert "euler, rk4, rkf45, cvode, euler_implicit_linearized, euler_implicit" in str(error.value)
    sim = hopsim.Simulation()
    with pytest.raises(hopsim.InputError, match="did you mean 'cvode'"):
        sim.set_integrator("cvod")
    assert sim.integrator_name() == "rk4"  # unchanged


def test_a_bad_integrator_option_raises_input_error_naming_the_option():
    with pytest.raises(hopsim.InputError, match="relativeTolerance") as error:
        hopsim.Simulation(integrator="rkf45",
                          integrator_options=hopsim.IntegratorOptions(relative_tolerance=-1.0))
    assert "-1" in str(error.value)
    with pytest.raises(hopsim.InputError, match="maxStep"):
        hopsim.Simulation().set_integrator("cvode", hopsim.IntegratorOptions(max_step=-0.5))
    with pytest.raises(TypeError):
        hopsim.IntegratorOptions(1e-6)  # keywords only


def test_integrator_and_propagation_statistics_count_the_work():
    # rk4: 4 derivative evaluations per step; 2 sub-steps per hop, each a restart.
    sim = hopsim.Simulation(integration_steps=2, integrator="rk4")
    mass_spring_damper(sim, x0=1.0)
    sim.lock()
    sim.step(10)
    stats = sim.integrator_statistics()
    assert (stats.steps, stats.rhs_evaluations, stats.error_test_failures, stats.restarts) == (
        20, 80, 0, 20)
    assert "rhs_evaluations=80" in repr(stats)
    propagation = sim.propagation_statistics()
    assert propagation.derivative_evaluations == 80
    assert (propagation.crossings_fired, propagation.rollbacks, propagation.localization_residuals,
            propagation.localization_derivatives, propagation.discarded_derivatives) == (
        0, 0, 0, 0, 0)
    assert "derivative_evaluations=80" in repr(propagation)
    assert sim.state_count() == 2
    assert sim.state_time() == sim.time() == pytest.approx(0.1, abs=1e-15)


def test_the_bonus_derivative_evaluation_adds_one_per_sub_step():
    counts = []
    for bonus in (False, True):
        sim = hopsim.Simulation(integration_steps=3, integrator="rk4")
        mass_spring_damper(sim, x0=1.0)
        sim.set_bonus_derivative_evaluation(bonus)
        sim.lock()
        sim.step(5)
        counts.append(sim.propagation_statistics().derivative_evaluations)
        x = sim.get("signals.x")
    assert counts == [5 * 3 * 4, 5 * 3 * 5]
    assert x == pytest.approx(math.cos(0.1), abs=1e-9)  # the extra evaluation changes no state


def test_a_masked_state_keeps_its_value_and_is_not_integrated():
    # v masked: x' = v stays v0, so x = x0 + v0 t exactly, whatever the spring.
    sim = hopsim.Simulation(integrator="rk4")
    mass_spring_damper(sim, k=100.0, x0=1.0, v0=-0.25)
    sim.set_state_masked("msd", "v", True)
    sim.lock()
    assert sim.state_count() == 1
    assert sim.state_names() == ["models.msd.continuousStates.x"]
    sim.advance_time_to(2.0)
    assert sim.get("models.msd.continuousStates.v") == -0.25
    assert sim.get("signals.x") == pytest.approx(1.0 - 0.25 * 2.0, abs=1e-12)

    # Unmasked again: integrated again.
    sim.unlock()
    sim.set_state_masked("msd", "v", False)
    sim.lock()
    assert sim.state_count() == 2
    sim.step()
    assert sim.get("models.msd.continuousStates.v") != -0.25


def test_one_element_of_a_vector_state_can_be_masked():
    sim = hopsim.Simulation(integrator="rk4")
    sim.add_signal("u", length=3)
    sim.add_signal("y", length=3)
    sim.add_model("ContinuousIntegrator", "int")
    sim.tie("int", "u", "u")
    sim.tie("int", "y", "y")
    sim.set("signals.u", [1.0, 2.0, 3.0])
    sim.set_state_masked("int", "y", 1, True)
    sim.lock()
    assert sim.state_names() == ["models.int.continuousStates.y[0]",
                                 "models.int.continuousStates.y[2]"]
    sim.advance_time_to(0.5)
    np.testing.assert_allclose(sim.get("signals.y"), [0.5, 0.0, 1.5], rtol=1e-14)


def test_masking_errors_name_the_model_and_state():
    sim = hopsim.Simulation()
    mass_spring_damper(sim)
    sim.add_model("Gain", "gain")
    with pytest.raises(hopsim.InputError, match="'z'"):
        sim.set_state_masked("msd", "z", True)
    with pytest.raises(hopsim.InputError, match="is a FlowModel"):
        sim.set_state_masked("gain", "x", True)
    with pytest.raises(hopsim.InputError, match="did you mean 'msd'"):
        sim.set_state_masked("mds", "x", True)
    sim.remove_model("gain")
    sim.set_state_masked("msd", "x", 3, True)
    with pytest.raises(hopsim.InputError, match="element 3 does not exist"):
        sim.lock()
    sim.set_state_masked("msd", "x", 3, False)
    sim.lock()
    with pytest.raises(hopsim.ModelError):
        sim.set_state_masked("msd", "x", True)


def test_a_zero_mass_is_refused_before_integrating():
    sim = hopsim.Simulation()
    mass_spring_damper(sim, m=0.0)
    sim.lock()
    with pytest.raises(hopsim.InputError,
                       match=r"^models\.msd\.params\.m: value 0 kg must be positive$"):
        sim.step()
    with pytest.raises(hopsim.InputError, match="below the lower bound 0 N/m"):
        sim.set("models.msd.params.k", -1.0)


def test_a_state_set_between_hops_restarts_the_integration_from_it():
    sim = hopsim.Simulation(integrator="rkf45", integrator_options=TIGHT)
    mass_spring_damper(sim, x0=1.0)
    sim.lock()
    sim.advance_time_to(1.0)
    sim.set("models.msd.continuousStates.x", 0.0)
    sim.set("models.msd.continuousStates.v", 2.0)  # from here x = sin(2 (t - 1))
    sim.advance_time_to(1.5)
    assert sim.get("signals.x") == pytest.approx(math.sin(1.0), abs=1e-9)
