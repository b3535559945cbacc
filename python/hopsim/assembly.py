"""Assemblies written in Python: subclasses of :class:`Assembly`, registered by class name.

An assembly class declares its inputs as nested :class:`Config`, :class:`Context` and
:class:`Params` classes whose attributes are :class:`Field` declarations, and overrides the
stages it needs::

    import hopsim

    class Pendulum(hopsim.Assembly):
        \"\"\"A point mass on a massless rod, on a pin hinge about y.\"\"\"

        class Params(hopsim.Params):
            mass = hopsim.Field(float, unit="kg", above=0.0, doc="bob mass")
            length = hopsim.Field(float, unit="m", above=0.0, doc="rod length")
            angle = hopsim.Field(float, unit="rad", default=0.0, doc="initial angle")

        def add_models(self):
            p = self.params
            self.add_body(self.name, {"mass": p.mass, "cm": [0, 0, -p.length],
                                      "inertia": [1e-9] * 3,
                                      "hinge": {"type": "PIN", "axes": [0, 1, 0]}})

        def bind_state(self):
            self.sim.set(f"multibody.bodies.{self.name}.Q", [self.params.angle])

Defining the class translates the declarations into C++ parameter schemas (so inputs are
validated, converted to SI and reported exactly as for C++ assemblies and scenario YAML) and
registers the class under its name, so ``parent.add_assembly("Pendulum", ...)`` and a scenario's
``class: Pendulum`` make one. A run script builds a tree under a :class:`SimulationAssembly`::

    sim = hopsim.Simulation()
    top = hopsim.SimulationAssembly(sim)
    top.add_assembly("GravityAssembly", "gravity")
    top.add_assembly(Pendulum, "p", params={"mass": "2 kg", "length": "50 cm"})
    sim.lock()  # binds the tree

See docs/assemblies.md, "Assemblies in Python".
"""

import typing

from hopsim import _hopsim
from hopsim._hopsim import (
    AssemblyBase,
    AssemblyClass,
    ParamField,
    ParamSchema,
    ParamValues,
    SignalRef,
    SimulationAssembly,
    assembly_class,
    assembly_classes,
)

__all__ = [
    "Assembly",
    "AssemblyBase",
    "AssemblyClass",
    "BodyParams",
    "Config",
    "Context",
    "Field",
    "HingeParams",
    "NodeParams",
    "ParamField",
    "ParamSchema",
    "ParamValues",
    "Params",
    "Schema",
    "SignalRef",
    "SimulationAssembly",
    "assembly_class",
    "assembly_classes",
]

for _public in (AssemblyBase, AssemblyClass, ParamField, ParamSchema, ParamValues, SignalRef,
                SimulationAssembly):
    _public.__module__ = "hopsim"
del _public

_MISSING = object()

# Python types to the schema's type names (docs/parameters.md, "Field types").
_SCALARS = {bool: "bool", int: "int", float: "double", str: "string"}
_VECTORS = {float: "double[]", int: "int[]", str: "string[]"}


def _type_spec(declared, where):
    """(type name, record schema class or None) for a declared Python type."""
    if declared in _SCALARS:
        return _SCALARS[declared], None
    if isinstance(declared, type) and issubclass(declared, Schema):
        return "record", declared
    origin, args = typing.get_origin(declared), typing.get_args(declared)
    if origin in (list, tuple) and len(args) == 1 and args[0] in _VECTORS:
        return _VECTORS[args[0]], None
    if origin is dict and len(args) == 2 and args[0] is str:
        if args[1] is str:
            return "map<string>", None
        if isinstance(args[1], type) and issubclass(args[1], Schema):
            return "map<record>", args[1]
    raise TypeError(
        f"{where}: unsupported field type {declared!r}; expected bool, int, float, str, "
        "list[float], list[int], list[str], dict[str, str], a hopsim.Schema subclass (a nested "
        "record) or dict[str, <Schema subclass>] (records by name)")


class Field:
    """The declaration of one input field of a :class:`Schema` (config, context or params).

    ``type`` is ``bool``, ``int``, ``float``, ``str``, ``list[float]``, ``list[int]``,
    ``list[str]``, ``dict[str, str]``, a :class:`Schema` subclass (one nested record) or
    ``dict[str, S]`` for a Schema subclass ``S`` (records by name, like a vehicle's bodies).

    Keywords (all optional):

    - ``unit``: the SI unit numeric values are stored in (``"kg"``, ``"N*m/rad"``); inputs in
      other units of the same dimension (``"50 cm"``) are converted, others refused.
    - ``default``: the value when the field is not given, checked like an input. Without a
      default the field is required, unless ``optional=True`` (then it reads ``None`` when not
      given).
    - ``bounds=(lo, hi)``: inclusive bounds on every element, ``None`` for an open end;
      ``above=lo`` and ``below=hi``: exclusive bounds.
    - ``length``: an exact element count, or ``(lo, hi)`` inclusive (vectors and maps).
    - ``choices``: the allowed values of a string (or of every element of a list[str]).
    - ``allow_non_finite``: accept NaN and infinities (refused by default).
    - ``checks``: callables ``check(value)`` (or ``(name, check)`` pairs) returning ``None``
      when the value passes, else a str saying what is wrong; run after the built-in checks.
    - ``doc``: one line of description, for messages, docs and the variable tree.
    """

    def __init__(self, type, *, unit="", default=_MISSING, optional=False, bounds=None,
                 above=None, below=None, length=None, choices=None, allow_non_finite=False,
                 checks=(), doc=""):
        self.type = type
        self.unit = unit
        self.default = default
        self.optional = optional
        self.bounds = bounds
        self.above = above
        self.below = below
        self.length = length
        self.choices = list(choices) if choices is not None else []
        self.allow_non_finite = allow_non_finite
        self.checks = list(checks)
        self.doc = doc
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def __repr__(self):
        return f"hopsim.Field({self.type!r}, name={self.name!r}, unit={self.unit!r})"

    def _spec(self, where):
        """The declaration as _hopsim._build_schema takes it."""
        where = f"{where}.{self.name}"
        type_name, record = _type_spec(self.type, where)
        lower = upper = None
        lower_exclusive = upper_exclusive = False
        if self.bounds is not None:
            if self.above is not None or self.below is not None:
                raise TypeError(f"{where}: give bounds=(lo, hi) or above=/below=, not both")
            lower, upper = self.bounds
        if self.above is not None:
            lower, lower_exclusive = self.above, True
        if self.below is not None:
            upper, upper_exclusive = self.below, True
        min_length = max_length = None
        if self.length is not None:
            min_length, max_length = (
                (self.length, self.length) if isinstance(self.length, int) else self.length)
        checks = []
        for check in self.checks:
            name, function = check if isinstance(check, tuple) else (
                getattr(check, "__name__", "check"), check)
            if not callable(function):
                raise TypeError(f"{where}: a check must be callable, got {function!r}")
            checks.append((name, function))
        spec = {
            "name": self.name, "type": type_name, "unit": self.unit, "doc": self.doc,
            "required": self.default is _MISSING and not self.optional,
            "lower": lower, "upper": upper, "lower_exclusive": lower_exclusive,
            "upper_exclusive": upper_exclusive, "min_length": min_length,
            "max_length": max_length, "choices": self.choices,
            "allow_non_finite": self.allow_non_finite, "checks": checks,
            "record": record._schema if record is not None else None,
        }
        if self.default is not _MISSING:
            spec["default"] = self.default
        return spec


class Schema:
    """Base of parameter schemas declared in Python: the class attributes that are
    :class:`Field` declarations, in definition order after the inherited ones (a field declared
    again replaces the inherited one in place).

    A subclass may override :meth:`validate` for rules across fields. The C++ schema built from
    the declarations is ``cls._schema`` (a :class:`ParamSchema`); ``cls.parse(mapping)``
    validates a mapping against it. Declaration errors (a unit that is not SI, bounds on a
    string, a default failing its own checks) raise :class:`ModelError` naming the class and
    field when the class is defined.
    """

    _native = None  # a C++ schema this one extends (hopsim.BodyParams)
    _fields = {}

    def __init_subclass__(cls, native=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if native is not None:
            cls._native = native
        fields = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(base.__dict__.get("_fields", {}))
        own = {name: value for name, value in cls.__dict__.items() if isinstance(value, Field)}
        fields.update(own)
        cls._fields = fields
        schema_bases = [b for b in cls.__bases__ if issubclass(b, Schema)]
        if (native is None and not own and "validate" not in cls.__dict__
                and len(schema_bases) == 1):
            # Adds nothing: the base's schema itself, so that C++ code that needs exactly that
            # schema (add_body with a Params derived from hopsim.BodyParams) accepts the set.
            cls._schema = schema_bases[0]._schema
            return
        where = cls.__qualname__
        validator = cls().validate if cls.validate is not Schema.validate else None
        if native is not None and not fields and validator is None:
            cls._schema = native  # the C++ schema itself (hopsim.BodyParams)
            return
        try:
            cls._schema = _hopsim._build_schema(
                cls.__name__, (cls.__doc__ or "").strip(), cls._native,
                [field._spec(where) for field in fields.values()], validator)
        except _hopsim.ModelError as error:
            raise _hopsim.ModelError(f"{where}: {error}") from None

    def validate(self, values):
        """Rules across fields, run after every field passed its own checks (also on every
        later write); report a failure with ``values.fail(field, what)``. ``values`` is a
        :class:`ParamValues` valid during the call only. The default accepts everything."""

    @classmethod
    def parse(cls, values=None, path=""):
        """Validates a mapping against the schema; returns its :class:`ParamValues`."""
        return cls._schema.parse(values, path)

    @classmethod
    def fields(cls):
        """The fields of the C++ schema (:class:`ParamField`), inherited ones included."""
        return cls._schema.fields


Schema._schema = _hopsim._build_schema("Schema", "", None, [], None)


class Config(Schema):
    """Base of an assembly's config schema: what to build (names, structure, model classes)."""


class Context(Schema):
    """Base of an assembly's context schema: what to attach to (``parentBody``, nodes)."""


class Params(Schema):
    """Base of an assembly's params schema: physical values (masses, gains, initial states)."""


class NodeParams(Schema, native=_hopsim._native_schema("NodeParams")):
    """A node (the C++ NodeParams): position and orientation in the body frame."""


class HingeParams(Schema, native=_hopsim._native_schema("HingeParams")):
    """A hinge (the C++ HingeParams): type, axes, inboard and outboard frames, initial q, u."""


class BodyParams(Schema, native=_hopsim._native_schema("BodyParams")):
    """A rigid body (the C++ BodyParams): mass, cm, inertia, products, hinge, nodes; what
    :meth:`AssemblyBase.add_body` takes. Derive a Params class from it to take a body as
    params (as BodyAssembly does)."""


class Assembly(AssemblyBase):
    """Base of assemblies written in Python; the C++ assembly machinery runs their stages.

    A subclass declares its inputs as nested classes ``Config``, ``Context`` and ``Params``
    (subclasses of :class:`Config`, :class:`Context`, :class:`Params`, or of any
    :class:`Schema`; undeclared ones are inherited, empty for a direct subclass), and overrides
    the stages it needs, which use the helpers of :class:`AssemblyBase` (``add_signal``,
    ``add_model``, ``tie``, ``add_body``, ``add_assembly``, ...) and read ``self.config``,
    ``self.context`` and ``self.params``. The class docstring is its documentation.

    Defining the class registers it in the process-wide assembly registry under its
    ``__name__`` (or ``name=`` in the class statement: ``class Lander(hopsim.Assembly,
    name="MyLander")``), so scenarios and ``add_assembly("Lander", ...)`` can make it; a name
    already registered raises :class:`ModelError`. ``register=False`` skips registration (the
    class is then passed to ``add_assembly`` as a class).

    Instances are made by ``parent.add_assembly(...)`` or by a scenario, never by calling the
    class; a subclass overriding ``__init__`` (without arguments) must call
    ``super().__init__()``. An exception raised by a stage propagates unchanged (with its
    traceback), and everything the failed assembly and its children created is removed again.
    """

    Config = Config
    Context = Context
    Params = Params

    def __init_subclass__(cls, name=None, register=True, **kwargs):
        super().__init_subclass__(**kwargs)
        groups = {}
        for group, base in (("Config", Config), ("Context", Context), ("Params", Params)):
            schema = getattr(cls, group)
            if not (isinstance(schema, type) and issubclass(schema, Schema)):
                raise TypeError(f"{cls.__qualname__}.{group} must be a subclass of "
                                f"hopsim.{base.__name__} (or of hopsim.Schema), got {schema!r}")
            groups[group] = schema._schema
        class_name = name or cls.__name__
        try:
            cls._assembly_class_index = _hopsim._register_assembly(
                cls, class_name, (cls.__doc__ or "").strip(), groups["Config"],
                groups["Context"], groups["Params"], register)
        except _hopsim.ModelError as error:
            raise _hopsim.ModelError(
                f"{cls.__module__}.{cls.__qualname__}: {error}; give the class another name "
                "(class X(hopsim.Assembly, name=...)) or pass register=False") from None
        cls.assembly_class_name = class_name

    def add_signals(self):
        """Stage 1: declare the signals its models and children use (``add_signal``)."""

    def add_models(self):
        """Stage 2: create bodies and models and tie their ports (``add_body``,
        ``add_model``, ``tie``)."""

    def add_assemblies(self):
        """Stage 3: create the children with their signal ties (``add_assembly``)."""

    def bind_params(self):
        """After the whole tree is built (at lock or ``SimulationAssembly.bind``), parents
        first: push params into models and bodies."""

    def bind_state(self):
        """After every ``bind_params``, parents first: set initial states and signal values."""
