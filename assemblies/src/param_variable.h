#pragma once
// An assembly input leaf in the variable tree (private to the assemblies library).
#include <string>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim {

/// A leaf of an assembly's config, context or params as a variable: reads the set; writes go
/// through the set's validation, and only until the assembly is bound (bindParams copies the
/// values into models and bodies, so a later write would silently change nothing).
class ParamVariable final : public Variable {
 public:
  ParamVariable(ParamSet& set, std::string leaf, const bool& bound)
      : set_(&set), leaf_(std::move(leaf)), bound_(&bound) {}
  ElementType type() const override;
  std::size_t length() const override;
  Value get() const override { return set_->leaf(leaf_); }
  void set(const Value& value, std::string_view path) override;
  bool writable() const override { return !*bound_; }
  std::string unit() const override;
  std::string description() const override;

 private:
  const ParamField& field() const;
  ParamSet* set_;
  std::string leaf_;
  const bool* bound_;
};

/// A Value as an input node (for writes through the variable tree).
InputNode inputFromValue(const Value& value);

}  // namespace hopsim
