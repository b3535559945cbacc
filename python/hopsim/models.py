"""Component models written in Python, for prototyping.

A subclass of :class:`FlowModel` or :class:`ContinuousModel` declares its fields in its class body
and overrides the model methods it needs; the executive calls it exactly as it calls a C++
model (sorting, feed-through, granularity, rates, events, zero crossings, rollback,
checkpoints)::

    class Gain(hopsim.FlowModel):
        \"\"\"Multiplies its input by a scalar: y = k u.\"\"\"

        k = hopsim.Param(float, unit="1", default=1.0, doc="gain")
        u = hopsim.FlowIn(float, doc="input")
        y = hopsim.FlowOut(float, feeds_from=["u"], doc="output k u")

        def update_flow_outs(self, t):
            self.y = self.k * self.u

    sim.add_model(Gain("gain", k=2.0))

Inside a method, ``self.<field>`` reads a param, state, scratch field or input (floats, ints,
bools and strings; numpy arrays for vectors) and ``self.<field> = value`` writes a discrete
state, scratch field, continuous state or (in ``update_flow_outs`` only) an output, with the
checks of the C++ path: type, length and bounds. A continuous model writes its derivatives in
``post_deriv`` with ``self.derivatives.<state> = value``.

The methods and their arguments (times in s) are the C++ ones with PEP 8 names: ``setup()``,
``process_params(t)``, ``start_io_step(t0, t1)``, ``start_hop(t0, t1)``,
``update_flow_outs(t)``, ``end_hop(t0, t1)``, ``end_io_step(t0, t1)``, and for continuous models
``masked_coordinates(t)``, ``start_integration_step(t0, t1)``, ``pre_deriv(t)``,
``post_deriv(t)``, ``end_integration_step(t0, t1)``. Only the methods a class defines are called.

Once added, the simulation owns the model: ``sim.get("models.gain.params.k")`` and the rest of
the variable tree reach it by path like any other. :func:`register_model` makes a class
creatable by name (``sim.add_model("Gain", "g", {"k": 2.0})``, scenario YAML, assemblies).
"""

from hopsim import _hopsim
from hopsim._hopsim import ElementType, FieldRole, Granularity, ModelKind

__all__ = [
    "ContinuousModel",
    "ContinuousState",
    "DiscreteState",
    "FlowIn",
    "FlowModel",
    "FlowOut",
    "Param",
    "Scratch",
    "register_model",
]

_ELEMENT_TYPES = {
    bool: ElementType.BOOL,
    int: ElementType.INT,
    float: ElementType.DOUBLE,
    str: ElementType.STRING,
}

# The order fields are declared in: flowIns before the flowOuts that name them in feeds_from.
_ROLE_ORDER = (
    FieldRole.PARAM,
    FieldRole.DISCRETE_STATE,
    FieldRole.CONTINUOUS_STATE,
    FieldRole.SCRATCH,
    FieldRole.FLOW_IN,
    FieldRole.FLOW_OUT,
)

# The methods a Python model may define, in the order of the C++ side's bit mask
# (python_models.cpp, kMethodNames).
_METHODS = _hopsim._model_method_names


class _Field:
    """A declared field of a Python model class: a descriptor reaching the model's value.

    Options (keyword-only): ``name`` (the declared name, when it differs from the attribute's:
    ports and states may share a name in C++, attributes may not), ``length`` (an int for a
    fixed-length vector, a str for a variable length shared by the fields that name it),
    ``unit`` (SI), ``default`` (a scalar fills a vector), ``doc``, and the bounds ``min``,
    ``max`` (inclusive) or ``above``, ``below`` (exclusive).
    """

    role = None

    def __init__(self, type=float, *, name=None, length=None, unit="", default=None, doc="",
                 min=None, max=None, above=None, below=None):
        if type not in _ELEMENT_TYPES:
            raise TypeError(
                f"{self.__class__.__name__}: the type must be one of bool, int, float, str; "
                f"got {type!r}")
        if min is not None and above is not None:
            raise ValueError(f"{self.__class__.__name__}: give min or above, not both")
        if max is not None and below is not None:
            raise ValueError(f"{self.__class__.__name__}: give max or below, not both")
        if length is not None and not isinstance(length, (int, str)):
            raise TypeError(
                f"{self.__class__.__name__}: length is a count (int) or a length symbol (str); "
                f"got {length!r}")
        self.type = type
        self.length = length
        self.unit = unit
        self.default = default
        self.doc = doc
        self.lower = min if above is None else above
        self.upper = max if below is None else below
        self.lower_exclusive = above is not None
        self.upper_exclusive = below is not None
        self.name = name
        self.attribute = None
        self.index = None

    def __set_name__(self, owner, attribute):
        self.attribute = attribute
        if self.name is None:
            self.name = attribute

    def _declare(self, spec):
        spec.declare(self.role, self.name, _ELEMENT_TYPES[self.type], self.length is not None,
                     self.length, self.unit, self.doc, self.default, self.lower, self.upper,
                     self.lower_exclusive, self.upper_exclusive, self._feeds_from())

    def _feeds_from(self):
        return None

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return instance._handle.read(self.role, self.index)

    def __set__(self, instance, value):
        instance._handle.write(self.role, self.index, value)

    def __repr__(self):
        return f"{self.__class__.__name__}({self.type.__name__}, name={self.name!r})"


class Param(_Field):
    """A parameter: set by users (by path, or as keyword arguments of the constructor), read by
    the model. ``Param(float, unit="N/m", default=1.0, min=0.0, doc="stiffness")``; a param
    without a default must be set before ``lock()``."""

    role = FieldRole.PARAM


class DiscreteState(_Field):
    """A discrete state: changed by the model at hop boundaries, saved by checkpoints and
    restored by zero-crossing rollback."""

    role = FieldRole.DISCRETE_STATE


class ContinuousState(_Field):
    """A continuous state (float or float vector) of a :class:`ContinuousModel`, integrated by
    the state propagator; ``post_deriv`` sets its derivative with
    ``self.derivatives.<name> = value``."""

    role = FieldRole.CONTINUOUS_STATE


class Scratch(_Field):
    """Working memory of a model: never saved or restored."""

    role = FieldRole.SCRATCH


class FlowIn(_Field):
    """An input port, tied to a signal; reading it raises ModelError if nothing has written the
    signal yet. ``self.is_fresh("u")`` tells whether it was written since the model last read
    it."""

    role = FieldRole.FLOW_IN


class FlowOut(_Field):
    """An output port, tied to a signal; written only in ``update_flow_outs``.

    ``feeds_from`` names the inputs the output depends on directly (feed-through, which the
    dataflow sort follows): ``None`` (the default) means every input, the conservative choice;
    ``[]`` means none (the output depends only on states, params and time).
    """

    role = FieldRole.FLOW_OUT

    def __init__(self, type=float, *, feeds_from=None, **options):
        super().__init__(type, **options)
        if isinstance(feeds_from, str):
            feeds_from = [feeds_from]
        self.feeds_from = None if feeds_from is None else list(feeds_from)

    def _feeds_from(self):
        return self.feeds_from


class _Derivatives:
    """``self.derivatives.<state> = value`` sets a continuous state's time derivative."""

    __slots__ = ("_model",)

    def __init__(self, model):
        object.__setattr__(self, "_model", model)

    def __setattr__(self, name, value):
        field = type(self._model)._fields_by_name.get(name)
        if field is None or field.role != FieldRole.CONTINUOUS_STATE:
            raise _hopsim.NotFoundError(
                f"model class '{type(self._model)._spec.class_name}' has no continuous state "
                f"'{name}'; declared: {', '.join(type(self._model)._continuous_names) or 'none'}")
        self._model._handle.set_derivative(field.index, value)


class _Model:
    """What FlowModel and ContinuousModel share: the declaration built from the class body and
    the link to the C++ model."""

    _kind = None

    def __init_subclass__(cls, class_name=None, output_granularity=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if "_kind" in cls.__dict__:
            return  # FlowModel and ContinuousModel themselves: families, not model classes
        fields = {}
        for klass in reversed(cls.__mro__):
            for attribute, value in vars(klass).items():
                if isinstance(value, _Field):
                    fields[attribute] = value
        ordered = sorted(fields.values(), key=lambda f: _ROLE_ORDER.index(f.role))
        spec = _hopsim._PythonModelSpec(class_name or cls.__name__, cls._kind,
                                        (cls.__doc__ or "").strip())
        # Indices count within a role, in declaration order. An inherited field keeps its place
        # (and so its index) in a subclass, even when the subclass redefines it.
        counts = dict.fromkeys(_ROLE_ORDER, 0)
        for field in ordered:
            field._declare(spec)
            field.index = counts[field.role]
            counts[field.role] += 1
        if output_granularity is not None:
            spec.set_output_granularity(output_granularity)
        cls._spec = spec
        cls._fields_by_name = {f.attribute: f for f in ordered}
        cls._continuous_names = [
            f.attribute for f in ordered if f.role == FieldRole.CONTINUOUS_STATE]
        cls._overrides = sum(
            1 << bit for bit, method in enumerate(_METHODS)
            if getattr(cls, method, None) is not getattr(_Model, method, None))

    def __init__(self, name, **params):
        """Creates the model ``name``; keyword arguments set params, checked like a set by
        path."""
        if "_spec" not in type(self).__dict__:
            raise TypeError("create an instance of a subclass of hopsim.FlowModel or "
                            "hopsim.ContinuousModel, not of the base class itself")
        self._handle = _hopsim._ModelHandle(type(self)._spec, name, self, type(self)._overrides)
        for param, value in params.items():
            self._handle.set_param(param, value)

    @property
    def name(self):
        """The model's name in its simulation."""
        return self._handle.name

    @classmethod
    def declaration(cls):
        """The :class:`ModelSpec` built from the class body (fields, units, bounds,
        feed-through), as ``Simulation.model_spec`` reports it."""
        return cls._spec.spec

    def is_fresh(self, flow_in):
        """True when the signal tied to the input attribute ``flow_in`` was written since this
        model last read it."""
        field = type(self)._fields_by_name.get(flow_in)
        if field is None or field.role != FieldRole.FLOW_IN:
            raise _hopsim.NotFoundError(
                f"model class '{type(self)._spec.class_name}' has no flowIn '{flow_in}'")
        return self._handle.is_fresh(field.index)

    def __repr__(self):
        try:
            name = self._handle.name
        except (AttributeError, _hopsim.Error):
            name = "?"
        return f"<{type(self).__name__} model {name!r}>"

    # The methods the executive calls; a subclass defines those it needs (see the module doc).
    def setup(self):
        """At lock(), after ports are tied and lengths resolved."""

    def process_params(self, t):
        """Before the first hop and before any hop that follows a param change."""

    def start_io_step(self, t0, t1):
        """At the start of the model's own I/O step [t0, t1]."""

    def start_hop(self, t0, t1):
        """At the start of every hop [t0, t1]: discrete-state updates."""

    def update_flow_outs(self, t):
        """Computes the outputs at t from inputs, states, params and t; side-effect free."""

    def end_hop(self, t0, t1):
        """At the end of every hop [t0, t1]."""

    def end_io_step(self, t0, t1):
        """At the end of the model's own I/O step [t0, t1]."""

    # Continuous-model methods (ContinuousModel only).
    def masked_coordinates(self, t):
        """Sets the masked (prescribed) continuous-state elements at t."""

    def start_integration_step(self, t0, t1):
        """At the start of an integration sub-step [t0, t1]."""

    def pre_deriv(self, t):
        """Per derivative evaluation, before multibody forward dynamics."""

    def post_deriv(self, t):
        """Per derivative evaluation: set ``self.derivatives.<state>``."""

    def end_integration_step(self, t0, t1):
        """At the end of an integration sub-step [t0, t1]."""


class FlowModel(_Model):
    """Base of Python models with discrete dynamics only (no continuous states); see the module
    documentation. Class keywords: ``class_name`` (default: the Python class name) and
    ``output_granularity`` (a :class:`Granularity`; default ALL with outputs)."""

    _kind = ModelKind.FLOW


class ContinuousModel(_Model):
    """Base of Python models with continuous states, integrated across each hop; see the module
    documentation."""

    _kind = ModelKind.CONTINUOUS

    def __init__(self, name, **params):
        super().__init__(name, **params)
        self.derivatives = _Derivatives(self)


def register_model(model_class):
    """Registers a Python model class by its class name, so that ``Simulation.add_model(
    class_name, name, params)``, scenario YAML files and assemblies can create it; usable as a
    class decorator. Raises :class:`ModelError` if the name is taken."""
    if not (isinstance(model_class, type) and issubclass(model_class, _Model)
            and "_spec" in model_class.__dict__):
        raise TypeError(f"register_model expects a subclass of hopsim.FlowModel or "
                        f"hopsim.ContinuousModel, got {model_class!r}")
    _hopsim._register_model_class(model_class._spec, model_class)
    return model_class
