#include "hopsim/signals/variable_tree.h"

#include <set>
#include <utility>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {
namespace {

bool segmentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// True when `path` is `prefix` itself or lies under it ("a.b" is under "a", "ab" is not).
bool under(std::string_view path, std::string_view prefix) {
  if (prefix.empty()) return true;
  if (path.size() < prefix.size() || path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '.';
}

}  // namespace

double Variable::element(std::size_t i) const {
  if (type() == ElementType::String || i >= length()) {
    throw InputError("element " + std::to_string(i) + " of a " + std::string(toString(type())) +
                     "[" + std::to_string(length()) +
                     "] variable does not exist or is not numeric");
  }
  const Value value = get();
  if (const auto* v = std::get_if<std::vector<double>>(&value)) return (*v)[i];
  if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value)) {
    return static_cast<double>((*v)[i]);
  }
  if (const auto* v = std::get_if<double>(&value)) return *v;
  if (const auto* v = std::get_if<std::int64_t>(&value)) return static_cast<double>(*v);
  return std::get<bool>(value) ? 1.0 : 0.0;
}

double SignalVariable::element(std::size_t i) const {
  if (type() == ElementType::String || i >= length()) return Variable::element(i);
  return signal_->buffer().element(i);
}

void SignalVariable::set(const Value& value, std::string_view path) {
  signal_->set(0, signal_->length(), value, path);
}

void VariableTree::checkPath(std::string_view path, std::string_view what) {
  bool fresh = true;  // at the start of a segment
  for (char c : path) {
    if (c == '.') {
      if (fresh) break;
      fresh = true;
    } else if (segmentChar(c)) {
      fresh = false;
    } else {
      throw InputError(std::string(what) + " '" + std::string(path) + "': character '" +
                       std::string(1, c) +
                       "' is not allowed (expected dot-separated names of letters, digits, _)");
    }
  }
  if (fresh) {
    throw InputError(std::string(what) + " '" + std::string(path) +
                     "': empty name segment (expected dot-separated non-empty names)");
  }
}

void VariableTree::add(const std::string& path, std::unique_ptr<Variable> variable) {
  checkPath(path, "variable path");
  if (leaves_.count(path) != 0) throw InputError("variable '" + path + "' already exists");
  if (isBranch(path)) {
    throw InputError("variable '" + path + "' cannot be added: it is already a branch holding " +
                     list(path).front() + (list(path).size() > 1 ? " and more" : ""));
  }
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
    const std::string_view prefix(path.data(), dot);
    if (leaves_.find(prefix) != leaves_.end()) {
      throw InputError("variable '" + path + "' cannot be added: '" + std::string(prefix) +
                       "' is a variable, not a branch");
    }
  }
  leaves_.emplace(path, std::move(variable));
  ++revision_;
}

void VariableTree::remove(std::string_view path) {
  auto it = leaves_.lower_bound(path);
  while (it != leaves_.end() && it->first.compare(0, path.size(), path) == 0) {
    if (under(it->first, path)) {
      it = leaves_.erase(it);
      ++revision_;
    } else {
      ++it;
    }
  }
}

bool VariableTree::contains(std::string_view path) const { return leaves_.count(path) != 0; }

bool VariableTree::isBranch(std::string_view path) const {
  if (path.empty()) return !leaves_.empty();
  for (auto it = leaves_.lower_bound(path);
       it != leaves_.end() && it->first.compare(0, path.size(), path) == 0; ++it) {
    if (it->first.size() > path.size() && it->first[path.size()] == '.') return true;
  }
  return false;
}

Variable& VariableTree::at(std::string_view path) {
  return const_cast<Variable&>(std::as_const(*this).at(path));
}

const Variable& VariableTree::at(std::string_view path) const {
  auto it = leaves_.find(path);
  if (it == leaves_.end()) throwUnknown(path);
  return *it->second;
}

void VariableTree::set(std::string_view path, const Value& value) {
  at(path).set(value, path);  // a read-only variable refuses, saying why
}

std::vector<std::string> VariableTree::list(std::string_view prefix) const {
  std::vector<std::string> out;
  for (auto it = leaves_.lower_bound(prefix);
       it != leaves_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (under(it->first, prefix)) out.push_back(it->first);
  }
  if (out.empty() && !prefix.empty()) throwUnknown(prefix);
  return out;
}

void VariableTree::throwUnknown(std::string_view path) const {
  if (isBranch(path)) {
    const std::vector<std::string> leaves = list(path);
    throw InputError("'" + std::string(path) + "' is a branch, not a variable; it holds " +
                     std::to_string(leaves.size()) + " variable(s), e.g. '" + leaves.front() + "'");
  }
  // Candidates: every leaf and every branch, so a typo anywhere in the path finds its match.
  std::set<std::string> names;
  for (const auto& [leaf, variable] : leaves_) {
    for (std::size_t dot = leaf.find('.'); dot != std::string::npos;
         dot = leaf.find('.', dot + 1)) {
      names.insert(leaf.substr(0, dot));
    }
    names.insert(leaf);
  }
  throw NotFoundError("no variable '" + std::string(path) + "'" +
                      didYouMean(path, std::vector<std::string>(names.begin(), names.end())));
}

}  // namespace hopsim
