// libFuzzer target of the Chrono MBS YAML front end (docs/fuzzing.md, docs/chrono-yaml.md).
//
// Each input is YAML text. It goes through every reader of the front end: the file-kind
// detectors, the model reader and the lowering plan of what it reads, the solver reader, and,
// written into a scratch directory, the simulation-file reader and `hopsim run`'s
// runDocumentFor. A hopsim::Error is a rejection; any other exception, a crash, a sanitizer
// report, a leak or a hang is a finding.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "hopsim/assemblies/chrono_yaml.h"
#include "hopsim/assemblies/front_end.h"
#include "hopsim/assemblies/yaml_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hopsim;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const fuzz::ScratchDir& scratch = fuzz::ScratchDir::get();
  const std::string path = scratch.file("input.yaml");

  InputNode document;
  if (!fuzz::acceptOrReject([&] { document = parseYaml(text, path); })) return 0;

  fuzz::acceptOrReject([&] { (void)detectYamlFileKind(document, path); });
  chrono::FileKind kind{};
  const bool known = fuzz::acceptOrReject([&] { kind = chrono::detectFileKind(document, path); });

  // The in-memory readers, whatever the kind, so that every one sees every input.
  const bool model = fuzz::acceptOrReject([&] {
    const mechanism::Mechanism mechanism = chrono::readModel(document, path);
    fuzz::lower(mechanism);
  });
  fuzz::acceptOrReject([&] { (void)chrono::readSolver(document, path); });

  // The entry points that read files: a model the reader accepted, and a simulation file whose
  // model and solver paths stay in the scratch directory (which holds model.yaml, solver.yaml).
  const bool simulation = known && kind == chrono::FileKind::Simulation &&
                          fuzz::pathsStayInScratch(document, {"model", "solver"});
  if (!model && !simulation) return 0;
  scratch.write("input.yaml", text);
  if (simulation && !fuzz::acceptOrReject([&] { (void)chrono::readSimulationFile(path); })) {
    return 0;
  }
  fuzz::runPath(document, path);
  return 0;
}
