#pragma once
/// @file
/// ModelRegistry: the model factory, by class name.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hopsim/core/batch_calls.h"
#include "hopsim/core/model.h"

namespace hopsim {

/// Param values given by name when a model is created ({"k", 2.0}).
using ParamValues = std::vector<std::pair<std::string, Value>>;

/// Creates models by class name, for Python, YAML scenarios and the command line. A model class
/// is registered with its declaration and a constructor taking the instance name.
class ModelRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Model>(std::string name)>;

  /// Registers `M`, which provides `static const ModelSpec& declaration()` (or a type derived
  /// from it) and a constructor `M(std::string name)`. Its models are called only for the
  /// methods M overrides.
  /// @throws ModelError if the class name is taken.
  template <class M>
  void add() {
    add(M::declaration(), [](std::string name) { return makeModel<M>(std::move(name)); });
  }
  /// Registers a class by its declaration and a factory. The executive calls every method of
  /// the factory's models unless the factory makes them with makeModel<M>, as add<M>()
  /// does.
  void add(const ModelSpec& spec, Factory factory);

  /// A new model of class `className` named `name`, with `params` set through the validated
  /// path; a failure leaves nothing behind.
  /// @throws InputError naming the class (with the nearest registered names), param or value.
  std::unique_ptr<Model> create(std::string_view className, std::string name,
                                const ParamValues& params = {}) const;

  /// The declaration of a registered class. @throws InputError as create() does.
  const ModelSpec& spec(std::string_view className) const;
  bool contains(std::string_view className) const { return entries_.count(className) != 0; }
  /// Registered class names, sorted.
  std::vector<std::string> classNames() const;

 private:
  struct Entry {
    const ModelSpec* spec;
    Factory factory;
  };
  const Entry& entry(std::string_view className) const;

  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace hopsim
