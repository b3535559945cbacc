#include "hopsim/assemblies/param_set.h"

#include <algorithm>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "param_internal.h"

namespace hopsim {
namespace {

using detail::isNumericType;
using detail::joinPath;
using detail::locationOf;
using detail::raise;
using detail::toNode;

// ---- conversions for readers ----------------------------------------------------------------

bool isLeafType(ParamType type) {
  return isNumericType(type) || type == ParamType::Bool || type == ParamType::String;
}

Value toLeafValue(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> Value {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_constructible_v<Value, T>) {
          return v;
        } else {
          throw ModelError("a parameter that is not a leaf was read as one");
        }
      },
      value);
}

/// "Bodies.Base.mass" -> {"Bodies", "Base.mass"}.
std::pair<std::string_view, std::string_view> splitHead(std::string_view path) {
  const auto dot = path.find('.');
  if (dot == std::string_view::npos) return {path, {}};
  return {path.substr(0, dot), path.substr(dot + 1)};
}

/// The source recorded for a set value: the one given, else the value's own position, else
/// the C++ call itself.
SourceLocation sourceOfSet(const InputNode& value, SourceLocation where) {
  if (where.known()) return where;
  return value.location().known() ? value.location() : SourceLocation{"C++"};
}

std::vector<std::string> fieldNames(const ParamSchema& schema) {
  std::vector<std::string> names;
  for (const auto& field : schema.fields()) names.push_back(field.name);
  return names;
}

}  // namespace

// ---- ParamSet -------------------------------------------------------------------------------

ParamSet::ParamSet(std::shared_ptr<const ParamSchema> schema, std::string path)
    : schema_(std::move(schema)), path_(std::move(path)) {
  if (!schema_) throw ModelError("ParamSet '" + path_ + "' made without a schema");
  values_.resize(schema_->fields().size());
  sources_.resize(schema_->fields().size());
}

ParamSet ParamSet::parse(std::shared_ptr<const ParamSchema> schema, const InputNode& input,
                         std::string path) {
  if (!input.isMapping() && !input.isNull()) {
    raise(input.location(), path,
          std::string("expected a mapping of fields, got a ") + input.kindName());
  }
  ParamSet set(std::move(schema), std::move(path));
  InputNode raw = input;
  set.schema_->preCheck(raw);
  // Unknown keys first: a misspelt name is the likely cause of a "missing field" that follows.
  const auto names = fieldNames(*set.schema_);
  for (const auto& [key, value] : raw.entries()) {
    if (!set.schema_->find(key)) {
      raise(locationOf(value, raw.location()), set.path_,
            "unknown field '" + key + "'" + didYouMean(key, names));
    }
  }
  for (std::size_t i = 0; i < set.schema_->fields().size(); ++i) {
    const ParamField& field = set.schema_->fields()[i];
    // An explicit null (a YAML key with nothing after it) means "not given".
    const InputNode* given = raw.find(field.name);
    if (given != nullptr && !given->isNull()) {
      set.parseField(i, *given, locationOf(*given, raw.location()));
    } else if (field.defaultValue) {
      set.parseField(i, *field.defaultValue, SourceLocation{"default"});
    } else if (field.required) {
      raise(given ? locationOf(*given, raw.location()) : raw.location(),
            joinPath(set.path_, field.name), "missing required field");
    }
  }
  set.schema_->validate(set);
  return set;
}

void ParamSet::parseField(std::size_t field, const InputNode& value, const SourceLocation& where) {
  const ParamField& declared = schema_->fields()[field];
  values_[field] = detail::parseFieldValue(declared, value, joinPath(path_, declared.name), where);
  sources_[field] = where;
}

void ParamSet::setPath(std::string path) {
  path_ = std::move(path);
  for (std::size_t i = 0; i < values_.size(); ++i) {
    auto* records = values_[i] ? std::get_if<RecordList>(&*values_[i]) : nullptr;
    if (records == nullptr) continue;
    const std::string fieldPath = joinPath(path_, schema_->fields()[i].name);
    const bool single = schema_->fields()[i].type == ParamType::Record;
    for (std::size_t k = 0; k < records->size(); ++k) {
      records->sets[k].setPath(single ? fieldPath : joinPath(fieldPath, records->names[k]));
    }
  }
}

const ParamValue& ParamSet::value(std::size_t field) const {
  if (!values_[field]) {
    raise({}, joinPath(path_, schema_->fields()[field].name), "optional field is not set");
  }
  return *values_[field];
}

void ParamSet::set(std::string_view field, const InputNode& value, SourceLocation where) {
  where = sourceOfSet(value, std::move(where));
  const auto index = schema_->find(field);
  if (!index) {
    raise(where, path_,
          "unknown field '" + std::string(field) + "'" + didYouMean(field, fieldNames(*schema_)));
  }
  // Changes are made on a copy and committed only once every check passed.
  ParamSet candidate = *this;
  candidate.parseField(*index, value, where);
  schema_->validate(candidate);
  *this = std::move(candidate);
}

void ParamSet::setByPath(std::string_view relativePath, const InputNode& value,
                         SourceLocation where) {
  where = sourceOfSet(value, std::move(where));
  const auto [head, rest] = splitHead(relativePath);
  if (rest.empty()) {
    set(head, value, std::move(where));
    return;
  }
  const auto index = schema_->find(head);
  if (!index) {
    raise(where, path_,
          "unknown field '" + std::string(head) + "'" + didYouMean(head, fieldNames(*schema_)));
  }
  const ParamField& field = schema_->fields()[*index];
  const std::string fieldPath = joinPath(path_, field.name);
  if (field.type != ParamType::Record && field.type != ParamType::RecordMap) {
    raise(where, fieldPath,
          "is a " + field.typeName() + ", it has no field '" + std::string(rest) + "'");
  }
  // The nested change and every enclosing validate() succeed together or not at all.
  ParamSet candidate = *this;
  if (!candidate.values_[*index]) raise(where, fieldPath, "optional field is not set");
  auto& records = std::get<RecordList>(*candidate.values_[*index]);
  ParamSet* nested = &records.sets.front();
  std::string_view nestedPath = rest;
  if (field.type == ParamType::RecordMap) {
    const auto [key, inner] = splitHead(rest);
    const auto entry = std::find(records.names.begin(), records.names.end(), key);
    if (entry == records.names.end()) {
      raise(where, fieldPath,
            "no entry '" + std::string(key) + "'" + didYouMean(key, records.names));
    }
    if (inner.empty()) {
      raise(where, joinPath(fieldPath, key),
            "a whole entry cannot be set by path; set the map field '" + field.name + "'");
    }
    nested = &records.sets[static_cast<std::size_t>(entry - records.names.begin())];
    nestedPath = inner;
  }
  nested->setByPath(nestedPath, value, std::move(where));
  schema_->validate(candidate);
  *this = std::move(candidate);
}

void ParamSet::unset(std::string_view field) {
  const auto index = schema_->find(field);
  if (!index) {
    raise({}, path_,
          "unknown field '" + std::string(field) + "'" + didYouMean(field, fieldNames(*schema_)));
  }
  const ParamField& declared = schema_->fields()[*index];
  if (declared.required || declared.defaultValue) {
    raise({}, joinPath(path_, declared.name),
          declared.required ? "a required field cannot be unset"
                            : "a field with a default cannot be unset (set it to the default)");
  }
  // Cross-field rules may need the field (position and attitude given together).
  ParamSet candidate = *this;
  candidate.values_[*index].reset();
  candidate.sources_[*index] = {};
  schema_->validate(candidate);
  *this = std::move(candidate);
}

std::vector<std::string> ParamSet::leafPaths() const {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (!values_[i]) continue;
    const ParamField& field = schema_->fields()[i];
    if (isLeafType(field.type)) {
      paths.push_back(field.name);
      continue;
    }
    const auto* records = std::get_if<RecordList>(&*values_[i]);
    if (records == nullptr) continue;  // string vectors and maps are not tree leaves
    for (std::size_t k = 0; k < records->size(); ++k) {
      const std::string prefix =
          field.type == ParamType::Record ? field.name : joinPath(field.name, records->names[k]);
      for (const auto& leaf : records->sets[k].leafPaths()) paths.push_back(prefix + "." + leaf);
    }
  }
  return paths;
}

Value ParamSet::leaf(std::string_view relativePath) const {
  const auto [head, rest] = splitHead(relativePath);
  const auto index = schema_->find(head);
  if (!index) {
    raise({}, path_,
          "no parameter '" + std::string(relativePath) + "'" +
              didYouMean(head, fieldNames(*schema_)));
  }
  const ParamField& field = schema_->fields()[*index];
  const std::string fieldPath = joinPath(path_, field.name);
  const ParamValue& stored = value(*index);
  if (rest.empty()) {
    if (!isLeafType(field.type)) raise({}, fieldPath, "is a " + field.typeName() + ", not a leaf");
    return toLeafValue(stored);
  }
  const auto* records = std::get_if<RecordList>(&stored);
  if (records == nullptr) {
    raise({}, fieldPath,
          "is a " + field.typeName() + ", it has no field '" + std::string(rest) + "'");
  }
  if (field.type == ParamType::Record) return records->sets.front().leaf(rest);
  const auto [key, inner] = splitHead(rest);
  const ParamSet* nested = records->find(key);
  if (nested == nullptr) {
    raise({}, fieldPath, "no entry '" + std::string(key) + "'" + didYouMean(key, records->names));
  }
  if (inner.empty()) raise({}, joinPath(fieldPath, key), "is a record, not a leaf");
  return nested->leaf(inner);
}

InputNode ParamSet::toInput() const {
  std::vector<InputNode::Entry> entries;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (!values_[i]) continue;
    const ParamField& field = schema_->fields()[i];
    entries.emplace_back(field.name, toNode(field, *values_[i]));
  }
  return InputNode::mapping(std::move(entries));
}

void ParamSet::fail(std::string_view field, std::string_view what) const {
  const auto index = schema_->find(field);
  raise(index ? sources_[*index] : SourceLocation{}, joinPath(path_, field), what);
}

}  // namespace hopsim
