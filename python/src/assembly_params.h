#pragma once
/// @file
/// Parameters across the Python boundary, for the assembly bindings (assemblies.cpp): Python
/// values as InputNode, the ParamValues view of a validated set, and the handle on a schema
/// (C++ or declared in Python as a hopsim.Schema subclass). The Python-built schemas themselves
/// and their bindings are in assembly_params.cpp.

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hopsim/assemblies/input_node.h"
#include "hopsim/assemblies/param_schema.h"
#include "hopsim/assemblies/param_set.h"

namespace hopsim {
class Assembly;
}  // namespace hopsim

namespace hopsim::python {

namespace py = pybind11;

/// A Python object that C++ may keep until after the interpreter is gone (a schema or class in
/// the process-wide registry): released under the GIL while Python runs, leaked afterwards.
class PyRef {
 public:
  explicit PyRef(py::object object) : object_(std::move(object)) {}
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef();
  /// The object. Precondition: the GIL is held.
  const py::object& get() const { return object_; }

 private:
  py::object object_;
};

/// A reference to an assembly the tree owns; get() fails cleanly once it is destroyed.
struct AssemblyRef {
  std::weak_ptr<Assembly* const> token;
  bool bound = false;            // false for an instance Python made by calling the class
  mutable std::string lastPath;  // for the message after the assembly is gone

  /// Refers to `a` from now on.
  void reset(Assembly& a);
  /// The assembly. @throws ModelError when it no longer exists or never was in a tree.
  Assembly& get() const;
};

/// The Python base of every assembly handle (hopsim.AssemblyBase).
struct AssemblyBase {
  AssemblyRef ref;
  virtual ~AssemblyBase() = default;
};

/// hopsim.ParamValues: which set of an assembly, or an owned set, or one lent for the length of
/// a call.
struct ValuesView {
  AssemblyRef owner;
  int group = -1;  // 0 config, 1 context, 2 params of `owner`
  std::shared_ptr<const ParamSet> root{};
  const ParamSet* lent = nullptr;
  std::shared_ptr<bool> lentAlive{};
  /// Nested records below the root: a Record field's name, or a RecordMap field's name and the
  /// entry's name. Resolved on every access, since a set may be replaced by a write.
  std::vector<std::string> nested{};

  /// The set viewed now. @throws ModelError when the assembly, the lent set or a nested record
  /// entry no longer exists.
  const ParamSet& resolve() const;
  /// The view of a nested record: `more` appended to `nested`.
  ValuesView below(std::vector<std::string> more) const;
};

/// hopsim.ParamSchema: the Python face of a schema (C++ or Python-built), shared with the sets
/// that use it.
struct SchemaHandle {
  std::shared_ptr<const ParamSchema> schema;
};

/// A Python value as input for a ParamSet: None, bool, int, float, str (units allowed: "2 kg"),
/// numpy scalars, sequences (lists, tuples, 1-D arrays), mappings with string keys and
/// ParamValues. @param what names the input in error messages (a variable path).
/// @throws InputError naming `what` and the value when it has no input equivalent.
InputNode toInput(py::handle o, const std::string& what);

/// Whether `schema` is `base` or a Python schema extending it (so that base's keys index it).
bool extends(const ParamSchema& schema, const std::shared_ptr<const ParamSchema>& base);

/// ParamField, ParamSchema, ParamValues and the helpers hopsim.Schema builds schemas with
/// (_build_schema, _native_schema). Called by bindAssemblies before anything that uses them.
void bindAssemblyParams(py::module_& m);

}  // namespace hopsim::python
