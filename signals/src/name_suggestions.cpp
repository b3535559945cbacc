#include "hopsim/signals/name_suggestions.h"

#include <algorithm>
#include <numeric>

namespace hopsim {

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> nearestNames(std::string_view wanted,
                                      const std::vector<std::string>& candidates,
                                      std::size_t maxCount) {
  // A plausible typo changes at most about a third of the name (and always allows 2 edits).
  const std::size_t limit = std::max<std::size_t>(2, wanted.size() / 3);
  std::vector<std::pair<std::size_t, std::size_t>> scored;  // (distance, candidate index)
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::size_t d = editDistance(wanted, candidates[i]);
    if (d <= limit) scored.emplace_back(d, i);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  // Only the best matches: a candidate one edit worse than the best is still offered, a
  // distant one would be noise.
  std::vector<std::string> out;
  for (std::size_t k = 0;
       k < scored.size() && out.size() < maxCount && scored[k].first <= scored.front().first + 1;
       ++k) {
    out.push_back(candidates[scored[k].second]);
  }
  return out;
}

std::string didYouMean(std::string_view wanted, const std::vector<std::string>& candidates) {
  const std::vector<std::string> near = nearestNames(wanted, candidates);
  if (near.empty()) return {};
  std::string out = " (did you mean ";
  for (std::size_t i = 0; i < near.size(); ++i) {
    if (i > 0) out += (i + 1 == near.size()) ? " or " : ", ";
    out += "'" + near[i] + "'";
  }
  return out + "?)";
}

}  // namespace hopsim
