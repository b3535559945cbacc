"""hopsim: a simulation framework in the style of JPL's DARTS/Dshell, driven from Python.

A simulation holds signals (typed wires), models (created by class name from a registry) tied to
them, and events; it advances time hop by hop from barrier to barrier::

    import hopsim

    sim = hopsim.Simulation(io_step_size=0.01)
    sim.add_signal("wave")
    sim.add_signal("held")
    sim.add_model("SineWave", "sine", {"frequency": 0.5})
    sim.add_model("ZeroOrderHold", "zoh")
    sim.tie("sine", "y", "wave")
    sim.tie("zoh", "u", "wave")
    sim.tie("zoh", "y", "held")
    sim.set_model_rate("zoh", 4.0)
    sim.lock()
    sim.advance_time_to(1.0)
    print(sim.get("signals.held"), sim.get("models.zoh.discreteStates.samples"))

Every signal, model param, state and port is a variable with a dotted path
(``signals.<name>``, ``models.<model>.params.<param>``, ...), read with :meth:`Simulation.get`
(Python scalars, numpy arrays for vectors) and written with :meth:`Simulation.set`.

Continuous dynamics: ContinuousModels (``MassSpringDamper``, ``ContinuousIntegrator``, ...) are
integrated across each hop by the integrator chosen with ``Simulation(integrator="rkf45",
integrator_options=IntegratorOptions(relative_tolerance=1e-10))`` or
:meth:`Simulation.set_integrator` (names in :func:`integrator_names`). A zero crossing ends a hop
exactly where a residual changes sign::

    sim = hopsim.Simulation(integrator="rkf45")
    sim.add_signal("F")
    sim.add_signal("x")
    sim.add_signal("v")
    sim.add_model("MassSpringDamper", "m", {"k": 4.0})
    for port in ("F", "x", "v"):
        sim.tie("m", port, port)
    sim.set("signals.F", 0.0)
    sim.set("models.m.continuousStates.x", 1.0)
    sim.lock()
    sim.register_zero_crossing(
        "through_zero", lambda s, t: s.get("models.m.continuousStates.x"),
        hopsim.CrossingDirection.FALLING, lambda s, t: print("x = 0 at", t))
    sim.advance_time_to(1.0)  # prints x = 0 at 0.785398... (pi / 4)

:meth:`Simulation.save_checkpoint` and :meth:`Simulation.restore_checkpoint` save and restore the
complete state: a run continued from a checkpoint repeats the original bit for bit. A restore
reads and checks the whole file first, so one that fails leaves the simulation as it was.

The rest of the framework, in the modules this package re-exports:

- models written in Python: subclasses of :class:`FlowModel` and :class:`ContinuousModel` that
  declare their fields in the class body (:class:`Param`, :class:`FlowIn`, ...), added with
  ``sim.add_model(instance)`` and called by the executive like C++ models
  (``hopsim.models``);
- the multibody system, ``sim.multibody`` (:class:`MultibodySystem`, :class:`Hinge`,
  :class:`SpatialInertia`, :class:`RigidTransform`; ``hopsim.multibody``);
- assemblies written in Python: subclasses of :class:`Assembly` with typed
  :class:`Config`/:class:`Context`/:class:`Params`, built under a :class:`SimulationAssembly`
  (``hopsim.assembly``);
- recording to numpy and pandas, ``sim.record(patterns, rate)`` (:class:`Recorder`;
  ``hopsim.recording``) and plots (``hopsim.plot``);
- :func:`load` for native scenarios, Chrono MBS files and MBSE files;
- 3D replay pages of runs, :func:`view` (``hopsim.viewer``);
- Monte Carlo campaigns and parameter sweeps on Dask, :class:`Campaign` (``hopsim.campaign``).

docs/python.md in the repository is the tutorial.

Errors are raised as :class:`Error` subclasses carrying the C++ message unchanged:
:class:`InputError` (bad values, paths, names; also a ``ValueError``) with its subclasses
:class:`NotFoundError` (an unknown path or name; also a ``KeyError``) and
:class:`TypeMismatchError` (a value of the wrong type; also a ``TypeError``),
:class:`ModelError` (structure that cannot run, API used out of order) and
:class:`NumericalError`. An exception raised by a Python callback
(event, stop callback, multi-rate schedule, zero-crossing residual) propagates out of the
advancing call unchanged.

The classes are those of the C++ core (module ``hopsim._hopsim``); names follow PEP 8
(``advance_time_by`` for C++ ``advanceTimeBy``).
"""

# Before the compiled module is loaded: an interpreter that cannot load it, or lacks numpy, is
# told why and what to do (hopsim/_interpreter.py).
from hopsim import _interpreter

_interpreter.check()

from hopsim._hopsim import (  # noqa: E402
    CheckpointOrigin,
    CrossingDirection,
    ElementType,
    Error,
    EventInfo,
    EventTiming,
    FieldRole,
    FieldSpec,
    Granularity,
    InputError,
    IntegratorOptions,
    IntegratorStatistics,
    LinearSystem,
    MachineAction,
    MachineGuard,
    MachineState,
    MachineTransition,
    ModelError,
    ModelMethod,
    ModelOrder,
    ModelRegistry,
    ModelSpec,
    MultistepMethod,
    NonlinearSolver,
    NotFoundError,
    NumericalError,
    PropagationStatistics,
    RootFinder,
    RunSummary,
    Scenario,
    Simulation,
    Sweep,
    TrimResult,
    TypeMismatchError,
    VariableInfo,
    __version__,
    integrator_names,
    standard_registry,
)

__all__ = [
    "CheckpointOrigin",
    "CrossingDirection",
    "ElementType",
    "Error",
    "EventInfo",
    "EventTiming",
    "FieldRole",
    "FieldSpec",
    "Granularity",
    "InputError",
    "IntegratorOptions",
    "IntegratorStatistics",
    "LinearSystem",
    "MachineAction",
    "MachineGuard",
    "MachineState",
    "MachineTransition",
    "ModelError",
    "ModelMethod",
    "ModelOrder",
    "ModelRegistry",
    "ModelSpec",
    "MultistepMethod",
    "NonlinearSolver",
    "NotFoundError",
    "NumericalError",
    "PropagationStatistics",
    "RootFinder",
    "RunSummary",
    "Scenario",
    "Simulation",
    "Sweep",
    "TrimResult",
    "TypeMismatchError",
    "VariableInfo",
    "__version__",
    "integrator_names",
    "load",
    "model_classes",
    "model_reference",
    "standard_registry",
]

# Report the public classes as hopsim.X (tracebacks print "hopsim.InputError: ...").
for _public in (
    CheckpointOrigin, CrossingDirection, ElementType, Error, EventInfo, EventTiming, FieldRole,
    FieldSpec, Granularity, InputError, IntegratorOptions, IntegratorStatistics, LinearSystem,
    ModelError, ModelMethod,
    ModelOrder, ModelRegistry, ModelSpec, MultistepMethod, NonlinearSolver, NotFoundError,
    NumericalError, PropagationStatistics, RootFinder, RunSummary, Scenario, Simulation, Sweep,
    TrimResult, TypeMismatchError, VariableInfo, MachineAction, MachineGuard, MachineState,
    MachineTransition,
):
    _public.__module__ = __name__
del _public

# The pure-Python parts; each module lists its public names in __all__.
import json  # noqa: E402
import os  # noqa: E402

from hopsim import _display, _hopsim, _progress  # noqa: E402
from hopsim import assembly, models, multibody, recording, viewer  # noqa: E402
from hopsim.assembly import *  # noqa: E402,F401,F403
from hopsim.models import *  # noqa: E402,F401,F403
from hopsim.multibody import *  # noqa: E402,F401,F403
from hopsim.recording import *  # noqa: E402,F401,F403
from hopsim.viewer import *  # noqa: E402,F401,F403

__all__ += (assembly.__all__ + models.__all__ + multibody.__all__ + recording.__all__
            + viewer.__all__ + ["Campaign", "CampaignResults"])


def __getattr__(name):
    """``hopsim.plot`` and ``hopsim.campaign`` imported on first use (PEP 562), so that
    ``python3 -m hopsim.plot`` runs the module once, as ``__main__``, rather than after
    ``import hopsim`` imported it, and ``import hopsim`` needs neither matplotlib nor SciPy and
    Dask; ``hopsim.Campaign`` and ``hopsim.CampaignResults`` come from ``hopsim.campaign``."""
    import importlib

    if name in ("plot", "campaign"):
        return importlib.import_module("hopsim." + name)
    if name in ("Campaign", "CampaignResults"):
        return getattr(importlib.import_module("hopsim.campaign"), name)
    raise AttributeError("module 'hopsim' has no attribute '" + name + "'")


def _scenario_run(self, progress=None):
    """Advances the simulation to end_time (or an earlier ``stop`` action) and returns a
    :class:`RunSummary` (sim and wall time, hops, integration steps, derivative evaluations,
    events fired, zero crossings, warnings; ``print()`` gives the line ``hopsim run`` prints).

    Progress shows on a terminal (one line, rewritten) and in a Jupyter notebook (a bar), with
    tqdm when it is installed: ``t = 1.23 / 5 s  wall 0.4 s  rate 3.1x  ETA 1.2 s``, every 1 % of
    the run or 0.5 s. ``progress=False`` shows none; a callable(done, line) receives each report
    (``done`` from 0 to 1) instead. An exception it raises stops the run and propagates.
    """
    return _progress.run(self, progress)


Scenario.run = _scenario_run
Scenario.__repr__ = _display.scenario_repr
Scenario._repr_html_ = _display.scenario_html
Simulation._repr_html_ = _display.simulation_html
recording.Recorder._repr_html_ = _display.recorder_html


def load(path, overrides=None):
    """Loads and locks a native scenario, a Chrono MBS model or simulation file, or an MBSE file
    (``path``: str, bytes or os.PathLike) and returns its :class:`Scenario`.

    ``overrides`` maps paths to values (``{"simulation.end_time": 2.0}``; None gives a key its
    default, as YAML's ``~`` does) or is a list of ``"PATH=VALUE"`` strings; each is validated
    like the file's own value. Bad input raises
    :class:`InputError` naming file:line:col and the key path.
    """
    if overrides is None:
        overrides = []
    elif isinstance(overrides, dict):
        overrides = [f"{path}={_override_text(value)}" for path, value in overrides.items()]
    # As bytes, so that any path the file system holds loads, UTF-8 or not.
    return _hopsim.load(os.fsencode(path), list(overrides))


def _override_text(value, in_list=False):
    """A Python value as the YAML text an override carries: None is YAML's null (the key's
    default), strings inside a list are quoted (a glob may start with '*')."""
    if value is None:
        return "~"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        value = value.tolist() if hasattr(value, "tolist") else value
        return "[" + ", ".join(_override_text(v, in_list=True) for v in value) + "]"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str) and in_list:
        return json.dumps(value)
    return str(value)


def model_classes():
    """The model class names :meth:`Simulation.add_model` accepts, sorted."""
    return standard_registry().class_names()


def model_reference(class_name=None):
    """The generated reference documentation, as Markdown.

    With ``class_name``, the reference of that model class (kind, description, a table per field
    group, feed-through pairs, default output granularity); without, that of every registered
    class under one title, as ``hopsim models --doc`` prints it. An unknown class name raises
    :class:`InputError` suggesting the nearest registered names.
    """
    registry = standard_registry()
    if class_name is None:
        return registry.reference()
    return registry.spec(class_name).reference()
