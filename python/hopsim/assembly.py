"""Assemblies written in Python: subclasses of :class:`Assembly`, registered by class name."""

__all__ = []
