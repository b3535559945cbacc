"""Python subclasses of FlowModel and ContinuousModel, called by the executive like C++ models."""

__all__ = []
