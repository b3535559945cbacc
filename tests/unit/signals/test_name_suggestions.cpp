// Suggestions for misspelt names.

#include <doctest/doctest.h>

#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

TEST_CASE("edit distance counts insertions, deletions and substitutions") {
  CHECK(editDistance("kitten", "sitting") == 3);
  CHECK(editDistance("", "abc") == 3);
  CHECK(editDistance("same", "same") == 0);
}

TEST_CASE("the nearest plausible names come first, far ones are not suggested") {
  const std::vector<std::string> names{"thrust", "throttle", "mass", "thrust_cmd"};
  CHECK(nearestNames("thrus", names) == std::vector<std::string>{"thrust"});
  CHECK(nearestNames("zzzzzz", names).empty());
  CHECK(didYouMean("mas", names) == " (did you mean 'mass'?)");
  CHECK(didYouMean("qqqq", names).empty());
}

}  // namespace hopsim
