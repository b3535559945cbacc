"""Closed-form solutions the Python tests compare simulations against."""

import math

import numpy as np


def damped_response(t, m, k, c, force, x0, v0):
    """x(t), v(t) of an underdamped m x'' + c x' + k x = F for constant F, analytically."""
    w = math.sqrt(k / m)
    zeta = c / (2.0 * math.sqrt(k * m))
    wd = w * math.sqrt(1.0 - zeta**2)
    e0 = x0 - force / k
    a = (v0 + zeta * w * e0) / wd
    decay = np.exp(-zeta * w * t)
    x = force / k + decay * (e0 * np.cos(wd * t) + a * np.sin(wd * t))
    v = decay * ((a * wd - zeta * w * e0) * np.cos(wd * t)
                 - (e0 * wd + zeta * w * a) * np.sin(wd * t))
    return x, v
