#pragma once
// Private to core/src: the reading side of the checkpoint format (docs/checkpoints.md, "The
// format"). Strict, so that a damaged file is refused where the damage is: every token of a
// line is accounted for, a number must parse to its last character and fit its type, a string
// must be quoted, and a count can never exceed what the file could hold (no allocation is sized
// by the file beyond its own size). Every refusal is an InputError
// "checkpoint '<file>' line <n>: <what was found and what was expected>".

#include <cstdint>
#include <string>
#include <string_view>

#include "hopsim/signals/buffer.h"

namespace hopsim {

class CheckpointReader {
 public:
  /// Reads the whole file into memory. @throws InputError if it cannot be opened or read.
  explicit CheckpointReader(std::string file);

  const std::string& file() const { return file_; }

  /// Moves to the next line, which must begin with `keyword`.
  void expect(std::string_view keyword);
  /// The first token of the next line, without moving to it (empty at the end of the file).
  std::string_view nextKeyword() const;
  /// Fails unless the current line has no token left.
  void endLine();
  /// Fails unless nothing but blank lines follows the current line.
  void endFile();

  /// A quoted string (escapes as checkpoint::quoted writes them).
  std::string text(std::string_view what);
  /// An unquoted word.
  std::string_view word(std::string_view what);
  /// A decimal integer in [min, max].
  std::int64_t integer(std::string_view what, std::int64_t min, std::int64_t max);
  /// A decimal integer in [0, 2^64 - 1].
  std::uint64_t natural(std::string_view what);
  /// 0 or 1.
  bool flag(std::string_view what);
  /// A double: hexadecimal or decimal floating point, nan or inf.
  double real(std::string_view what);
  /// A finite double.
  double finite(std::string_view what);
  /// A count of items that follow: at most the file's size in bytes, since every item takes at
  /// least one.
  std::size_t count(std::string_view what);
  /// "<count> <values...>": `length` elements of `type`, the count included, into a new buffer.
  Buffer values(ElementType type, std::size_t length, const std::string& what);

  /// Fails unless `found` equals `expected`, naming what differs between the checkpoint and
  /// this simulation.
  void match(std::string_view what, std::string_view found, std::string_view expected) const;

  /// The current line's number, from 1.
  int line() const { return number_; }
  /// @throws InputError "checkpoint '<file>' line <n>: <message>" for the current line.
  [[noreturn]] void fail(const std::string& message) const { failAt(number_, message); }
  /// The same for an earlier line.
  [[noreturn]] void failAt(int line, const std::string& message) const;

 private:
  /// The next token of the current line (a quoted string with its quotes), or fails naming
  /// `what` as missing.
  std::string_view token(std::string_view what);

  std::string file_;
  std::string content_;
  std::size_t nextLine_ = 0;  // offset in content_ of the next line
  std::string_view rest_;     // what is left of the current line
  int number_ = 0;            // of the current line, from 1
};

/// A token as a message shows it: quoted, at most 80 characters, control and non-ASCII bytes as
/// \xNN (a damaged file may hold anything).
std::string shownToken(std::string_view token);

}  // namespace hopsim
