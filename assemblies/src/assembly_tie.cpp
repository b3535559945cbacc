#include "assembly_tie.h"

#include <algorithm>

#include "hopsim/signals/error.h"

namespace hopsim {

void Assembly::TieRecord::consume(const Simulation& sim, const std::string& consumer,
                                  ElementType type, std::size_t length) {
  const ElementType tiedType = const_cast<Simulation&>(sim).signal(target.signal).type();
  if (tiedType != type || target.length != length) {
    throw InputError(describe() + ": " + describeAssembly(consumer) + " declares the signal as " +
                     std::string(toString(type)) + "[" + std::to_string(length) +
                     "], but the tie gives " + std::string(toString(tiedType)) + "[" +
                     std::to_string(target.length) + "]");
  }
  consumers.push_back(consumer);
}

void Assembly::TieRecord::forget(const std::string& consumer) { std::erase(consumers, consumer); }

std::string Assembly::TieRecord::describe() const {
  std::string text = "signal tie '" + tie.child + "' -> '" + tie.parent + "' given by " +
                     describeAssembly(givenBy) + " to " + describeAssembly(givenTo);
  if (tie.where.known()) text += " (at " + tie.where.toString() + ")";
  return text;
}

std::vector<std::shared_ptr<Assembly::TieRecord>> Assembly::offerTies(
    const std::string& childPath, const std::vector<SignalTie>& ties) {
  std::vector<std::shared_ptr<TieRecord>> offered;
  for (const SignalTie& t : ties) {
    auto record = std::make_shared<TieRecord>();
    record->tie = t;
    record->givenBy = path_;
    record->givenTo = childPath;
    try {
      const SignalRef base = signal(t.parent);
      if (t.offset >= base.length && base.length > 0) {
        throw InputError("offset " + std::to_string(t.offset) + " is past the end of '" + t.parent +
                         "' (" + std::to_string(base.length) + " elements)");
      }
      const std::size_t length = t.length.value_or(base.length - t.offset);
      if (length == 0 || t.offset + length > base.length) {
        throw InputError("slice [" + std::to_string(t.offset) + ", " +
                         std::to_string(t.offset + length) + ") does not fit '" + t.parent + "' (" +
                         std::to_string(base.length) + " elements)");
      }
      record->target = {base.signal, base.offset + t.offset, length};
    } catch (const InputError& e) {
      throw InputError((t.where.known() ? t.where.toString() + ": " : std::string()) +
                       record->describe() + ": " + e.what());
    }
    for (const auto& other : offered) {
      if (other->tie.child == t.child) {
        throw InputError(record->describe() + ": the child signal '" + t.child + "' is tied twice");
      }
    }
    offered.push_back(record);
    top().allTies_.push_back(std::move(record));
  }
  // Ties this assembly was offered and did not consume pass down (the seed's feed_thru).
  for (const auto& passing : offeredTies_) {
    if (std::find(passing->consumers.begin(), passing->consumers.end(), path_) !=
        passing->consumers.end()) {
      continue;
    }
    const auto same = std::find_if(offered.begin(), offered.end(), [&](const auto& r) {
      return r->tie.child == passing->tie.child;
    });
    if (same == offered.end()) {
      offered.push_back(passing);
    } else if ((*same)->target.signal != passing->target.signal ||
               (*same)->target.offset != passing->target.offset ||
               (*same)->target.length != passing->target.length) {
      throw InputError("conflicting ties for signal '" + passing->tie.child + "' of " +
                       describeAssembly(childPath) + ": " + (*same)->describe() + ", and " +
                       passing->describe() + " passed down through " + describeAssembly(path_));
    }
  }
  return offered;
}

}  // namespace hopsim
