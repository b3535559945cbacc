"""Plots of recorded variables with matplotlib."""

__all__ = []
