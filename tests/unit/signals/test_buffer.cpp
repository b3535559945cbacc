// Buffer: typed storage, conversions and the errors of a bad set.

#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

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

namespace {

// A double buffer of `length` elements holding 1, 2, 3, ...
Buffer counting(std::size_t length) {
  Buffer b(ElementType::Double, length);
  for (std::size_t k = 0; k < length; ++k) b.doubles()[k] = static_cast<double>(k + 1);
  return b;
}

bool holdsCounting(const Buffer& b, std::size_t length) {
  if (b.length() != length) return false;
  for (std::size_t k = 0; k < length; ++k) {
    if (b.doubles()[k] != static_cast<double>(k + 1)) return false;
  }
  return true;
}

// Whether the buffer's elements lie inside the Buffer object itself.
bool inside(const Buffer& b) {
  const auto* first = reinterpret_cast<const char*>(&b);
  const auto* element = reinterpret_cast<const char*>(b.doubles());
  return element >= first && element < first + sizeof(Buffer);
}

}  // namespace

TEST_CASE("short double buffers keep their elements inside the object, longer ones on the heap") {
  CHECK(inside(counting(1)));
  CHECK(inside(counting(Buffer::kInlineDoubles)));
  CHECK_FALSE(inside(counting(Buffer::kInlineDoubles + 1)));
}

TEST_CASE("copies and moves carry the elements, on both sides of the inline limit") {
  for (const std::size_t length :
       {std::size_t{1}, Buffer::kInlineDoubles, Buffer::kInlineDoubles + 1, std::size_t{40}}) {
    CAPTURE(length);
    const Buffer original = counting(length);
    Buffer copy(original);
    CHECK(holdsCounting(copy, length));
    CHECK(copy.doubles() != original.doubles());
    Buffer moved(std::move(copy));
    CHECK(holdsCounting(moved, length));
    CHECK(inside(moved) == (length <= Buffer::kInlineDoubles));
    // Assignment between different lengths takes the other's length and elements.
    Buffer assigned = counting(length == 1 ? 7 : 1);
    assigned = original;
    CHECK(holdsCounting(assigned, length));
    Buffer moveAssigned = counting(length == 1 ? 7 : 1);
    moveAssigned = std::move(assigned);
    CHECK(holdsCounting(moveAssigned, length));
    CHECK(inside(moveAssigned) == (length <= Buffer::kInlineDoubles));
  }
}

TEST_CASE("assignment between buffers of equal length copies in place: element pointers hold") {
  // The state vector and the multibody system point into buffers that checkpoints and rollbacks
  // assign over; those pointers must keep seeing the buffer's elements.
  for (const std::size_t length : {std::size_t{3}, std::size_t{12}}) {
    CAPTURE(length);
    Buffer target(ElementType::Double, length);
    const double* before = target.doubles();
    target = counting(length);  // move-assignment
    CHECK(target.doubles() == before);
    CHECK(holdsCounting(target, length));
    const Buffer source = counting(length);
    target.doubles()[0] = -1.0;
    target = source;  // copy-assignment
    CHECK(target.doubles() == before);
    CHECK(holdsCounting(target, length));
  }
}

TEST_CASE("resize keeps the leading elements across the inline limit and fills the rest NaN") {
  Buffer b = counting(3);
  b.resize(9);
  CHECK_FALSE(inside(b));
  CHECK(b.doubles()[2] == 3.0);
  CHECK(std::isnan(b.doubles()[8]));
  b.resize(2);
  CHECK(inside(b));
  CHECK(holdsCounting(b, 2));
  b.resize(4);
  CHECK(b.doubles()[1] == 2.0);
  CHECK(std::isnan(b.doubles()[3]));
  Buffer ints(ElementType::Int, 2);
  ints.ints()[1] = 5;
  ints.resize(6);
  CHECK(ints.ints()[1] == 5);
  CHECK(ints.ints()[5] == 0);
  CHECK(ints.doubles() == nullptr);
}

TEST_CASE("a placed buffer keeps its elements in the given storage until it takes them back") {
  // BatchColumns places the fields of models with batch methods in columns: sets, restores and
  // rollbacks (assignments of equal length) must write there, copies must own their elements,
  // and nothing may write to the storage once the buffer left it.
  for (const std::size_t length : {std::size_t{2}, std::size_t{12}}) {
    CAPTURE(length);
    std::vector<double> storage(length + 2, -5.0);
    double* const slot = storage.data() + 1;
    Buffer placed = counting(length);
    placed.placeIn(slot);
    CHECK(placed.placed());
    CHECK(placed.doubles() == slot);
    CHECK(holdsCounting(placed, length));

    placed = counting(length);  // move-assignment of equal length: in place
    const Buffer source = counting(length);
    placed.doubles()[0] = -1.0;
    placed = source;  // copy-assignment of equal length: in place
    CHECK(placed.doubles() == slot);
    CHECK(holdsCounting(placed, length));

    Buffer copy(placed);  // a copy owns its elements
    CHECK_FALSE(copy.placed());
    CHECK(copy.doubles() != slot);
    CHECK(holdsCounting(copy, length));
    Buffer moved(std::move(placed));  // so does a buffer moved from a placed one...
    CHECK_FALSE(moved.placed());
    CHECK(holdsCounting(moved, length));
    CHECK(placed.placed());  // ...which keeps its storage
    CHECK(placed.doubles() == slot);

    placed.ownElements();
    CHECK_FALSE(placed.placed());
    CHECK(placed.doubles() != slot);
    CHECK(holdsCounting(placed, length));
    placed.doubles()[0] = 99.0;
    CHECK(slot[0] == 1.0);           // the storage no longer changes with the buffer
    CHECK(storage.front() == -5.0);  // and nothing wrote outside the slot
    CHECK(storage.back() == -5.0);
  }
  SUBCASE("another length takes the elements back first") {
    std::vector<double> storage(3);
    Buffer resized = counting(3);
    resized.placeIn(storage.data());
    resized.resize(3);  // same length: stays
    CHECK(resized.placed());
    resized.resize(5);
    CHECK_FALSE(resized.placed());
    CHECK(resized.doubles()[2] == 3.0);
    Buffer assigned = counting(3);
    assigned.placeIn(storage.data());
    assigned = counting(7);
    CHECK_FALSE(assigned.placed());
    CHECK(holdsCounting(assigned, 7));
    Buffer copyAssigned = counting(3);
    copyAssigned.placeIn(storage.data());
    const Buffer longer = counting(6);
    copyAssigned = longer;
    CHECK_FALSE(copyAssigned.placed());
    CHECK(holdsCounting(copyAssigned, 6));
  }
}

}  // namespace hopsim
