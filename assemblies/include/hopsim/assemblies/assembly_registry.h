#pragma once
/// @file
/// AssemblyRegistry: assembly classes by name, for YAML scenarios, Python and the command line.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/assembly.h"

namespace hopsim {

/// Assembly classes by class name.
class AssemblyRegistry {
 public:
  /// Registers the C++ assembly type A (see assemblyClassOf).
  template <class A>
  void add() {
    add(assemblyClassOf<A>());
  }
  /// Registers a class described at run time (a Python subclass).
  /// @throws ModelError if the name is taken.
  void add(AssemblyClass cls);
  /// @throws InputError naming the class and the nearest registered names.
  const AssemblyClass& get(std::string_view className) const;
  bool contains(std::string_view className) const { return classes_.count(className) != 0; }
  /// Registered class names, sorted.
  std::vector<std::string> classNames() const;

 private:
  std::map<std::string, AssemblyClass, std::less<>> classes_;
};

/// Registers the stock assemblies: Assembly, BodyAssembly, VehicleAssembly, GravityAssembly,
/// ModelAssembly.
void registerStandardAssemblies(AssemblyRegistry& registry);
/// The process-wide registry, holding the stock assemblies; classes registered here (from C++
/// or Python) are what scenarios can name.
AssemblyRegistry& assemblyRegistry();

}  // namespace hopsim
