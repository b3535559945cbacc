"""The multibody system from Python: bodies, hinges, nodes, frame queries, energies, dynamics."""

__all__ = []
