#include "hopsim/core/model_reference.h"

namespace hopsim {
namespace {

std::string cell(std::string text) {
  for (std::size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2)) {
    text.replace(at, 1, "\\|");
  }
  return text.empty() ? "-" : text;
}

void writeFieldTable(std::ostream& out, const ModelSpec& spec, FieldRole role) {
  const auto& fields = spec.fields(role);
  if (fields.empty()) return;
  out << "\n**" << branchName(role) << "**\n\n";
  out << "| name | type | unit | default | bounds | description |\n";
  out << "|---|---|---|---|---|---|\n";
  for (const FieldSpec& f : fields) {
    out << "| `" << f.name << "` | " << f.typeName() << " | " << cell(f.unit) << " | "
        << cell(f.defaultValue ? describeValue(*f.defaultValue) : std::string()) << " | "
        << cell(f.boundsText()) << " | " << cell(f.description) << " |\n";
  }
}

}  // namespace

void writeModelReference(std::ostream& out, const ModelSpec& spec) {
  out << "## " << spec.className() << "\n\n";
  out << "*" << toString(spec.kind()) << "*. " << spec.doc() << "\n";
  for (FieldRole role : {FieldRole::Param, FieldRole::DiscreteState, FieldRole::ContinuousState,
                         FieldRole::Scratch, FieldRole::FlowIn, FieldRole::FlowOut}) {
    writeFieldTable(out, spec, role);
  }
  const auto& ins = spec.fields(FieldRole::FlowIn);
  const auto& outs = spec.fields(FieldRole::FlowOut);
  if (!ins.empty() && !outs.empty()) {
    out << "\nFeed-through:";
    bool any = false;
    for (std::size_t o = 0; o < outs.size(); ++o) {
      for (std::size_t i = 0; i < ins.size(); ++i) {
        if (!spec.feedsThrough(i, o)) continue;
        out << (any ? ", " : " ") << "`" << ins[i].name << "` -> `" << outs[o].name << "`";
        any = true;
      }
    }
    out << (any ? "" : " none") << ".\n";
  }
  if (!spec.crossings().empty()) {
    out << "\n**zero crossings** (events `<model>.<name>`)\n\n";
    out << "| name | direction | description |\n|---|---|---|\n";
    for (const CrossingSpec& c : spec.crossings()) {
      out << "| `" << c.name << "` | " << toString(c.direction) << " | " << cell(c.description)
          << " |\n";
    }
  }
  out << "\nDefault output granularity: " << spec.outputGranularity().toString() << ".\n\n";
}

void writeModelReference(std::ostream& out, const ModelRegistry& registry) {
  out << "# Model reference\n\n"
      << "Generated from the model declarations by `hopsim models --doc`; do not edit.\n\n";
  for (const std::string& name : registry.classNames())
    writeModelReference(out, registry.spec(name));
}

}  // namespace hopsim
