// Buffer: typed storage, conversions and the errors of a bad set.

#include <doctest/doctest.h>

#include <cmath>

#include "hopsim/signals/buffer.h"
#include "hopsim/signals/error.h"

namespace hopsim {

TEST_CASE("a double buffer starts NaN, so an unset value is visible") {
  Buffer b(ElementType::Double, 3);
  CHECK(std::isnan(b.doubles()[0]));
  CHECK(std::isnan(b.doubles()[2]));
}

TEST_CASE("get returns a scalar for one element and a vector for several") {
  Buffer b(ElementType::Double, 3);
  b.set(std::vector<double>{1.0, 2.0, 3.0}, "x");
  CHECK(std::get<double>(b.get(1, 1)) == 2.0);
  CHECK(std::get<std::vector<double>>(b.get()) == std::vector<double>{1.0, 2.0, 3.0});
  CHECK(std::get<std::vector<double>>(b.get(1, 2)) == std::vector<double>{2.0, 3.0});
}

TEST_CASE("an int converts to double, a double converts to int only when whole") {
  Buffer d(ElementType::Double, 1);
  d.set(std::int64_t{4}, "d");
  CHECK(d.doubles()[0] == 4.0);
  Buffer i(ElementType::Int, 2);
  i.set(std::vector<double>{3.0, -7.0}, "i");
  CHECK(i.ints()[1] == -7);
  CHECK_THROWS_WITH_AS(i.set(std::vector<double>{3.0, 2.5}, "models.m.params.n"),
                       doctest::Contains("models.m.params.n: expected int[2] but got double[2]"),
                       InputError);
  Buffer j(ElementType::Int, 1);
  CHECK_THROWS_WITH_AS(j.set(143.7, "n"), doctest::Contains("not a whole number"), InputError);
}

TEST_CASE("a set with the wrong type or length names the destination, value and expectation") {
  Buffer b(ElementType::Double, 3);
  CHECK_THROWS_WITH_AS(b.set(std::vector<double>{1.0, 2.0}, "signals.v"),
                       "signals.v: expected double[3] but got double[2] [1, 2]", InputError);
  CHECK_THROWS_WITH_AS(b.set(std::string("fast"), "signals.v"),
                       "signals.v: expected double[3] but got string \"fast\"", InputError);
  Buffer flag(ElementType::Bool, 1);
  CHECK_THROWS_AS(flag.set(std::int64_t{1}, "flag"), InputError);
  flag.set(true, "flag");
  CHECK(flag.boolean());
}

TEST_CASE("a value of the wrong type is a TypeMismatchError, of the wrong length or value not") {
  // Python raises the first as a TypeError and the others as ValueErrors (python/src/errors.cpp).
  Buffer v(ElementType::Double, 3);
  CHECK_THROWS_AS(v.set(std::string("fast"), "v"), TypeMismatchError);
  CHECK_THROWS_AS(v.set(true, "v"), TypeMismatchError);
  const auto notTypeMismatch = [](auto&& set) {
    try {
      set();
    } catch (const TypeMismatchError&) {
      return false;
    } catch (const InputError&) {
      return true;
    }
    return false;
  };
  CHECK(notTypeMismatch([&] { v.set(std::vector<double>{1.0, 2.0}, "v"); }));
  Buffer count(ElementType::Int, 1);
  CHECK(notTypeMismatch([&] { count.set(1.5, "count"); }));
  Buffer flag(ElementType::Bool, 1);
  CHECK_THROWS_AS(flag.set(1.0, "flag"), TypeMismatchError);
}

TEST_CASE("a rejected set leaves the buffer unchanged") {
  Buffer b(ElementType::Double, 2);
  b.set(std::vector<double>{1.0, 2.0}, "x");
  CHECK_THROWS(b.set(std::vector<double>{5.0}, "x"));
  CHECK(std::get<std::vector<double>>(b.get()) == std::vector<double>{1.0, 2.0});
}

TEST_CASE("bool and string buffers hold exactly one element") {
  CHECK_THROWS_AS(Buffer(ElementType::String, 2), InputError);
  CHECK_THROWS_AS(Buffer(ElementType::Bool, 0), InputError);
  Buffer s(ElementType::String, 1);
  s.set(std::string("hello"), "s");
  CHECK(std::get<std::string>(s.get()) == "hello");
}

}  // namespace hopsim
