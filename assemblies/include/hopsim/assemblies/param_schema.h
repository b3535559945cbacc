#pragma once
/// @file
/// ParamSchema: the typed declaration of a group of parameters (an assembly's config, context
/// or params, a body's properties), as the seed's InputDict classes are.
///
/// A schema is a struct derived from ParamSchema whose members are the field keys:
/// @code
/// struct BodyParams : ParamSchema {
///   SchemaKey<double> mass = field<double>("mass").unit("kg").above(0).describe("body mass");
///   SchemaKey<std::vector<double>> cm =
///       field<std::vector<double>>("cm").unit("m").length(3).defaultValue({0.0, 0.0, 0.0});
/// };
/// @endcode
/// A field without a default is required unless declared optional(). Schemas derive from one
/// another to add fields (`struct Config : VehicleAssembly::Config {...}`); a field declared
/// again under an existing name replaces the inherited declaration.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "hopsim/assemblies/input_node.h"

namespace hopsim {

class ParamSet;
class ParamSchema;

/// The value types a parameter field can have.
enum class ParamType : std::uint8_t {
  Bool,
  Int,
  Double,
  String,
  DoubleVector,
  IntegerVector,
  StringVector,
  StringMap,  ///< ordered name -> string (a body graph {child: parent})
  Record,     ///< one nested ParamSet of a given schema
  RecordMap,  ///< ordered name -> nested ParamSet of a given schema (Bodies: {name: {...}})
};
/// "bool", "int", "double", "string", "double[]", "int[]", "string[]", "map<string>",
/// "record", "map<record>".
const char* toString(ParamType type);

/// Ordered name -> string pairs.
using StringMap = std::vector<std::pair<std::string, std::string>>;
/// Ordered name -> nested parameter set pairs (a RecordMap field; a Record field holds one entry
/// named after the field).
struct RecordList {
  std::vector<std::string> names;
  std::vector<ParamSet> sets;
  std::size_t size() const { return names.size(); }
  /// The set named `name`, or nullptr.
  const ParamSet* find(std::string_view name) const;
};

/// A stored parameter value, in SI units.
using ParamValue =
    std::variant<bool, std::int64_t, double, std::string, std::vector<double>,
                 std::vector<std::int64_t>, std::vector<std::string>, StringMap, RecordList>;

/// Tags for nested fields: `SchemaKey<Record<BodyParams>>`, `SchemaKey<RecordMap<BodyParams>>`.
template <class Schema>
struct Record {};
template <class Schema>
struct RecordMap {};

/// The one shared instance of a schema type.
template <class Schema>
std::shared_ptr<const Schema> schemaOf() {
  static const std::shared_ptr<const Schema> instance = std::make_shared<const Schema>();
  return instance;
}

/// Maps the C++ type a field is declared with to its ParamType, its stored type, and for nested
/// fields the schema of the records.
template <class T>
struct ParamTraits;
template <>
struct ParamTraits<bool> {
  static constexpr ParamType kType = ParamType::Bool;
  using Stored = bool;
};
template <>
struct ParamTraits<std::int64_t> {
  static constexpr ParamType kType = ParamType::Int;
  using Stored = std::int64_t;
};
template <>
struct ParamTraits<double> {
  static constexpr ParamType kType = ParamType::Double;
  using Stored = double;
};
template <>
struct ParamTraits<std::string> {
  static constexpr ParamType kType = ParamType::String;
  using Stored = std::string;
};
template <>
struct ParamTraits<std::vector<double>> {
  static constexpr ParamType kType = ParamType::DoubleVector;
  using Stored = std::vector<double>;
};
template <>
struct ParamTraits<std::vector<std::int64_t>> {
  static constexpr ParamType kType = ParamType::IntegerVector;
  using Stored = std::vector<std::int64_t>;
};
template <>
struct ParamTraits<std::vector<std::string>> {
  static constexpr ParamType kType = ParamType::StringVector;
  using Stored = std::vector<std::string>;
};
template <>
struct ParamTraits<StringMap> {
  static constexpr ParamType kType = ParamType::StringMap;
  using Stored = StringMap;
};
template <class S>
struct ParamTraits<Record<S>> {
  static constexpr ParamType kType = ParamType::Record;
  using Stored = RecordList;
  static std::shared_ptr<const ParamSchema> schema() { return schemaOf<S>(); }
};
template <class S>
struct ParamTraits<RecordMap<S>> {
  static constexpr ParamType kType = ParamType::RecordMap;
  using Stored = RecordList;
  static std::shared_ptr<const ParamSchema> schema() { return schemaOf<S>(); }
};

/// A field check beyond type, length, bounds and choices: returns "" when the value passes,
/// else what is wrong ("is not a unit quaternion (norm 1.2)").
struct ParamCheck {
  std::string name;  ///< shown in messages: "failed check UnitNorm"
  std::function<std::string(const ParamValue&)> check;
};

/// Everything declared about one field.
struct ParamField {
  std::string name;
  ParamType type = ParamType::Double;
  std::string unit;  ///< SI unit of numeric fields ("m", "kg*m^2", "rad/s"); "" dimensionless
  std::string description;
  bool required = true;                   ///< false once a default is given or optional() called
  std::optional<InputNode> defaultValue;  ///< parsed like any input when a set is made
  std::optional<double> lower, upper;     ///< bounds on every element of numeric fields
  bool lowerExclusive = false, upperExclusive = false;
  std::optional<std::size_t> minLength, maxLength;  ///< vector and map sizes
  std::vector<std::string> choices;  ///< allowed values of String/StringVector fields
  bool allowNonFinite = false;       ///< NaN and ±inf are rejected unless allowed
  std::vector<ParamCheck> checks;    ///< run in order after the built-in checks
  std::shared_ptr<const ParamSchema> recordSchema;  ///< Record and RecordMap fields

  /// "double", "double[3]", "double[2..4]", "map<BodyParams>" for messages and docs.
  std::string typeName() const;
  /// "[0, 1]", "(0, inf)", or "" when unbounded.
  std::string boundsText() const;
};

/// A typed handle on a declared field: how C++ code reads a ParamSet.
template <class T>
struct SchemaKey {
  std::size_t index;
};

/// Fluent declaration of one field; converts to the field's key.
template <class T>
class ParamDeclarator {
 public:
  ParamDeclarator(ParamSchema& schema, std::size_t index) : schema_(&schema), index_(index) {}

  /// The SI unit numeric values are stored in; values given in other units convert to it.
  ParamDeclarator& unit(std::string siUnit);
  ParamDeclarator& describe(std::string description);
  /// The value used when the field is not given (parsed and checked like an input value).
  ParamDeclarator& defaultValue(InputNode value);
  /// Not required and without default: absent unless given (ParamSet::has tells).
  ParamDeclarator& optional();
  /// Inclusive bounds on every element.
  ParamDeclarator& bounds(double lower, double upper);
  ParamDeclarator& min(double lower);
  ParamDeclarator& max(double upper);
  /// Exclusive bounds: every element must be greater than `lower` / less than `upper`.
  ParamDeclarator& above(double lower);
  ParamDeclarator& below(double upper);
  /// An exact length (vectors) or size (maps).
  ParamDeclarator& length(std::size_t count);
  /// A length range, inclusive.
  ParamDeclarator& lengthRange(std::size_t minCount, std::size_t maxCount);
  /// The allowed values of a string field (or of every element of a string vector).
  ParamDeclarator& choices(std::vector<std::string> allowed);
  /// Accepts NaN and ±inf.
  ParamDeclarator& allowNonFinite();
  /// Adds a named check run after the built-in ones.
  ParamDeclarator& check(std::string name, std::function<std::string(const ParamValue&)> check);
  ParamDeclarator& check(ParamCheck check) {
    return this->check(std::move(check.name), std::move(check.check));
  }

  operator SchemaKey<T>() const { return {index_}; }  // NOLINT: the point of the builder

 private:
  ParamField& field();
  ParamSchema* schema_;
  std::size_t index_;
};

/// A schema: the declared fields of one parameter group and its cross-field rules.
class ParamSchema {
 public:
  ParamSchema() = default;
  virtual ~ParamSchema() = default;
  ParamSchema(const ParamSchema&) = delete;
  ParamSchema& operator=(const ParamSchema&) = delete;

  const std::vector<ParamField>& fields() const { return fields_; }
  std::optional<std::size_t> find(std::string_view name) const;
  /// One paragraph for generated documentation.
  const std::string& doc() const { return doc_; }

  /// Step 1 of validation: may rewrite the raw input before any type check (fill a derived
  /// default, accept a legacy spelling). The default does nothing.
  virtual void preCheck(InputNode& input) const { (void)input; }
  /// Step 4 of validation: rules across fields, after every field passed its own checks.
  /// Report a failure with `set.fail(field, what)`. The default accepts everything.
  virtual void validate(const ParamSet& set) const { (void)set; }

  /// Declares (or, for an inherited name, redeclares) a field; public so that schemas can be
  /// built at run time (from a model's declaration, from Python).
  std::size_t addField(ParamField field);
  ParamField& mutableField(std::size_t index) { return fields_[index]; }
  void setDoc(std::string doc) { doc_ = std::move(doc); }
  /// The name messages and docs give the schema ("BodyParams" in `map<BodyParams>`): the C++
  /// class name, or the name set here for a schema built at run time (a Python class).
  std::string name() const;
  void setName(std::string name) { name_ = std::move(name); }
  /// Checks the declaration of field `index` (bounds order, a unit that is SI, choices and
  /// lengths on types that have them, a default that passes the field's own checks), as the
  /// declarators do; for schemas built at run time with addField.
  /// @throws ModelError naming the field.
  void checkDeclaration(std::size_t index) const;

 protected:
  template <class T>
  ParamDeclarator<T> field(std::string name) {
    ParamField f;
    f.name = std::move(name);
    f.type = ParamTraits<T>::kType;
    if constexpr (ParamTraits<T>::kType == ParamType::Record ||
                  ParamTraits<T>::kType == ParamType::RecordMap) {
      f.recordSchema = ParamTraits<T>::schema();
    }
    return {*this, addField(std::move(f))};
  }

 private:
  std::vector<ParamField> fields_;
  std::string doc_;
  std::string name_;
};

// ---- ParamDeclarator implementation -------------------------------------------------------

template <class T>
ParamField& ParamDeclarator<T>::field() {
  return schema_->mutableField(index_);
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::unit(std::string siUnit) {
  field().unit = std::move(siUnit);
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::describe(std::string description) {
  field().description = std::move(description);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::defaultValue(InputNode value) {
  field().defaultValue = std::move(value);
  field().required = false;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::optional() {
  field().required = false;
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::bounds(double lower, double upper) {
  field().lower = lower;
  field().upper = upper;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::min(double lower) {
  field().lower = lower;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::max(double upper) {
  field().upper = upper;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::above(double lower) {
  field().lower = lower;
  field().lowerExclusive = true;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::below(double upper) {
  field().upper = upper;
  field().upperExclusive = true;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::length(std::size_t count) {
  return lengthRange(count, count);
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::lengthRange(std::size_t minCount, std::size_t maxCount) {
  field().minLength = minCount;
  field().maxLength = maxCount;
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::choices(std::vector<std::string> allowed) {
  field().choices = std::move(allowed);
  schema_->checkDeclaration(index_);
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::allowNonFinite() {
  field().allowNonFinite = true;
  return *this;
}
template <class T>
ParamDeclarator<T>& ParamDeclarator<T>::check(std::string name,
                                              std::function<std::string(const ParamValue&)> c) {
  field().checks.push_back({std::move(name), std::move(c)});
  schema_->checkDeclaration(index_);
  return *this;
}

}  // namespace hopsim
