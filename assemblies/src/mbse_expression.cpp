// The MBSE expression language over muParser (see mbse_expression.h and docs/mbse-yaml.md).
#include "mbse_expression.h"

#include <muParser.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <deque>
#include <limits>
#include <numbers>
#include <set>

namespace hopsim::mbse::detail {
namespace {

double fnDeg2rad(double x) { return x * std::numbers::pi / 180.0; }
double fnRad2deg(double x) { return x * 180.0 / std::numbers::pi; }
double fnSgn(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
double fnFrac(double x) { return x - std::trunc(x); }
double fnNot(double x) { return x == 0.0 ? 1.0 : 0.0; }
double fnLog(double x) { return std::log(x); }
double fnLog10(double x) { return std::log10(x); }
double fnLog2(double x) { return std::log2(x); }
double fnLog1p(double x) { return std::log1p(x); }
double fnSin(double x) { return std::sin(x); }
double fnCos(double x) { return std::cos(x); }
double fnTan(double x) { return std::tan(x); }
double fnAsin(double x) { return std::asin(x); }
double fnAcos(double x) { return std::acos(x); }
double fnAtan(double x) { return std::atan(x); }
double fnSinh(double x) { return std::sinh(x); }
double fnCosh(double x) { return std::cosh(x); }
double fnTanh(double x) { return std::tanh(x); }
double fnSqrt(double x) { return std::sqrt(x); }
double fnExp(double x) { return std::exp(x); }
double fnAbs(double x) { return std::fabs(x); }
double fnFloor(double x) { return std::floor(x); }
double fnCeil(double x) { return std::ceil(x); }
double fnRound(double x) { return std::round(x); }  // half away from zero, as ExprTk
double fnTrunc(double x) { return std::trunc(x); }
double fnAtan2(double y, double x) { return std::atan2(y, x); }
double fnPow(double x, double y) { return std::pow(x, y); }
double fnHypot(double x, double y) { return std::hypot(x, y); }
double fnLogn(double x, double n) { return std::log(x) / std::log(n); }
double fnRoot(double x, double n) { return std::pow(x, 1.0 / n); }
double fnRoundn(double x, double n) {
  const double scale = std::pow(10.0, std::trunc(n));
  return std::round(x * scale) / scale;
}
double fnMod(double x, double y) { return std::fmod(x, y); }
double fnIf(double c, double a, double b) { return c != 0.0 ? a : b; }
double fnClamp(double lo, double x, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
double fnMin(const double* v, int n) { return *std::min_element(v, v + n); }
double fnMax(const double* v, int n) { return *std::max_element(v, v + n); }
double fnSum(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}
double fnAvg(const double* v, int n) { return fnSum(v, n) / n; }

using Unary = double (*)(double);
using Binary = double (*)(double, double);
using Ternary = double (*)(double, double, double);
using Variadic = double (*)(const double*, int);

struct Functions {
  std::vector<std::pair<const char*, Unary>> unary{
      {"sin", fnSin},         {"cos", fnCos},         {"tan", fnTan},     {"asin", fnAsin},
      {"acos", fnAcos},       {"atan", fnAtan},       {"sinh", fnSinh},   {"cosh", fnCosh},
      {"tanh", fnTanh},       {"sqrt", fnSqrt},       {"exp", fnExp},     {"log", fnLog},
      {"log10", fnLog10},     {"log2", fnLog2},       {"log1p", fnLog1p}, {"abs", fnAbs},
      {"floor", fnFloor},     {"ceil", fnCeil},       {"round", fnRound}, {"trunc", fnTrunc},
      {"deg2rad", fnDeg2rad}, {"rad2deg", fnRad2deg}, {"sgn", fnSgn},     {"frac", fnFrac},
      {"not", fnNot}};
  std::vector<std::pair<const char*, Binary>> binary{{"atan2", fnAtan2}, {"pow", fnPow},
                                                     {"hypot", fnHypot}, {"logn", fnLogn},
                                                     {"root", fnRoot},   {"roundn", fnRoundn}};
  std::vector<std::pair<const char*, Ternary>> ternary{{"if", fnIf}, {"clamp", fnClamp}};
  std::vector<std::pair<const char*, Variadic>> variadic{
      {"min", fnMin}, {"max", fnMax}, {"sum", fnSum}, {"avg", fnAvg}};

  bool has(std::string_view name) const {
    auto in = [&](const auto& list) {
      return std::any_of(list.begin(), list.end(), [&](const auto& f) { return name == f.first; });
    };
    return in(unary) || in(binary) || in(ternary) || in(variadic);
  }
};

const Functions& functions() {
  static const Functions f;
  return f;
}

/// Operator words: translated (and, or) or literal values (true, false).
bool isOperatorWord(std::string_view l) {
  static const std::set<std::string, std::less<>> words{
      "and",  "or",      "true",   "false", "nand",  "nor",      "xor",    "xnor",  "mand",
      "mor",  "in",      "like",   "ilike", "for",   "while",    "repeat", "until", "switch",
      "case", "default", "return", "var",   "break", "continue", "null",   "swap"};
  return words.count(l) != 0;
}

struct Constant {
  const char* name;
  double value;
};
const std::array<Constant, 4>& constants() {
  static const std::array<Constant, 4> c{{{"pi", std::numbers::pi},
                                          {"epsilon", std::numeric_limits<double>::epsilon()},
                                          {"inf", std::numeric_limits<double>::infinity()},
                                          {"m_pi", std::numbers::pi}}};
  return c;
}

bool isLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool isNameChar(char c) { return isLetter(c) || isDigit(c) || c == '_'; }

/// muParser's message without its "at position N" (a position in the translated text).
std::string cleanMessage(std::string message) {
  for (const char* marker : {" at position ", " at expression position "}) {
    const auto at = message.find(marker);
    if (at == std::string::npos) continue;
    auto end = at + std::string_view(marker).size();
    while (end < message.size() && isDigit(message[end])) ++end;
    message.erase(at, end - at);
  }
  while (!message.empty() && (message.back() == '.' || message.back() == ' ')) message.pop_back();
  return message;
}

}  // namespace

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool isIdentifier(std::string_view name) {
  if (name.empty() || !isLetter(name.front())) return false;
  return std::all_of(name.begin(), name.end(), isNameChar);
}

bool isReservedWord(std::string_view name) {
  const std::string l = lower(name);
  return functions().has(l) || isOperatorWord(l);
}

bool isConstant(std::string_view name) {
  const std::string l = lower(name);
  return std::any_of(constants().begin(), constants().end(),
                     [&](const Constant& c) { return l == c.name; });
}

const std::string* Variables::resolve(std::string_view name) const {
  const std::string l = lower(name);
  for (const auto& [key, value] : values_)
    if (lower(key) == l) return &key;
  return nullptr;
}

double evaluate(std::string_view expression, const Variables& variables,
                std::vector<std::string>* used) {
  std::string text;               // the muParser expression
  std::vector<std::size_t> from;  // position in `expression` of each character of `text`
  std::vector<std::pair<std::string, double>> vars;  // muParser name, value
  std::set<std::string> constantsUsed;
  auto emit = [&](std::string_view piece, std::size_t at) {
    text += piece;
    from.insert(from.end(), piece.size(), at);
  };

  const std::size_t n = expression.size();
  std::size_t i = 0;
  while (i < n) {
    const char c = expression[i];
    const char next = i + 1 < n ? expression[i + 1] : '\0';
    if (isDigit(c) || (c == '.' && isDigit(next))) {
      std::size_t j = i;
      while (j < n && (isDigit(expression[j]) || expression[j] == '.')) ++j;
      if (j < n && (expression[j] == 'e' || expression[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < n && (expression[k] == '+' || expression[k] == '-')) ++k;
        if (k < n && isDigit(expression[k])) {
          j = k;
          while (j < n && isDigit(expression[j])) ++j;
        }
      }
      for (std::size_t k = i; k < j; ++k) emit(std::string(1, expression[k]), k);
      if (j < n && (isLetter(expression[j]) || expression[j] == '_'))
        throw ExpressionError("a number directly followed by a name (write the `*`)", j);
      i = j;
    } else if (isLetter(c) || c == '_') {
      std::size_t j = i;
      while (j < n && isNameChar(expression[j])) ++j;
      const std::string_view name = expression.substr(i, j - i);
      const std::string l = lower(name);
      if (l == "and") {
        emit(" && ", i);
      } else if (l == "or") {
        emit(" || ", i);
      } else if (l == "true") {
        emit("1", i);
      } else if (l == "false") {
        emit("0", i);
      } else if (functions().has(l)) {
        std::size_t k = j;
        while (k < n && std::isspace(static_cast<unsigned char>(expression[k]))) ++k;
        if (k >= n || expression[k] != '(')
          throw ExpressionError("function '" + std::string(name) + "' needs its arguments in ()",
                                i);
        emit(l, i);
      } else if (const std::string* exact = variables.resolve(name)) {
        const std::string muName = "v_" + l;
        if (std::none_of(vars.begin(), vars.end(),
                         [&](const auto& v) { return v.first == muName; })) {
          vars.emplace_back(muName, variables.values().at(*exact));
          if (used) used->push_back(*exact);
        }
        emit(muName, i);
      } else if (isConstant(l)) {
        constantsUsed.insert(l);
        emit("c_" + l, i);
      } else if (isOperatorWord(l)) {
        throw ExpressionError("'" + std::string(name) + "' is not supported", i);
      } else {
        throw ExpressionError("unknown variable '" + std::string(name) + "'", i, std::string(name));
      }
      i = j;
    } else if (c == '=') {
      emit("==", i);
      i += next == '=' ? 2 : 1;
    } else if ((c == '<' || c == '>' || c == '!') && next == '=') {
      emit(std::string{c, '='}, i);
      i += 2;
    } else if (c == '<' && next == '>') {
      emit("!=", i);
      i += 2;
    } else if (c == '&' || c == '|') {
      emit(std::string(2, c), i);
      i += next == c ? 2 : 1;
    } else if (c == ':' && next == '=') {
      throw ExpressionError("assignment (:=) is not supported", i);
    } else if (c == ';') {
      throw ExpressionError("';' (several statements) is not supported", i);
    } else {
      emit(std::string(1, c), i);
      ++i;
    }
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw ExpressionError("empty expression", 0);

  mu::Parser parser;
  try {
    parser.ClearFun();
    parser.ClearConst();
    parser.ClearPostfixOprt();
    const Functions& f = functions();
    for (const auto& [name, fn] : f.unary) parser.DefineFun(name, fn, true);
    for (const auto& [name, fn] : f.binary) parser.DefineFun(name, fn, true);
    for (const auto& [name, fn] : f.ternary) parser.DefineFun(name, fn, true);
    for (const auto& [name, fn] : f.variadic) parser.DefineFun(name, fn, true);
    parser.DefineOprt("%", fnMod, mu::prMUL_DIV, mu::oaLEFT, true);
    for (const Constant& k : constants())
      if (constantsUsed.count(k.name)) parser.DefineConst(std::string("c_") + k.name, k.value);
    for (auto& [name, value] : vars) parser.DefineVar(name, &value);
    parser.SetExpr(text);
    const double value = parser.Eval();
    if (!std::isfinite(value))
      throw ExpressionError("the value is " + std::string(std::isnan(value) ? "NaN" : "infinite"),
                            0);
    return value;
  } catch (const mu::Parser::exception_type& e) {
    const auto pos = static_cast<std::size_t>(std::max<int>(0, e.GetPos()));
    const std::size_t at = pos < from.size() ? from[pos] : n;
    throw ExpressionError(cleanMessage(e.GetMsg()), at);
  }
}

}  // namespace hopsim::mbse::detail
