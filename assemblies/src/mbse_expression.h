#pragma once
/// @file
/// The expression language of MBSE mechanism files (private to the MBSE reader, see
/// docs/mbse-yaml.md): the ExprTk surface that libmbse offers, evaluated with muParser.
///
/// Identifiers are case-insensitive, as in ExprTk: a name is looked up among the variables
/// in byte order of their exact spelling and the first one equal ignoring case wins (ExprTk's
/// symbol table silently refuses a second name that differs only in case).
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hopsim::mbse::detail {

/// The variables an expression may use: libmbse's std::map<std::string, double>.
class Variables {
 public:
  void set(const std::string& name, double value) { values_[name] = value; }
  void erase(const std::string& name) { values_.erase(name); }
  /// The exact name the case-insensitive `name` resolves to (the first in byte order), or
  /// nullptr.
  const std::string* resolve(std::string_view name) const;
  const std::map<std::string, double>& values() const { return values_; }

 private:
  std::map<std::string, double> values_;
};

/// A failed evaluation: the message and the 0-based character position in the expression.
class ExpressionError : public std::runtime_error {
 public:
  ExpressionError(const std::string& message, std::size_t position, std::string unknownName = {})
      : std::runtime_error(message), position_(position), unknown_(std::move(unknownName)) {}
  std::size_t position() const { return position_; }
  /// The identifier that is not a variable, function or constant ("" for other errors).
  const std::string& unknownName() const { return unknown_; }

 private:
  std::size_t position_;
  std::string unknown_;
};

/// Evaluates `expression` over `variables`. `used` (if given) receives the exact names of the
/// variables the expression refers to.
/// @throws ExpressionError for a syntax error, an unknown identifier or a non-finite result.
double evaluate(std::string_view expression, const Variables& variables,
                std::vector<std::string>* used = nullptr);

/// True when `name` (any case) is a function, keyword or operator word of the language
/// (sin, if, and, true, ...): such names cannot be variables.
bool isReservedWord(std::string_view name);
/// True when `name` (any case) is one of the built-in constants (pi, epsilon, inf, M_PI).
bool isConstant(std::string_view name);
/// True when `name` is a valid identifier: a letter, then letters, digits and underscores.
bool isIdentifier(std::string_view name);
/// Lower-case ASCII copy.
std::string lower(std::string_view text);

}  // namespace hopsim::mbse::detail
