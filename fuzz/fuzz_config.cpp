// Fuzz target: the .emberlint.json reader. Each input is a config's text. It is validated as the loader does
// (JSON with comments, keys, types, globs, rule names); a valid one is then loaded from a file below a fixed
// parent config, so "inherit": true merges over it, and the effective config is put to use: layers and
// exclusions of a few paths, header and symbol owners and tensor types through a small ProjectModel.
#include <cstddef>
#include <cstdint>

#include "fuzz/fuzz_support.hpp"
#include "lint/project/config.hpp"
#include "lint/project/project.hpp"
#include "rules/registry.hpp"

namespace {

using namespace emberlint;
namespace fs = std::filesystem;

// A folder with a parent config (the rule fixtures' one); each input becomes sub/.emberlint.json.
const fs::path& project() {
  static const fs::path root = [] {
    fs::path r = fuzz::scratch_folder() / "config";
    fs::create_directories(r / "sub");
    fs::copy_file(fs::path(EMBERLINT_FIXTURES) / "project" / kConfigFileName, r / kConfigFileName,
                  fs::copy_options::overwrite_existing);
    return r;
  }();
  return root;
}

// Facts of a made-up translation unit: files in every layer, library headers, symbols and tensor types.
TuFacts sample_facts(const fs::path& sub) {
  TuFacts facts;
  for (const char* f : {"frontend/a.cpp", "backends/eigen/math_ops.cpp", "backends/blas/b.cpp", "tests/t.cpp",
                        "vendor/Eigen/Core", "vendor/cblas.h", "frontend/include/ember/tensor.hpp",
                        "build/gen.cpp", "other/x.hpp"}) {
    facts.files.push_back({sub / f, true, {}});
  }
  // A deep path: glob matching must not take time exponential in the number of "**".
  fs::path deep = sub;
  for (int i = 0; i < 24; ++i) deep /= "a";
  facts.files.push_back({deep / "x.cpp", true, {}});
  facts.main = 0;
  facts.main_file = facts.files[0].path;
  const char* spelled[] = {"Eigen/Core", "cblas.h", "ember/tensor.hpp", "CL/cl.h", "x.hpp"};
  for (int i = 0; i < 5; ++i) {
    Include inc;
    inc.at.file = 0;
    inc.spelled = spelled[i];
    inc.angled = i % 2 == 0;
    inc.included = i < 3 ? 4 + i : -1;
    facts.includes.push_back(inc);
  }
  const char* symbols[] = {"Eigen::Matrix", "cblas_dgemm", "clCreateBuffer",        "cl::Buffer",
                           "ember::Tensor", "std::vector", "EIGEN_VERSION_AT_LEAST"};
  for (int i = 0; i < 7; ++i) {
    Symbol s;
    s.qualified_name = symbols[i];
    s.kind = i == 6 ? "macro definition" : "ClassDecl";
    s.is_macro = i == 6;
    s.declared.file = i % static_cast<int>(facts.files.size());
    s.defined = i % 2 == 0;
    facts.symbols.push_back(s);
  }
  for (const char* t :
       {"ember::Tensor", "ember::BasicTensor<float>", "Eigen::Matrix<float, -1, -1>", "int"}) {
    TypeFacts type;
    type.spelling = t;
    type.classes = {t, "ember::detail::Base"};
    type.arithmetic = std::string(t) == "int";
    facts.types.push_back(type);
  }
  return facts;
}

void use(const Config& config, const fs::path& sub) {
  TuFacts facts = sample_facts(sub);
  for (const auto& f : facts.files) {
    (void)config.excluded(f.path);
    (void)classify_path(config, f.path);
    (void)is_library_header(config, f.path);
  }
  ProjectModel model(config, facts);
  for (FileId f = 0; f < static_cast<FileId>(facts.files.size()); ++f) {
    (void)model.layer(f);
    (void)model.operator_rules_govern(f);
    (void)model.scalar_rules_govern(f);
  }
  for (const auto& inc : facts.includes) (void)model.header_owner(inc);
  for (int s = 0; s < static_cast<int>(facts.symbols.size()); ++s) {
    if (auto owner = model.symbol_owner(s)) (void)model.backend_folder(owner->backend);
  }
  for (int t = 0; t < static_cast<int>(facts.types.size()); ++t) (void)model.is_tensor(t);
  for (const auto& s : facts.symbols) (void)model.is_scalar_extractor(s.qualified_name);
  for (const char* code : {"EL200", "EL301", "EL100"}) (void)model.rule_setting(code);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const RegistryNames names;
  const std::string text = fuzz::as_text(data, size);
  const fs::path sub = project() / "sub";
  try {
    validate_config_text(text, sub / kConfigFileName, names);
  } catch (const ConfigError&) {
    return 0;  // the message names the file and the JSON path: what a user sees
  }
  fuzz::write_file(sub / kConfigFileName, text);
  ConfigLoader loader(names);  // a new one per input: nothing cached from the previous input
  std::shared_ptr<const Config> config;
  try {
    config = loader.for_folder(sub / "frontend", sub);
  } catch (const ConfigError&) {
    return 0;  // a library whose backend only the parent could declare
  }
  use(*config, sub);
  return 0;
}
