#include "hopsim/core/batch_calls.h"

#include <mutex>
#include <typeindex>
#include <unordered_map>
#include <utility>

namespace hopsim {
namespace {

struct FiledClass {
  ModelMethodSet methods;
  const BatchCalls* calls;
};

/// The classes filed so far. Filing happens while the program and its libraries load (a library
/// opened later, Python's extension module, files its classes then), lookups when models are
/// added: the lock keeps the two apart.
struct FiledClasses {
  std::mutex mutex;
  std::unordered_map<std::type_index, FiledClass> classes;
};

FiledClasses& filedClasses() {
  static FiledClasses filed;  // constructed on first use: the static initializers file into it
  return filed;
}

}  // namespace

bool detail::fileModelClass(const std::type_info& type, ModelMethodSet methods,
                            const BatchCalls* calls) {
  FiledClasses& filed = filedClasses();
  const std::lock_guard lock(filed.mutex);
  filed.classes.try_emplace(std::type_index(type), FiledClass{methods, calls});
  return true;
}

void recognizeClassOf(Model& model) {
  FiledClasses& filed = filedClasses();
  const std::lock_guard lock(filed.mutex);
  const auto found = filed.classes.find(std::type_index(typeid(model)));
  if (found == filed.classes.end()) return;
  ModelBinding::setImplementedMethods(model, found->second.methods);
  ModelBinding::setBatchCalls(model, found->second.calls);
}

}  // namespace hopsim
