#pragma once
// The variable-tree leaf of one declared model field (private to the core library).

#include "hopsim/core/model.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim {

/// A param, state or scratch field (read-write, validated by the model) or a port (read-only:
/// the value of the tied signal slice).
class ModelFieldVariable final : public Variable {
 public:
  ModelFieldVariable(Model& model, FieldRole role, std::size_t index)
      : model_(&model), role_(role), index_(index) {}

  ElementType type() const override { return field().type; }
  std::size_t length() const override;
  Value get() const override { return model_->get(role_, field().name); }
  double element(std::size_t i) const override;
  void set(const Value& value, std::string_view path) override;
  bool writable() const override { return !isPort(); }
  std::string unit() const override { return field().unit; }
  std::string description() const override { return field().description; }

 private:
  const FieldSpec& field() const { return model_->spec().fields(role_)[index_]; }
  bool isPort() const { return role_ == FieldRole::FlowIn || role_ == FieldRole::FlowOut; }

  Model* model_;
  FieldRole role_;
  std::size_t index_;
};

}  // namespace hopsim
