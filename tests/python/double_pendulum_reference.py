"""The planar double pendulum's Lagrangian equations, the independent reference of the
multibody tests and of examples/double_pendulum.yaml: two links pinned about parallel axes, link
lengths L1 (pivot to pivot), centre-of-mass distances C1, C2 from each link's pivot, masses M1,
M2, moments I1, I2 about the pin axis at the centres of mass; relative angles (theta1 of the
upper link from the downward vertical, theta2 of the lower link relative to the upper)."""

import math

import numpy as np

G = 9.81
L1, C1, C2, M1, M2, I1, I2 = 1.1, 0.45, 0.6, 2.0, 1.3, 0.21, 0.08


def lagrangian_terms(q, u):
    """M(q), the Coriolis/centrifugal vector C(q, u) and the gravity torque G(q), from
    T = 1/2 u^T M u and V = -g (m1 c1 + m2 l1) cos theta1 - m2 g c2 cos(theta1 + theta2); the
    equations of motion are M u' + C + G = 0."""
    t1, t2 = q
    d1, d2 = u
    m11 = I1 + M1 * C1**2 + I2 + M2 * (L1**2 + C2**2 + 2 * L1 * C2 * math.cos(t2))
    m12 = I2 + M2 * (C2**2 + L1 * C2 * math.cos(t2))
    m22 = I2 + M2 * C2**2
    h = M2 * L1 * C2 * math.sin(t2)
    coriolis = np.array([-h * (2 * d1 * d2 + d2 * d2), h * d1 * d1])
    gravity = np.array([G * (M1 * C1 + M2 * L1) * math.sin(t1) + M2 * G * C2 * math.sin(t1 + t2),
                        M2 * G * C2 * math.sin(t1 + t2)])
    return np.array([[m11, m12], [m12, m22]]), coriolis, gravity
