#include "hopsim/assemblies/param_schema.h"

#include <typeinfo>

#include "hopsim/assemblies/param_set.h"
#include "hopsim/assemblies/units.h"
#include "hopsim/signals/error.h"
#include "param_internal.h"

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>

#include <cstdlib>
#endif

namespace hopsim {
namespace {

/// The unqualified class name of a schema ("BodyParams"), or "" for a plain ParamSchema built at
/// run time, which has no name of its own.
std::string schemaClassName(const ParamSchema& schema) {
  std::string name = typeid(schema).name();
#if __has_include(<cxxabi.h>)
  int status = 0;
  char* demangled = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status == 0 && demangled != nullptr) name = demangled;
  std::free(demangled);  // NOLINT: the demangler's buffer comes from malloc
#endif
  if (const auto colons = name.rfind("::"); colons != std::string::npos) {
    name.erase(0, colons + 2);
  }
  return name == "ParamSchema" ? std::string{} : name;
}

bool isNumeric(ParamType type) {
  return type == ParamType::Int || type == ParamType::Double || type == ParamType::IntegerVector ||
         type == ParamType::DoubleVector;
}

bool hasLength(ParamType type) {
  return type == ParamType::DoubleVector || type == ParamType::IntegerVector ||
         type == ParamType::StringVector || type == ParamType::StringMap ||
         type == ParamType::RecordMap;
}

/// "[3]", "[2..4]", "[2..]", "[..4]", or "" when the length is free.
std::string lengthSuffix(const ParamField& field) {
  if (!field.minLength && !field.maxLength) return "";
  const std::string low = field.minLength ? std::to_string(*field.minLength) : "";
  const std::string high = field.maxLength ? std::to_string(*field.maxLength) : "";
  if (low == high) return "[" + low + "]";
  return "[" + low + ".." + high + "]";
}

[[noreturn]] void declarationError(const ParamField& field, const std::string& what) {
  throw ModelError("parameter field '" + field.name + "': " + what);
}

void checkBoundsDeclaration(const ParamField& field) {
  if (!field.lower && !field.upper) return;
  if (!isNumeric(field.type)) {
    declarationError(field, std::string("bounds on a ") + toString(field.type) +
                                " field (bounds apply to numeric fields only)");
  }
  if (!field.lower || !field.upper) return;
  const bool empty =
      *field.lower > *field.upper ||
      (*field.lower == *field.upper && (field.lowerExclusive || field.upperExclusive));
  if (empty) declarationError(field, "bounds " + field.boundsText() + " contain no value");
}

void checkLengthDeclaration(const ParamField& field) {
  if (!field.minLength && !field.maxLength) return;
  if (!hasLength(field.type)) {
    declarationError(field, std::string("a length on a ") + toString(field.type) +
                                " field (lengths apply to vectors and maps only)");
  }
  if (field.minLength && field.maxLength && *field.minLength > *field.maxLength) {
    declarationError(field, "length range " + lengthSuffix(field) + " is reversed");
  }
}

void checkChoicesDeclaration(const ParamField& field) {
  if (field.choices.empty()) return;
  if (field.type != ParamType::String && field.type != ParamType::StringVector) {
    declarationError(field, std::string("choices on a ") + toString(field.type) +
                                " field (choices apply to string fields only)");
  }
}

void checkUnitDeclaration(const ParamField& field) {
  if (field.unit.empty()) return;
  if (!isNumeric(field.type)) {
    declarationError(field, std::string("unit '") + field.unit + "' on a " + toString(field.type) +
                                " field (units apply to numeric fields)");
  }
  Unit unit;
  try {
    unit = parseUnit(field.unit);
  } catch (const InputError& error) {
    declarationError(field, std::string("bad unit: ") + error.what());
  }
  // Values without a unit are read as SI, so the declared unit must be SI itself.
  if (unit.scale != 1.0) {
    declarationError(field, "unit '" + field.unit + "' is not an SI unit");
  }
}

/// The default is parsed exactly as an input value would be, so it cannot break a rule an
/// input is held to.
void checkDefaultDeclaration(const ParamField& field) {
  if (!field.defaultValue) return;
  try {
    // No path or location: the message already names the field and says it is the default.
    (void)detail::parseFieldValue(field, *field.defaultValue, "", SourceLocation{});
  } catch (const InputError& error) {
    declarationError(field, std::string("invalid default: ") + error.what());
  }
}

}  // namespace

const char* toString(ParamType type) {
  switch (type) {
    case ParamType::Bool:
      return "bool";
    case ParamType::Int:
      return "int";
    case ParamType::Double:
      return "double";
    case ParamType::String:
      return "string";
    case ParamType::DoubleVector:
      return "double[]";
    case ParamType::IntegerVector:
      return "int[]";
    case ParamType::StringVector:
      return "string[]";
    case ParamType::StringMap:
      return "map<string>";
    case ParamType::Record:
      return "record";
    case ParamType::RecordMap:
      return "map<record>";
  }
  return "unknown";
}

const ParamSet* RecordList::find(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return &sets[i];
  }
  return nullptr;
}

std::string ParamField::typeName() const {
  const std::string record = recordSchema ? recordSchema->name() : std::string{};
  // A vector of free length still shows its brackets: "double[]".
  const std::string length = lengthSuffix(*this).empty() ? "[]" : lengthSuffix(*this);
  switch (type) {
    case ParamType::DoubleVector:
      return "double" + length;
    case ParamType::IntegerVector:
      return "int" + length;
    case ParamType::StringVector:
      return "string" + length;
    case ParamType::StringMap:
      return "map<string>" + lengthSuffix(*this);
    case ParamType::Record:
      return record.empty() ? "record" : record;
    case ParamType::RecordMap:
      return "map<" + (record.empty() ? std::string("record") : record) + ">" + lengthSuffix(*this);
    default:
      return toString(type);
  }
}

std::string ParamField::boundsText() const {
  if (!lower && !upper) return "";
  const std::string low = lower ? detail::formatNumber(*lower) : "-inf";
  const std::string high = upper ? detail::formatNumber(*upper) : "inf";
  // A missing bound is written as an open interval end, as in (0, inf).
  const char open = (lower && !lowerExclusive) ? '[' : '(';
  const char close = (upper && !upperExclusive) ? ']' : ')';
  return open + low + ", " + high + close;
}

std::string ParamSchema::name() const { return name_.empty() ? schemaClassName(*this) : name_; }

std::optional<std::size_t> ParamSchema::find(std::string_view name) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return i;
  }
  return std::nullopt;
}

std::size_t ParamSchema::addField(ParamField field) {
  // Replacing in place keeps the index, so the base schema's SchemaKey still finds the field.
  if (const auto existing = find(field.name)) {
    fields_[*existing] = std::move(field);
    return *existing;
  }
  fields_.push_back(std::move(field));
  return fields_.size() - 1;
}

void ParamSchema::checkDeclaration(std::size_t index) const {
  const ParamField& field = fields_[index];
  checkBoundsDeclaration(field);
  checkLengthDeclaration(field);
  checkChoicesDeclaration(field);
  checkUnitDeclaration(field);
  checkDefaultDeclaration(field);
}

}  // namespace hopsim
