#include "param_variable.h"

#include <type_traits>

#include "hopsim/signals/error.h"

namespace hopsim {

ElementType ParamVariable::type() const {
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>)
          return ElementType::Bool;
        else if constexpr (std::is_same_v<T, std::string>)
          return ElementType::String;
        else if constexpr (std::is_same_v<T, std::int64_t> ||
                           std::is_same_v<T, std::vector<std::int64_t>>)
          return ElementType::Int;
        else
          return ElementType::Double;
      },
      set_->leaf(leaf_));
}

std::size_t ParamVariable::length() const {
  return std::visit(
      [](const auto& v) -> std::size_t {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>> ||
                      std::is_same_v<T, std::vector<std::int64_t>>)
          return v.size();
        else
          return 1;
      },
      set_->leaf(leaf_));
}

void ParamVariable::set(const Value& value, std::string_view path) {
  if (*bound_) {
    throw InputError(std::string(path) +
                     ": assembly inputs are read by bindParams, which has run; set the model "
                     "param or body property they were bound to, or set this before binding "
                     "(a scenario override)");
  }
  set_->setByPath(leaf_, inputFromValue(value), SourceLocation{"set", 0, 0});
}

const ParamField& ParamVariable::field() const {
  // The leaf's own set: walk the nested records the dotted path goes through.
  const ParamSet* set = set_;
  std::string_view rest = leaf_;
  for (;;) {
    const std::size_t dot = rest.find('.');
    const auto index = set->schema().find(rest.substr(0, dot));
    const ParamField& f = set->schema().fields()[*index];
    if (dot == std::string_view::npos) return f;
    const auto& records = std::get<RecordList>(set->value(*index));
    rest = rest.substr(dot + 1);
    if (f.type == ParamType::RecordMap) {
      const std::size_t next = rest.find('.');
      set = records.find(rest.substr(0, next));
      rest = rest.substr(next + 1);
    } else {
      set = &records.sets.front();
    }
  }
}

std::string ParamVariable::unit() const { return field().unit; }
std::string ParamVariable::description() const { return field().description; }

InputNode inputFromValue(const Value& value) {
  return std::visit(
      [](const auto& v) -> InputNode {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>> ||
                      std::is_same_v<T, std::vector<std::int64_t>>) {
          std::vector<InputNode> items;
          for (auto x : v) items.emplace_back(x);
          return InputNode::sequence(std::move(items));
        } else {
          return InputNode(v);
        }
      },
      value);
}

}  // namespace hopsim
