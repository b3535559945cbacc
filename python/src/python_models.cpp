// Python subclasses of FlowModel and ContinuousModel (hopsim/models.py), called by the executive
// like C++ models.
//
// A Python model class has a declaration built at run time (PythonModelSpec) from the fields its
// class body declares. Each instance owns a ModelHandle; the handle owns the C++ model
// (PythonModel<FlowModel> or PythonModel<ContinuousModel>) until a simulation adopts it. From
// then on the simulation owns the model, the model owns a reference to the Python instance, and
// the handle only points at the model, so there is no reference cycle: removing the model (or
// dropping the simulation) releases the instance, and a handle whose model is gone raises
// ModelError instead of touching freed memory.
//
// The executive calls the model with the GIL released (simulation.cpp); each call takes the GIL.
// Only the methods the Python class overrides are called at all, so a model that defines only
// update_flow_outs costs one Python call per sweep.

#include "python_models.h"

#include <pybind11/stl.h>

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "hopsim/core/continuous_model.h"
#include "hopsim/core/flow_model.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "value_conversion.h"

namespace hopsim::python {
namespace {

/// The Python names of the methods a Python model may define, indexed by ModelMethod, then
/// setup (which has no ModelMethod: no event hooks it); the `overrides` bit mask has this order.
constexpr std::size_t kSetup = kModelMethodCount;
constexpr std::array<const char*, kModelMethodCount + 1> kMethodNames{"process_params",
                                                                      "start_io_step",
                                                                      "start_hop",
                                                                      "update_flow_outs",
                                                                      "end_hop",
                                                                      "end_io_step",
                                                                      "start_integration_step",
                                                                      "pre_deriv",
                                                                      "post_deriv",
                                                                      "end_integration_step",
                                                                      "masked_coordinates",
                                                                      "setup"};

/// A model class declared in Python: the ModelSpec its field declarations describe.
class PythonModelSpec final : public ModelSpec {
 public:
  PythonModelSpec(std::string className, ModelKind kind, std::string doc)
      : ModelSpec(std::move(className), kind, std::move(doc)) {}

  /// Everything one Python field declaration says.
  struct Field {
    FieldRole role;
    std::string name;
    ElementType type;
    bool vector;
    std::optional<std::size_t> length{};
    std::optional<std::string> lengthSymbol{};
    std::string unit;
    std::string description;
    std::optional<Value> defaultValue{};
    std::optional<double> lower{};
    std::optional<double> upper{};
    bool lowerExclusive;
    bool upperExclusive;
    std::optional<std::vector<std::string>> feedsFrom;  ///< flowOuts: flowIn names
  };

  /// Declares a field; flowIns must come before the flowOuts that name them in feedsFrom.
  /// @throws ModelError naming the class and the field.
  void declare(const Field& field) {
    if (field.vector && (field.type == ElementType::Bool || field.type == ElementType::String)) {
      throw ModelError("model class '" + className() + "': field '" + field.name +
                       "': " + std::string(toString(field.type)) +
                       " fields are scalars; give a length only to int and float fields");
    }
    switch (field.type) {
      case ElementType::Bool:
        return declareRole<bool>(field);
      case ElementType::String:
        return declareRole<std::string>(field);
      case ElementType::Int:
        return field.vector ? declareRole<IntVector>(field) : declareRole<std::int64_t>(field);
      case ElementType::Double:
        return field.vector ? declareRole<Eigen::VectorXd>(field) : declareRole<double>(field);
    }
  }
  void setGranularity(Granularity granularity) { setOutputGranularity(granularity); }

 private:
  template <class T>
  void declareRole(const Field& f) {
    switch (f.role) {
      case FieldRole::Param:
        return apply(param<T>(f.name), f);
      case FieldRole::DiscreteState:
        return apply(discreteState<T>(f.name), f);
      case FieldRole::ContinuousState:
        if constexpr (std::is_same_v<T, double> || std::is_same_v<T, Eigen::VectorXd>) {
          return apply(continuousState<T>(f.name), f);
        } else {
          throw ModelError("model class '" + className() + "': continuous state '" + f.name +
                           "' must be a float or a float vector, not " +
                           std::string(toString(f.type)));
        }
      case FieldRole::Scratch:
        return apply(scratch<T>(f.name), f);
      case FieldRole::FlowIn:
        return apply(flowIn<T>(f.name), f);
      case FieldRole::FlowOut:
        return apply(flowOut<T>(f.name), f);
    }
  }

  template <FieldRole R, class T>
  void apply(FieldDeclarator<R, T> d, const Field& f) {
    d.unit(f.unit).describe(f.description);
    if constexpr (FieldType<T>::kVector) {
      if (f.lengthSymbol) d.length(*f.lengthSymbol);
      if (f.length) d.length(*f.length);
    }
    if (f.lower) f.lowerExclusive ? d.above(*f.lower) : d.min(*f.lower);
    if (f.upper) f.upperExclusive ? d.below(*f.upper) : d.max(*f.upper);
    if (f.defaultValue) d.defaultValue(*f.defaultValue);
    if constexpr (R == FieldRole::FlowOut) {
      if (f.feedsFrom) d.feedsFrom(inputIndices(f.name, *f.feedsFrom));
    }
  }

  std::vector<std::size_t> inputIndices(const std::string& output,
                                        const std::vector<std::string>& inputs) const {
    std::vector<std::size_t> indices;
    for (const std::string& input : inputs) {
      if (auto index = find(FieldRole::FlowIn, input)) {
        indices.push_back(*index);
        continue;
      }
      std::vector<std::string> names;
      for (const FieldSpec& in : fields(FieldRole::FlowIn)) names.push_back(in.name);
      throw ModelError("model class '" + className() + "': flowOut '" + output + "' feeds from '" +
                       input + "', which is not a flowIn" + didYouMean(input, names));
    }
    return indices;
  }
};

class ModelHandle;

constexpr std::size_t index(ModelMethod method) { return static_cast<std::size_t>(method); }

/// What a handle needs of its model, whichever executive base class the model has.
class PythonModelAccess {
 public:
  PythonModelAccess(std::shared_ptr<const PythonModelSpec> spec, ModelHandle* handle,
                    py::handle instance, unsigned overrides)
      : pySpec_(std::move(spec)), handle_(handle), instance_(instance.ptr()) {
    // The class's functions, looked up once (the instance is created with the GIL held).
    const py::handle type(reinterpret_cast<PyObject*>(Py_TYPE(instance_)));
    for (std::size_t i = 0; i < kMethodNames.size(); ++i) {
      if ((overrides & (1u << i)) != 0) methods_[i] = type.attr(kMethodNames[i]);
    }
  }
  virtual ~PythonModelAccess() = default;

  virtual Model& model() = 0;
  virtual py::object read(FieldRole role, std::size_t index) = 0;
  virtual void write(FieldRole role, std::size_t index, py::handle value) = 0;
  virtual void setDerivative(std::size_t index, py::handle value) = 0;
  virtual bool isFresh(std::size_t flowIn) const = 0;

  /// The simulation adopts the model: from now on the model keeps its Python instance alive.
  void adoptInstance() {
    Py_INCREF(instance_);
    ownsInstance_ = true;
  }

 protected:
  /// Calls the Python method if the class defines it. The GIL is taken here: the executive runs
  /// without it.
  template <class... Args>
  void call(std::size_t method, Args... args) {
    const py::object& function = methods_[method];
    if (!function) return;
    py::gil_scoped_acquire gil;
    function(py::handle(instance_), args...);
  }
  void detach();

  std::shared_ptr<const PythonModelSpec> pySpec_;  // a base before Model, which refers to it

 private:
  ModelHandle* handle_;
  PyObject* instance_;  // borrowed until adoptInstance()
  bool ownsInstance_ = false;
  std::array<py::object, kMethodNames.size()> methods_;  // empty where the class defines none
};

/// The Python instance's link to its C++ model: owns it until a simulation adopts it.
class ModelHandle {
 public:
  ~ModelHandle() { owned_.reset(); }  // the model's destructor clears model_ first

  PythonModelAccess& access() const {
    if (model_ == nullptr) {
      throw ModelError(
          "this Python model no longer exists in C++: it was removed from its simulation, or "
          "the simulation was deleted");
    }
    return *model_;
  }
  void set(std::unique_ptr<Model> owned, PythonModelAccess* model) {
    owned_ = std::move(owned);
    model_ = model;
  }
  /// Hands the model over (to a simulation or a registry's caller), once.
  std::unique_ptr<Model> release() {
    if (!owned_) {
      access();  // a handle whose model is gone says so
      throw ModelError("model '" + model_->model().name() +
                       "' already belongs to a simulation; create another instance");
    }
    model_->adoptInstance();
    return std::move(owned_);
  }
  void forget() { model_ = nullptr; }

 private:
  std::unique_ptr<Model> owned_;
  PythonModelAccess* model_ = nullptr;
};

void PythonModelAccess::detach() {
  handle_->forget();
  py::gil_scoped_acquire gil;
  for (py::object& function : methods_) function = py::object();
  if (ownsInstance_) Py_DECREF(instance_);
}

/// A model whose methods are those of a Python instance; Base is FlowModel or ContinuousModel.
template <class Base>
class PythonModel : public PythonModelAccess, public Base {
 public:
  PythonModel(std::string name, std::shared_ptr<const PythonModelSpec> spec, ModelHandle* handle,
              py::handle instance, unsigned overrides)
      : PythonModelAccess(std::move(spec), handle, instance, overrides),
        Base(std::move(name), *pySpec_) {}
  ~PythonModel() override { detach(); }

  Model& model() override { return *this; }

  void setup() override { call(kSetup); }
  void processParams(double t) override { call(index(ModelMethod::ProcessParams), t); }
  void startIoStep(double t0, double t1) override { call(index(ModelMethod::StartIoStep), t0, t1); }
  void startHop(double t0, double t1) override { call(index(ModelMethod::StartHop), t0, t1); }
  void updateFlowOuts(double t) override { call(index(ModelMethod::UpdateFlowOuts), t); }
  void endHop(double t0, double t1) override { call(index(ModelMethod::EndHop), t0, t1); }
  void endIoStep(double t0, double t1) override { call(index(ModelMethod::EndIoStep), t0, t1); }

  py::object read(FieldRole role, std::size_t index) override {
    const FieldSpec& field = this->spec().fields(role)[index];
    if (role == FieldRole::FlowIn) return readInput(field, index);
    if (role == FieldRole::FlowOut) {
      const SignalSlice& slice = this->binding(role, index);
      return toPython(slice.signal().buffer().get(slice.offset(), slice.length()));
    }
    const Buffer& buffer = this->fieldBuffer(role, index);
    if (isScalarDouble(field)) return py::float_(buffer.doubles()[0]);
    return toPython(buffer.get());
  }

  void write(FieldRole role, std::size_t index, py::handle value) override {
    const FieldSpec& field = this->spec().fields(role)[index];
    // The common case, a float to a scalar double output, without building a path or a Value.
    // out() refuses writes outside updateFlowOuts and counts this as a write of the signal.
    if (role == FieldRole::FlowOut && isScalarDouble(field) && PyFloat_Check(value.ptr())) {
      this->out(OutKey<double>{index}) = PyFloat_AS_DOUBLE(value.ptr());
      return;
    }
    const std::string path = fieldPath(role, field);
    if (role == FieldRole::FlowIn || role == FieldRole::Param) {
      throw ModelError(path + ": a model reads its " + branchName(role) + " and never writes them" +
                       (role == FieldRole::Param ? "; set params by path between hops" : ""));
    }
    if (role != FieldRole::FlowOut) {
      this->setOwnField(role, field.name, toValue(value, path));
      return;
    }
    const Value converted = toValue(value, path);
    markOutputWritten(field, index);
    const SignalSlice& slice = this->binding(role, index);
    slice.signal().buffer().set(slice.offset(), slice.length(), converted, path);
  }

  void setDerivative(std::size_t index, py::handle value) override {
    const FieldSpec& field = this->spec().fields(FieldRole::ContinuousState)[index];
    if constexpr (std::is_base_of_v<ContinuousModel, Base>) {
      if (!field.vector && PyFloat_Check(value.ptr())) {  // the common case, directly
        this->derivative(ContinuousStateKey<double>{index}) = PyFloat_AS_DOUBLE(value.ptr());
        return;
      }
      // Anything else through a buffer of the state's length, which checks type and length.
      const std::string path = fieldPath(FieldRole::ContinuousState, field) + " (derivative)";
      Buffer checked(ElementType::Double,
                     this->fieldBuffer(FieldRole::ContinuousState, index).length());
      checked.set(toValue(value, path), path);
      if (field.vector) {
        this->derivative(ContinuousStateKey<Eigen::VectorXd>{index}) =
            Eigen::Map<const Eigen::VectorXd>(checked.doubles(),
                                              static_cast<Eigen::Index>(checked.length()));
      } else {
        this->derivative(ContinuousStateKey<double>{index}) = checked.doubles()[0];
      }
    } else {
      // models.py gives derivatives only to continuous models.
      throw ModelError(fieldPath(FieldRole::ContinuousState, field) +
                       ": only continuous models have derivatives");
    }
  }

  bool isFresh(std::size_t flowIn) const override { return Model::isFresh(InKey<double>{flowIn}); }

 private:
  static bool isScalarDouble(const FieldSpec& field) {
    return field.type == ElementType::Double && !field.vector;
  }
  std::string fieldPath(FieldRole role, const FieldSpec& field) const {
    return "models." + this->name() + "." + branchName(role) + "." + field.name;
  }

  py::object readInput(const FieldSpec& field, std::size_t index) {
    switch (field.type) {
      case ElementType::Bool:
        return py::bool_(this->in(InKey<bool>{index}));
      case ElementType::String:
        return py::str(this->in(InKey<std::string>{index}));
      case ElementType::Int:
        if (!field.vector) return py::int_(this->in(InKey<std::int64_t>{index}));
        {
          auto span = this->in(InKey<IntVector>{index});
          return toPython(IntVector(span.begin(), span.end()));
        }
      case ElementType::Double:
        if (!field.vector) return py::float_(this->in(InKey<double>{index}));
        {
          auto map = this->in(InKey<Eigen::VectorXd>{index});
          return toArray({map.data(), static_cast<std::size_t>(map.size())});
        }
    }
    return py::none();
  }

  /// out() for its effects only (refused outside updateFlowOuts; counts as a write of the
  /// signal); the caller then sets the value through the signal's buffer, which checks it.
  void markOutputWritten(const FieldSpec& field, std::size_t index) {
    switch (field.type) {
      case ElementType::Bool:
        this->out(OutKey<bool>{index});
        return;
      case ElementType::String:
        this->out(OutKey<std::string>{index});
        return;
      case ElementType::Int:
        this->out(OutKey<IntVector>{index});
        return;
      case ElementType::Double:
        this->out(OutKey<Eigen::VectorXd>{index});
        return;
    }
  }
};

using PythonFlowModel = PythonModel<FlowModel>;

/// A PythonModel with the ContinuousModel methods as well.
class PythonContinuousModel final : public PythonModel<ContinuousModel> {
 public:
  using PythonModel<ContinuousModel>::PythonModel;
  void maskedCoordinates(double t) override { call(index(ModelMethod::MaskedCoordinates), t); }
  void startIntegrationStep(double t0, double t1) override {
    call(index(ModelMethod::StartIntegrationStep), t0, t1);
  }
  void preDeriv(double t) override { call(index(ModelMethod::PreDeriv), t); }
  void postDeriv(double t) override { call(index(ModelMethod::PostDeriv), t); }
  void endIntegrationStep(double t0, double t1) override {
    call(index(ModelMethod::EndIntegrationStep), t0, t1);
  }
};

/// What Python holds of a Python model class's declaration; shared with its models, which may
/// outlive the class.
struct Declaration {
  std::shared_ptr<PythonModelSpec> spec;
};

/// Creates the C++ model of a Python instance, owned by a new handle.
std::unique_ptr<ModelHandle> makeHandle(std::shared_ptr<const PythonModelSpec> spec,
                                        std::string name, py::handle instance, unsigned overrides) {
  auto handle = std::make_unique<ModelHandle>();
  // The executive then skips the methods the class does not define (the mask's low bits are
  // in ModelMethod order) instead of calling into an empty C++ override.
  const auto implemented = static_cast<ModelMethodSet>(overrides & kEveryModelMethod);
  if (spec->kind() == ModelKind::Flow) {
    auto model =
        std::make_unique<PythonFlowModel>(std::move(name), spec, handle.get(), instance, overrides);
    ModelBinding::setImplementedMethods(*model, implemented);
    PythonModelAccess* access = model.get();
    handle->set(std::move(model), access);
  } else {
    auto model = std::make_unique<PythonContinuousModel>(std::move(name), spec, handle.get(),
                                                         instance, overrides);
    ModelBinding::setImplementedMethods(*model, implemented);
    PythonModelAccess* access = model.get();
    handle->set(std::move(model), access);
  }
  return handle;
}

/// The handle of a hopsim.FlowModel or hopsim.ContinuousModel instance.
ModelHandle& handleOf(py::handle instance) {
  if (!py::hasattr(instance, "_handle")) {
    throw py::type_error(
        "expected an instance of a subclass of hopsim.FlowModel or "
        "hopsim.ContinuousModel, got " +
        py::repr(instance).cast<std::string>());
  }
  return instance.attr("_handle").cast<ModelHandle&>();
}

std::optional<double> optionalDouble(py::handle value) {
  if (value.is_none()) return std::nullopt;
  return value.cast<double>();
}

}  // namespace

bool isPythonModelClass(py::handle object) {
  return PyType_Check(object.ptr()) && py::hasattr(object, "_spec") &&
         py::hasattr(object, "_overrides");
}

std::unique_ptr<Model> releasePythonModel(py::handle instance) {
  return handleOf(instance).release();
}

void bindPythonModels(py::module_& m) {
  // models.py builds the `overrides` mask from this tuple: one list of the methods, here.
  py::tuple methodNames(kMethodNames.size());
  for (std::size_t i = 0; i < kMethodNames.size(); ++i) methodNames[i] = py::str(kMethodNames[i]);
  m.attr("_model_method_names") = methodNames;
  py::enum_<ModelKind>(m, "ModelKind", "The model family a class belongs to.")
      .value("FLOW", ModelKind::Flow)
      .value("CONTINUOUS", ModelKind::Continuous)
      .value("DARTS", ModelKind::Darts)
      .value("ACTUATOR", ModelKind::Actuator)
      .value("SENSOR", ModelKind::Sensor)
      .value("MOTOR", ModelKind::Motor)
      .value("ENCODER", ModelKind::Encoder);

  py::class_<Declaration>(m, "_PythonModelSpec",
                          "The declaration of a Python model class, built by hopsim.FlowModel "
                          "and hopsim.ContinuousModel from the fields the class body declares.")
      .def(py::init([](std::string className, ModelKind kind, std::string doc) {
             return Declaration{
                 std::make_shared<PythonModelSpec>(std::move(className), kind, std::move(doc))};
           }),
           py::arg("class_name"), py::arg("kind"), py::arg("doc"))
      .def_property_readonly(
          "spec", [](const Declaration& d) -> const ModelSpec& { return *d.spec; },
          py::return_value_policy::reference_internal, "The ModelSpec.")
      .def_property_readonly("class_name", [](const Declaration& d) { return d.spec->className(); })
      .def(
          "declare",
          [](Declaration& d, FieldRole role, std::string name, ElementType type, bool vector,
             py::object length, std::string unit, std::string description, py::object defaultValue,
             py::object lower, py::object upper, bool lowerExclusive, bool upperExclusive,
             std::optional<std::vector<std::string>> feedsFrom) {
            PythonModelSpec& spec = *d.spec;
            PythonModelSpec::Field field{.role = role,
                                         .name = std::move(name),
                                         .type = type,
                                         .vector = vector,
                                         .unit = std::move(unit),
                                         .description = std::move(description),
                                         .lowerExclusive = lowerExclusive,
                                         .upperExclusive = upperExclusive,
                                         .feedsFrom = std::move(feedsFrom)};
            if (py::isinstance<py::str>(length)) {
              field.lengthSymbol = length.cast<std::string>();
            } else if (!length.is_none()) {
              field.length = length.cast<std::size_t>();
            }
            if (!defaultValue.is_none()) {
              field.defaultValue = toValue(defaultValue, spec.className() + "." + field.name);
            }
            field.lower = optionalDouble(lower);
            field.upper = optionalDouble(upper);
            spec.declare(field);
          },
          py::arg("role"), py::arg("name"), py::arg("type"), py::arg("vector"), py::arg("length"),
          py::arg("unit"), py::arg("description"), py::arg("default"), py::arg("lower"),
          py::arg("upper"), py::arg("lower_exclusive"), py::arg("upper_exclusive"),
          py::arg("feeds_from"))
      .def(
          "set_output_granularity",
          [](Declaration& d, Granularity granularity) { d.spec->setGranularity(granularity); },
          py::arg("granularity"));

  py::class_<ModelHandle>(m, "_ModelHandle",
                          "A Python model's link to its C++ model (hopsim/models.py).")
      .def(py::init(
               [](const Declaration& d, std::string name, py::handle instance, unsigned overrides) {
                 return makeHandle(d.spec, std::move(name), instance, overrides);
               }),
           py::arg("spec"), py::arg("name"), py::arg("instance"), py::arg("overrides"))
      .def_property_readonly("name", [](const ModelHandle& h) { return h.access().model().name(); })
      .def("read", [](ModelHandle& h, FieldRole role,
                      std::size_t index) { return h.access().read(role, index); })
      .def("write", [](ModelHandle& h, FieldRole role, std::size_t index,
                       py::handle value) { h.access().write(role, index, value); })
      .def("set_derivative", [](ModelHandle& h, std::size_t index,
                                py::handle value) { h.access().setDerivative(index, value); })
      .def("is_fresh", [](ModelHandle& h, std::size_t index) { return h.access().isFresh(index); })
      .def("set_param", [](ModelHandle& h, const std::string& name, py::handle value) {
        Model& model = h.access().model();
        model.setParam(name, toValue(value, "models." + model.name() + ".params." + name));
      });

  m.def(
      "_register_model_class",
      [](const Declaration& d, py::object factory) {
        std::shared_ptr<const PythonModelSpec> spec = d.spec;
        // The registry lives until the process ends, after the interpreter: the factory is
        // deliberately never released once registered.
        auto callable = std::make_unique<py::object>(std::move(factory));
        models::modelRegistry().add(*spec, [spec, callable = callable.get()](std::string name) {
          py::gil_scoped_acquire gil;
          py::object instance = (*callable)(std::move(name));
          return releasePythonModel(instance);
        });
        callable.release();  // NOLINT: owned by the registry's factory from here on
      },
      py::arg("spec"), py::arg("factory"));
}

}  // namespace hopsim::python
