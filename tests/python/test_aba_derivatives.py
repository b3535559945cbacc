"""MultibodySystem.forward_dynamics_derivatives: the analytic derivatives of forward dynamics
against an independent reference, the double pendulum's Lagrangian closed form
(double_pendulum_reference.py) differentiated by central differences, and their contract."""

import numpy as np
import pytest

import hopsim
from double_pendulum_reference import lagrangian_terms
from test_multibody import double_pendulum, every_hinge_chain, random_state


def lagrangian_accel(q, u, tau):
    M, C, Gq = lagrangian_terms(q, u)
    return np.linalg.solve(M, tau - C - Gq)


def test_double_pendulum_derivatives_match_the_lagrangian():
    """PIN joints: the tangent directions are the angles themselves. Central differences with
    h = 1e-6 of the closed form err by about h² (truncation) + 1e-16 / h (round-off) ~ 1e-10 of
    the derivatives' size; 1e-7 relative leaves three orders of margin."""
    sim, mb = double_pendulum()
    rng = np.random.default_rng(21)
    h = 1e-6
    for _ in range(5):
        q, u, tau = rng.uniform(-3, 3, 2), rng.uniform(-2, 2, 2), rng.uniform(-5, 5, 2)
        dq, du, dtau = mb.forward_dynamics_derivatives(tau, q, u)
        for k in range(2):
            e = np.eye(2)[k] * h
            ref_q = (lagrangian_accel(q + e, u, tau) - lagrangian_accel(q - e, u, tau)) / (2 * h)
            ref_u = (lagrangian_accel(q, u + e, tau) - lagrangian_accel(q, u - e, tau)) / (2 * h)
            scale = 1 + np.max(np.abs(ref_q))
            np.testing.assert_allclose(dq[:, k], ref_q, atol=1e-7 * scale)
            np.testing.assert_allclose(du[:, k], ref_u, atol=1e-7 * (1 + np.max(np.abs(ref_u))))
        M, _, _ = lagrangian_terms(q, u)
        np.testing.assert_allclose(dtau, np.linalg.inv(M), rtol=1e-12, atol=1e-14)


def test_every_hinge_type_derivatives_and_their_contract():
    """On the chain of all 11 hinge types: dudot_dtau is M⁻¹ (1e-10), the three are nu x nu,
    the state is untouched, and bad arguments raise InputError."""
    sim, mb, rng = every_hinge_chain()
    q, u = random_state(mb, rng)
    mb.q, mb.u = q, u
    tau = rng.normal(size=mb.nu)
    dq, du, dtau = mb.forward_dynamics_derivatives(tau, body_forces={"b3": rng.normal(size=6)})
    assert dq.shape == du.shape == dtau.shape == (mb.nu, mb.nu)
    M = mb.mass_matrix()
    np.testing.assert_allclose(dtau @ M, np.eye(mb.nu), atol=1e-10)
    np.testing.assert_allclose(mb.q, q, rtol=1e-15)
    np.testing.assert_allclose(mb.u, u, rtol=1e-15)
    with pytest.raises(hopsim.InputError, match="tau"):
        mb.forward_dynamics_derivatives(np.zeros(3))
