// Fuzz target: the whole `emberlint check` pipeline, in process, on mutated C++ sources. Each input is one
// source file, written into a copy of the rule fixtures' project (stand-in Eigen, BLAS and OpenCL headers and
// the ember tensor header) with a fixed config, and checked as `emberlint check FILE` does it: libclang
// parse, facts, every rule, severities, suppressions; then rendered in every format, and fixed (--fix). The
// first line may place the file in another layer: `// path: backends/eigen/fuzz.cpp` (one of kPaths). Checks:
// the run leaves the working folder alone, the JSON and SARIF outputs are JSON, and a file that parsed still
// parses once fixed.
#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "fuzz/fuzz_support.hpp"
#include "lint/project/config.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/run/runner.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"

namespace {

using namespace emberlint;
namespace fs = std::filesystem;

// Where an input may be placed: each layer of the config, a header, and the glue file.
constexpr std::array<const char*, 8> kPaths = {
    "frontend/fuzz.cpp",       "frontend/allowed/fuzz.cpp", "frontend/include/ember/fuzz.hpp",
    "backends/eigen/fuzz.cpp", "backends/blas/fuzz.cpp",    "backends/opencl/fuzz.cpp",
    "tests/fuzz.cpp",          "backends/builtin.cpp"};

// The fixtures' config with flags that keep one parse short and never let a `#pragma clang __debug` crash
// the process on purpose.
constexpr const char* kConfig = R"({
  "layers": {
    "frontend": ["frontend/**"],
    "backends": {"eigen": ["backends/eigen/**"], "blas": ["backends/blas/**"], "opencl": ["backends/opencl/**"]},
    "tests": ["tests/**"],
    "glue": ["backends/builtin.cpp"]
  },
  "libraries": {
    "Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]},
    "BLAS": {"backend": "blas", "headers": ["cblas.h"], "symbols": ["cblas_*"]},
    "OpenCL": {"backend": "opencl", "headers": ["CL/**"], "namespaces": ["cl"], "symbols": ["cl[A-Z]*"]}
  },
  "tensor_types": ["ember::Tensor", "ember::BasicTensor<*>"],
  "scalar_extractors": ["ember::ops::item*", "ember::Tensor::to_scalar"],
  "rules": {"EL301": {"allowed_files": ["frontend/allowed/**"], "allowed_functions": ["ember::report::*"]}},
  "compile_flags": ["-std=c++20", "-isystem", "vendor", "-Ifrontend/include", "-I.", "-ferror-limit=20",
                    "-ftemplate-depth=64", "-fconstexpr-depth=64", "-fconstexpr-steps=100000",
                    "-fbracket-depth=64", "-Xclang", "-disable-pragma-debug-crash"]
})";

// Appended to the fixture's ember/tensor.hpp: every function an EL200 fix may call, for any operands, so that
// a fixed file can fail to parse only because the rewrite itself is wrong (the fixture declares a few).
constexpr const char* kEveryOp = R"(
namespace ember::ops {
#define EMBERLINT_FUZZ_BINARY(name) \
  template <class A, class B>       \
  A name(const A& a, const B&) {    \
    return a;                       \
  }
#define EMBERLINT_FUZZ_UNARY(name) \
  template <class A>               \
  A name(const A& a) {             \
    return a;                      \
  }
EMBERLINT_FUZZ_BINARY(add) EMBERLINT_FUZZ_BINARY(subtract) EMBERLINT_FUZZ_BINARY(multiply)
EMBERLINT_FUZZ_BINARY(divide) EMBERLINT_FUZZ_BINARY(mod) EMBERLINT_FUZZ_BINARY(less)
EMBERLINT_FUZZ_BINARY(less_equal) EMBERLINT_FUZZ_BINARY(greater) EMBERLINT_FUZZ_BINARY(greater_equal)
EMBERLINT_FUZZ_BINARY(equal) EMBERLINT_FUZZ_BINARY(not_equal) EMBERLINT_FUZZ_BINARY(logical_and)
EMBERLINT_FUZZ_BINARY(logical_or) EMBERLINT_FUZZ_UNARY(negative) EMBERLINT_FUZZ_UNARY(logical_not)
#undef EMBERLINT_FUZZ_BINARY
#undef EMBERLINT_FUZZ_UNARY
}  // namespace ember::ops
)";

const fs::path& project() {
  static const fs::path root = [] {
    fs::path r = fuzz::scratch_folder() / "project";
    fs::copy(fs::path(EMBERLINT_FIXTURES) / "project", r, fs::copy_options::recursive);
    fuzz::write_file(r / kConfigFileName, kConfig);
    std::ofstream(r / "frontend/include/ember/tensor.hpp", std::ios::app) << kEveryOp;
    return r;
  }();
  return root;
}

[[noreturn]] void broken(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_pipeline: invariant broken: %s\n%s\n", what, detail.c_str());
  std::abort();
}

// The layer path the first line asks for, or the frontend.
fs::path placement(const std::string& text) {
  const std::string first = text.substr(0, text.find('\n'));
  const std::string marker = "// path: ";
  if (first.rfind(marker, 0) == 0) {
    for (const char* p : kPaths) {
      if (first.compare(marker.size(), std::string::npos, p) == 0) return p;
    }
  }
  return kPaths[0];
}

void render_all(const CheckResult& result) {
  std::ostringstream text, json, sarif, other;
  render_text(text, result, TextOptions{});
  render_text(other, result, TextOptions{true, true});
  render_json(json, result, true);
  render_statistics(other, result);
  render_sarif(sarif, result);
  render_github(other, result);
  render_junit(other, result, JunitOptions{});
  render_markdown(other, result, MarkdownOptions{});
  for (const std::string& out : {json.str(), sarif.str()}) {
    if (!nlohmann::json::accept(out)) broken("a JSON report is not JSON", out);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // libclang's crash recovery installs signal handlers of its own: let the sanitizers see every crash.
  setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  // Device and process files (/dev/zero, /proc/self/fd/0) never end or block: not a source a parse can
  // finish.
  for (const char* never : {"dev/", "proc/"}) {
    if (text.find(never) != std::string::npos) return -1;  // -1: not added to the corpus
  }
  static const fs::path working_folder = fs::current_path();
  const fs::path file = project() / placement(text);
  fuzz::write_file(file, text);
  CheckOptions options;
  options.paths = {file};
  options.jobs = 1;
  CheckResult result = run_check(options, rule_catalog());
  // Parsing once moved the whole process into the compile command's folder (the driver's chdir).
  if (fs::current_path() != working_folder) broken("the run changed the working folder", fs::current_path());
  render_all(result);

  // --fix: a file that parsed must still parse with the fixes applied.
  FixPlan plan = plan_fixes(result.diagnostics);
  std::ostringstream yaml;
  write_fixes_yaml(yaml, result.diagnostics, plan);
  if (!result.failures.empty() || plan.edits.empty()) return 0;
  if (auto errors = apply_fixes(plan); !errors.empty()) broken("fixes could not be applied", errors.front());
  CheckResult fixed = run_check(options, rule_catalog());
  if (!fixed.failures.empty()) {
    auto source = fuzz::as_text(data, size);
    broken("a fixed file does not parse",
           fixed.failures.front().message + "\n--- before the fix:\n" + source);
  }
  return 0;
}
