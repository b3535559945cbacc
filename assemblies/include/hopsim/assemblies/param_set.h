#pragma once
/// @file
/// ParamSet: the values of one ParamSchema, validated on construction and on every set, with
/// the source of every value.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hopsim/assemblies/param_schema.h"
#include "hopsim/signals/value.h"

namespace hopsim {

/// Values of a schema's fields, in SI units.
///
/// Validation runs in the seed's order: the schema's preCheck on the raw input, the type of
/// each field (with coercion: numeric text to numbers, "true"/"false" to bools, "12 km" to
/// 12000 for a length, a unit on the last element of a vector applying to all of it), the
/// field's checks (length, bounds, finiteness, choices, custom checks in declaration order),
/// then the schema's cross-field validate(). Every error is an InputError naming the source
/// location (file:line:col when known), the full path of the field
/// (`assemblies.lander.engine.params.isp`), the value and the check that failed; an unknown
/// field is an error with the nearest declared names.
class ParamSet {
 public:
  /// An empty set of `schema`: every field absent (not yet validated; see parse()).
  explicit ParamSet(std::shared_ptr<const ParamSchema> schema, std::string path = {});

  /// Parses and validates a mapping (a null node counts as empty): given fields are coerced
  /// and checked, absent ones take their defaults, a missing required field is an error.
  /// @param path the set's full path, used in messages (`assemblies.SC1.params`).
  static ParamSet parse(std::shared_ptr<const ParamSchema> schema, const InputNode& input,
                        std::string path);

  const ParamSchema& schema() const { return *schema_; }
  const std::shared_ptr<const ParamSchema>& schemaPointer() const { return schema_; }
  /// The full path of the set; nested sets extend it (`...params.Bodies.Base`).
  const std::string& path() const { return path_; }
  /// Renames the set and every nested set (an assembly moving under a new name).
  void setPath(std::string path);

  bool has(std::size_t field) const { return values_[field].has_value(); }
  template <class T>
  bool has(SchemaKey<T> key) const {
    return has(key.index);
  }
  /// The value of field `key`. @throws InputError naming the path when an optional field is
  /// absent.
  template <class T>
  const typename ParamTraits<T>::Stored& operator[](SchemaKey<T> key) const {
    return std::get<typename ParamTraits<T>::Stored>(value(key.index));
  }
  /// The nested set of a Record field.
  template <class S>
  const ParamSet& operator[](SchemaKey<Record<S>> key) const {
    return std::get<RecordList>(value(key.index)).sets.front();
  }
  /// The stored value of a field by index. @throws InputError when absent.
  const ParamValue& value(std::size_t field) const;

  /// Sets one field through the whole validation pipeline; if any step fails the set is
  /// unchanged. `where` records the value's source (a file position, "--set", "C++").
  void set(std::string_view field, const InputNode& value, SourceLocation where = {});
  template <class T>
  void set(SchemaKey<T> key, const InputNode& value, SourceLocation where = {}) {
    set(schema_->fields()[key.index].name, value, std::move(where));
  }
  /// Sets a field of this set or of a nested one by relative dotted path ("Bodies.Base.mass").
  /// @throws InputError naming the full path and the nearest names when it does not exist.
  void setByPath(std::string_view relativePath, const InputNode& value, SourceLocation where = {});
  /// Removes an optional field's value (required fields cannot be unset).
  void unset(std::string_view field);

  /// Where the value of `field` came from: its file position, "default", "--set", "C++".
  const SourceLocation& source(std::size_t field) const { return sources_[field]; }

  /// Scalar and numeric-vector leaves, with nested sets flattened: relative dotted paths
  /// ("mass", "Bodies.Base.cm"), in declaration order. These are what the variable tree shows.
  std::vector<std::string> leafPaths() const;
  /// A leaf's value as the variable tree passes it. @throws InputError for a bad path.
  Value leaf(std::string_view relativePath) const;
  /// The set rendered back as input (SI values, absent optional fields left out): dumps and
  /// round trips.
  InputNode toInput() const;

  /// Throws the InputError of a cross-field check: "<path>.<field>: <what>", with the source
  /// location of the field's value. For ParamSchema::validate.
  [[noreturn]] void fail(std::string_view field, std::string_view what) const;

 private:
  void parseField(std::size_t field, const InputNode& value, const SourceLocation& where);
  std::shared_ptr<const ParamSchema> schema_;
  std::string path_;
  std::vector<std::optional<ParamValue>> values_;
  std::vector<SourceLocation> sources_;
};

}  // namespace hopsim
