"""Logging from Python: recorded variables as numpy arrays and pandas DataFrames."""

__all__ = []
