#include "hopsim/core/dataflow_sort.h"

#include <algorithm>
#include <functional>
#include <queue>

#include "hopsim/signals/error.h"
#include "hopsim/signals/error_subject.h"

namespace hopsim {
namespace {

/// A cycle among the models Kahn's algorithm could not place. Every unplaced model has an
/// unbroken incoming connection from another unplaced model, so walking those connections
/// backwards must revisit a model; the walk from its first visit is the cycle.
std::vector<const DataflowConnection*> findCycle(std::size_t modelCount,
                                                 const std::vector<DataflowConnection>& connections,
                                                 const std::vector<bool>& placed) {
  std::vector<const DataflowConnection*> incoming(modelCount, nullptr);
  for (const DataflowConnection& c : connections) {
    if (c.orders() && !placed[c.writer] && !placed[c.reader] && !incoming[c.reader]) {
      incoming[c.reader] = &c;
    }
  }
  std::size_t node = 0;
  while (placed[node]) ++node;
  std::vector<std::size_t> visitOrder(modelCount, modelCount);
  std::vector<const DataflowConnection*> walk;
  for (std::size_t step = 0; visitOrder[node] == modelCount; ++step) {
    visitOrder[node] = step;
    walk.push_back(incoming[node]);
    node = incoming[node]->writer;
  }
  std::vector<const DataflowConnection*> cycle(
      walk.begin() + static_cast<std::ptrdiff_t>(visitOrder[node]), walk.end());
  std::reverse(cycle.begin(), cycle.end());  // the walk went against the flow
  return cycle;
}

}  // namespace

std::vector<std::size_t> sortDataflow(std::size_t modelCount,
                                      const std::vector<DataflowConnection>& connections) {
  std::vector<std::vector<std::size_t>> readers(modelCount);
  std::vector<std::size_t> pending(modelCount, 0);  // unbroken incoming connections not yet met
  for (const DataflowConnection& c : connections) {
    if (!c.orders()) continue;
    readers[c.writer].push_back(c.reader);
    ++pending[c.reader];
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t m = 0; m < modelCount; ++m) {
    if (pending[m] == 0) ready.push(m);
  }
  std::vector<std::size_t> order;
  std::vector<bool> placed(modelCount, false);
  while (!ready.empty()) {
    const std::size_t m = ready.top();
    ready.pop();
    order.push_back(m);
    placed[m] = true;
    for (std::size_t r : readers[m]) {
      if (--pending[r] == 0) ready.push(r);
    }
  }
  if (order.size() == modelCount) return order;

  std::string message =
      "algebraic loop: each model in this cycle feeds the input it reads "
      "through to the output the next one reads, so no calling order gives every model "
      "current inputs:\n";
  const std::vector<const DataflowConnection*> cycle = findCycle(modelCount, connections, placed);
  for (const DataflowConnection* c : cycle) {
    message += "  " + c->writerPort + " -> " + c->signal + " -> " + c->readerPort +
               "   (feed-through " + c->feedThrough + ")\n";
  }
  message +=
      "declare a break on one of these connections (Simulation::addBreak(model, flowIn): that "
      "input is then read one evaluation late) or declare less feed-through in a model";
  // About the model the message starts with. A port is "model.port", and a port name has no
  // dot, so the model's name is what comes before the last one.
  const std::string& first = cycle.front()->writerPort;
  throw ErrorAbout<ModelError>(message,
                               {ErrorSubject::Kind::Model, first.substr(0, first.rfind('.'))});
}

}  // namespace hopsim
