// `emberlint init`, `layers` and `check --explain`. init on small trees of our own in the three layouts of
// real multi-backend projects (tests/lint/fixtures/init/): a C API with an op enum and src/<lib>-<backend>/
// folders (tinyml, ggml's shape), a class per op with a subclass per architecture folder (loom, ncnn's), and
// Primitive subclasses whose eval_cpu/eval_gpu each backend folder defines (prism, MLX's). The proposed
// config is checked key by key, its evidence comments are there, it loads, and init never overwrites a config
// unless asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lint/project/known_libraries.hpp"
#include "tests/support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::run_in;
using emberlint::test::scratch_dir;
using emberlint::test::write_file;
using nlohmann::json;

const fs::path kInit = fs::path(EMBERLINT_FIXTURES) / "init";

class InitDiscovery : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = scratch_dir("init"); }
  void TearDown() override { fs::remove_all(scratch_); }
  // A copy of a fixture tree (init writes into it).
  fs::path copy(const std::string& name) {
    fs::path dir = scratch_ / name;
    fs::copy(kInit / name, dir, fs::copy_options::recursive);
    return dir;
  }
  // `init --dry-run` of a tree: its text, and the config parsed (JSON with comments).
  json propose(const fs::path& tree, std::string* text = nullptr) {
    Outcome r = run_in(tree, emberlint::test::emberlint() + " init --dry-run", scratch_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (text) *text = r.out;
    return json::parse(r.out, nullptr, true, /*ignore_comments=*/true);
  }
  fs::path scratch_;
};

json backend_paths(const json& config, const std::string& name) {
  const json& b = config.at("layers").at("backends").at(name);
  return b.is_object() ? b.at("paths") : b;
}

TEST_F(InitDiscovery, ACApiWithAnOpEnumAndLibBackendFolders) {
  std::string text;
  const json c = propose(copy("tinyml"), &text);
  const json& layers = c.at("layers");
  EXPECT_EQ(layers.at("frontend"), json({"include/**", "src/**"}));
  EXPECT_EQ(layers.at("backends").size(), 3u) << text;
  EXPECT_EQ(backend_paths(c, "cpu"), json({"src/tml-cpu/**"}));
  EXPECT_EQ(backend_paths(c, "cuda"), json({"src/tml-cuda/**"}));
  EXPECT_EQ(backend_paths(c, "blas"), json({"src/tml-blas/**"}));
  // The public headers named after a backend, outside its folder.
  EXPECT_EQ(layers.at("backends").at("cpu").at("public"), json({"include/tml-cpu.h"}));
  EXPECT_EQ(layers.at("backends").at("cuda").at("public"), json({"include/tml-cuda.h"}));
  EXPECT_EQ(layers.at("tests"), json({"tests/**"}));
  EXPECT_EQ(layers.at("glue"), json({"examples/**"}));
  EXPECT_EQ(c.at("exclude"), json({"out/**"})) << "a folder with a CMakeCache.txt is a build folder";
  // Each library goes to the backend whose files include it.
  const json& libs = c.at("libraries");
  EXPECT_EQ(libs.at("CUDA").at("backend"), "cuda");
  EXPECT_EQ(libs.at("BLAS").at("backend"), "blas");
  EXPECT_EQ(libs.at("x86-intrinsics").at("backend"), "cpu");
  EXPECT_EQ(libs.at("BLAS").at("symbols"), json({"cblas_*", "openblas_*"}));
  EXPECT_EQ(libs.size(), 3u) << text;
  // The model: the op enum, each backend's dispatch function (the one with the most cases that is not its
  // predicate) and predicate, the sentinels excluded.
  const json& ops = c.at("ops_interface");
  EXPECT_EQ(ops.at("model"), "enum_dispatch");
  EXPECT_EQ(ops.at("enum"), "tml_op");
  EXPECT_EQ(ops.at("headers"), json({"include/tml.h"}));
  EXPECT_EQ(ops.at("dispatch"), json({{"blas", {"tml_backend_blas_graph_compute"}},
                                      {"cpu", {"tml_compute_forward"}},
                                      {"cuda", {"tml_cuda_compute_forward"}}}));
  EXPECT_EQ(ops.at("supports"),
            json({{"cpu", {"tml_backend_cpu_supports_op"}}, {"cuda", {"tml_backend_cuda_supports_op"}}}));
  EXPECT_EQ(ops.at("exclude"), json({"TML_OP_NONE", "TML_OP_COUNT"}));
  // The evidence, as comments.
  EXPECT_NE(text.find("// src/tml-cuda/: 1 file, 1 including <cuda_runtime.h> (CUDA)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("src/tml-common.h: <cuda_fp16.h>"), std::string::npos)
      << "a vendor header outside the backends is pointed out: " << text;
  EXPECT_NE(text.find("enum tml_op (include/tml.h, 10 enumerators TML_OP_*)"), std::string::npos) << text;
  // The CUDA toolkit is not on the machines that run this test: its folder expects missing SDK headers.
  if (!fs::exists("/usr/include/cuda_runtime.h") && !fs::exists("/usr/local/include/cuda_runtime.h")) {
    EXPECT_EQ(c.at("expected_parse_errors"), json({{"src/tml-cuda/**", {"missing-sdk-header"}}})) << text;
  }
}

TEST_F(InitDiscovery, AClassPerOpWithASubclassPerArchitectureFolder) {
  std::string text;
  const json c = propose(copy("loom"), &text);
  const json& layers = c.at("layers");
  EXPECT_EQ(layers.at("frontend"), json({"src/**"}));
  EXPECT_EQ(layers.at("backends"), json({{"arm", {"src/layer/arm/**"}},
                                         {"vulkan", {"src/layer/vulkan/**"}},
                                         {"x86", {"src/layer/x86/**"}}}));
  EXPECT_EQ(c.at("exclude"), json({"glslang/**"})) << "a submodule of .gitmodules is someone else's code";
  EXPECT_EQ(c.at("libraries").at("x86-intrinsics").at("backend"), "x86");
  EXPECT_EQ(c.at("libraries").at("arm-intrinsics").at("backend"), "arm");
  EXPECT_NE(text.find("src/mat.h: <emmintrin.h>"), std::string::npos) << text;
  // A backend named after a library is proposed as its user even when no file includes its headers (ncnn's
  // vulkan layers reach Vulkan through the project's own loader).
  EXPECT_EQ(c.at("libraries").at("Vulkan").at("backend"), "vulkan");
  const json& ops = c.at("ops_interface");
  EXPECT_EQ(ops.at("model"), "op_classes_subclasses");
  EXPECT_EQ(ops.at("base"), "loom::Layer");
  EXPECT_EQ(ops.at("headers"), json({"src/layer/*.h"}));
  // The computing methods the backends' classes declare (not create_pipeline, which they declare too).
  EXPECT_EQ(ops.at("methods"), json({"forward", "forward_inplace"}));
  EXPECT_EQ(c.at("compile_flags"), json({"-std=c++11", "-Isrc"})) << "CMakeLists.txt's standard: " << text;
}

TEST_F(InitDiscovery, PrimitiveSubclassesWithMethodsDefinedPerBackendFolder) {
  std::string text;
  const json c = propose(copy("prism"), &text);
  const json& b = c.at("layers").at("backends");
  // common/ serves every backend, gpu/ the GPU ones.
  EXPECT_EQ(b.at("cpu"), json({"prism/backend/cpu/**", "prism/backend/common/**"}));
  EXPECT_EQ(b.at("metal"),
            json({"prism/backend/metal/**", "prism/backend/common/**", "prism/backend/gpu/**"}));
  EXPECT_EQ(b.at("cuda"), json({"prism/backend/cuda/**", "prism/backend/common/**", "prism/backend/gpu/**"}));
  EXPECT_EQ(b.at("no_gpu"), json({"prism/backend/no_gpu/**", "prism/backend/common/**"}));
  EXPECT_EQ(b.size(), 5u);
  EXPECT_EQ(c.at("layers").at("glue"), json({"python/**"}));
  EXPECT_EQ(c.at("exclude"), json({"prism/3rdparty/**"}));
  EXPECT_EQ(c.at("tensor_types"), json({"prism::core::array"}));
  const json& ops = c.at("ops_interface");
  EXPECT_EQ(ops.at("model"), "op_classes_methods");
  EXPECT_EQ(ops.at("base"), "prism::core::Primitive") << "the root, not the intermediate UnaryPrimitive";
  EXPECT_EQ(ops.at("headers"), json({"prism/primitives.h"}));
  // no_gpu's eval_gpu stubs come from a macro: it takes the method of the backends it stands in for.
  EXPECT_EQ(ops.at("methods"), json({{"cpu", {"eval_cpu"}},
                                     {"cuda", {"eval_gpu"}},
                                     {"metal", {"eval_gpu"}},
                                     {"no_cpu", {"eval_cpu"}},
                                     {"no_gpu", {"eval_gpu"}}}));
}

// A configured tree that is not built (kiln): a header the build writes (kiln/version.h), a shader header
// written at build time, a database entry whose source the build generates (src/build-info.cpp) and an SDK
// that is not installed are each expected with their cause, where the units that meet them are; an SDK header
// included only under #ifdef (<mkl.h>) is not. The first `check -p build` of the config init writes is green.
TEST_F(InitDiscovery, AConfiguredButUnbuiltTreeExpectsWhatTheBuildWritesAndNothingElse) {
  const fs::path tree = copy("kiln");
  const std::string root = tree.string();
  json database = json::array();
  for (const char* file : {"src/core/graph.cpp", "src/core/tensor.cpp", "src/kiln-cpu/ops.cpp",
                           "src/kiln-metal/ops.cpp", "src/build-info.cpp", "tests/test_graph.cpp"}) {
    database.push_back({{"directory", root + "/build"},
                        {"file", root + "/" + file},
                        {"arguments",
                         {"c++", "-std=c++17", "-I" + root + "/include", "-I" + root + "/build/include", "-c",
                          root + "/" + file}}});
  }
  write_file(tree / "build/CMakeCache.txt", "# configured, not built\n");
  write_file(tree / "build/compile_commands.json", database.dump(1));
  const std::string exe = emberlint::test::emberlint();
  Outcome init = run_in(tree, exe + " init -p build", scratch_);
  ASSERT_EQ(init.exit_code, 0) << init.err;
  const std::string text = read_file(tree / ".emberlint.json");
  const json c = json::parse(text, nullptr, true, true);
  EXPECT_EQ(c.at("expected_parse_errors"), json({{"src/build-info.cpp", {"missing-generated-file"}},
                                                 {"src/core/**", {"missing-generated-file"}},
                                                 {"src/kiln-metal/**", {"missing-generated-file"}}}))
      << "not src/kiln-cpu/ (<mkl.h> only under #ifdef), not src/core/tensor.cpp's folder twice: " << text;
  EXPECT_NE(text.find("// 1 unit misses \"kiln/version.h\" (src/core/graph.cpp): files the build writes"),
            std::string::npos)
      << text;
  EXPECT_EQ(c.at("libraries").at("MKL").at("backend"), "cpu") << "a conditional include still names its user";
  EXPECT_EQ(c.at("compile_flags"), json({"-std=c++17", "-Ibuild/include", "-Iinclude"}))
      << "the database's standard and the include folders its units pass: " << text;
  Outcome check = run_in(tree, exe + " check -p build --format json", scratch_);
  EXPECT_TRUE(check.exit_code == 0 || check.exit_code == 1) << check.exit_code << check.out << check.err;
  const json report = json::parse(check.out);
  EXPECT_EQ(report.at("failures").size(), 1u) << check.out;
  EXPECT_EQ(report.at("partial").size(), 2u) << check.out;
  for (const auto& f : report.at("failures")) EXPECT_TRUE(f.at("expected").get<bool>()) << f;
  for (const auto& f : report.at("partial")) EXPECT_TRUE(f.at("expected").get<bool>()) << f;

  // Without a database the walk lints every source with the proposed flags: the CUDA unit too, whose toolkit
  // the machines that run this test lack.
  if (!fs::exists("/usr/include/cuda_runtime.h") && !fs::exists("/usr/local/include/cuda_runtime.h")) {
    const json walked = propose(tree);
    EXPECT_EQ(walked.at("expected_parse_errors").at("src/kiln-cuda/**"), json({"missing-sdk-header"}));
    EXPECT_FALSE(walked.at("expected_parse_errors").contains("src/kiln-cpu/**"));
  }
}

// quarry: BLAS used by two backends, FFT libraries, a gpu/ folder with GPU backends beside it and one
// without, code generators named after backends, vendored code by folder name and by license file, and a
// folder whose name only starts with "build".
TEST_F(InitDiscovery, LibrariesOfEveryUserGeneratorsAsGlueAndVendoredCodeExcluded) {
  std::string text;
  const json c = propose(copy("quarry"), &text);
  const json& b = c.at("layers").at("backends");
  EXPECT_EQ(b.at("opencl"), json({"src/opencl/**", "src/gpu/**"}));
  EXPECT_EQ(b.at("cuda"), json({"src/cuda/**", "src/gpu/**"}));
  EXPECT_EQ(b.at("gpu"), json({"simd/gpu/**"}))
      << "no GPU backend beside it: a backend, not dropped: " << text;
  EXPECT_EQ(b.size(), 6u) << "no old_opencl backend, and codegen/cuda is not merged into cuda: " << text;
  EXPECT_EQ(c.at("layers").at("glue"), json({"codegen/**"}));
  const json& libs = c.at("libraries");
  EXPECT_EQ(libs.at("BLAS").at("backend"), json({"cpu", "opencl"})) << "every backend that includes it";
  EXPECT_EQ(libs.at("FFTW").at("backend"), "cpu");
  EXPECT_EQ(libs.at("clFFT").at("backend"), "opencl");
  EXPECT_NE(text.find("// included by 1 file of cpu; 2 files of opencl"), std::string::npos) << text;
  EXPECT_EQ(c.at("exclude"), json({"3rd_party/**", "libs/halfp/**"})) << "not src/builder/: " << text;
  EXPECT_NE(text.find("libs/halfp/ (vendored code (a license file of its own))"), std::string::npos) << text;
  EXPECT_EQ(c.at("layers").at("frontend"), json({"include/**", "src/**"}));
  // src/opencl/ and src/cuda/ each hold a util.h their kernels include: neither goes on the shared include
  // path, where one would hide the other.
  EXPECT_EQ(c.at("compile_flags"), json({"-std=c++20", "-Iinclude"})) << text;
}

// lumen: the tensor type from what a tensor has (shape, dtype, ndim members) and the frontend's functions
// that take it, though a macro declares its operators; not the template engine's value type nor the SIMD
// helper, which have more `operator+` declarations in sight. Without the tensor, nothing is proposed.
TEST_F(InitDiscovery, TheTensorTypeIsTheClassWithATensorsMembersNotTheMostOperators) {
  std::string text;
  const fs::path tree = copy("lumen");
  EXPECT_EQ(propose(tree, &text).at("tensor_types"), json({"lumen::Tensor"})) << text;
  EXPECT_NE(
      text.find(
          "// tensor type: lumen::Tensor: members dtype, ndim, shape; 10 uses as a parameter or result"),
      std::string::npos)
      << text;
  fs::remove(tree / "include/lumen/tensor.h");
  fs::remove(tree / "include/lumen/ops.h");
  EXPECT_EQ(propose(tree, &text).at("tensor_types"), json::array()) << text;
  EXPECT_NE(text.find("none proposed"), std::string::npos) << text;
  EXPECT_NE(text.find("lumen::text::Value"), std::string::npos) << "the best candidate, named: " << text;
}

// vartype: a compiler's variable type with a dtype, flatten() and operators, taken by many frontend
// functions: flattening an array type is no shape, so no tensor type is proposed (occa's
// occa::lang::vartype_t was).
TEST_F(InitDiscovery, ATypeSystemsTypeWithADtypeAndFlattenIsNoTensor) {
  std::string text;
  const fs::path tree = copy("vartype");
  EXPECT_EQ(propose(tree, &text).at("tensor_types"), json::array()) << text;
  EXPECT_NE(text.find("none proposed"), std::string::npos) << text;
  EXPECT_NE(text.find("vt::vartype_t"), std::string::npos) << "the best candidate, named: " << text;
}

// tparam: a template's parameter (`template <class T, int N> struct Strided { rank, stride, view }`) is no
// class: the body after `class T,` is Strided's, and T's many uses as a parameter are any type's; the array
// with a shape is the tensor type (Kokkos' accessors made init propose `T`).
TEST_F(InitDiscovery, ATemplateParameterIsNoTensorType) {
  std::string text;
  const fs::path tree = copy("tparam");
  EXPECT_EQ(propose(tree, &text).at("tensor_types"), json({"tp::Array"})) << text;
  EXPECT_NE(text.find("// tensor type: tp::Array: members ndim, shape; 8 uses"), std::string::npos) << text;
}

// execspace: execution-space backends named after the host-parallel runtime they are written in (OpenMP/,
// HPX/) beside a CUDA one; a `unit_test` folder is tests, a `cmake/` folder of configure-time probes is glue,
// a `tpls/` folder (third-party libraries) is vendored (Kokkos' layout: init put OpenMP/ and HPX/ into the
// frontend, core/unit_test/ and cmake/ too, and proposed tpls/ as frontend).
TEST_F(InitDiscovery, ExecutionSpacesByTheirRuntimeAndTestsProbesAndThirdPartyFoldersByName) {
  std::string text;
  const fs::path tree = copy("execspace");
  const json c = propose(tree, &text);
  const json& layers = c.at("layers");
  std::set<std::string> backends;
  for (const auto& [name, b] : layers.at("backends").items()) backends.insert(name);
  EXPECT_EQ(backends, (std::set<std::string>{"cuda", "hpx", "openmp"})) << text;
  EXPECT_EQ(layers.at("backends").at("openmp"), json({"src/OpenMP/**"})) << text;
  EXPECT_EQ(layers.at("backends").at("hpx"), json({"src/HPX/**"})) << text;
  EXPECT_EQ(c.at("libraries").at("OpenMP").at("backend"), "openmp") << text;
  EXPECT_EQ(layers.at("tests"), json({"src/unit_test/**"})) << text;
  EXPECT_EQ(layers.at("glue"), json({"cmake/**"})) << text;
  const json& exclude = c.at("exclude");
  EXPECT_NE(std::find(exclude.begin(), exclude.end(), "tpls/**"), exclude.end()) << text;
  for (const auto& glob : layers.at("frontend"))
    EXPECT_TRUE(glob != "tpls/**" && glob != "cmake/**") << glob << "\n" << text;
  // The tests folder inside the frontend's `src/**` is tests: a tests glob wins over a frontend glob.
  const std::string exe = emberlint::test::emberlint();
  ASSERT_EQ(run_in(tree, exe + " init --force", scratch_).exit_code, 0);
  Outcome r =
      run_in(tree, exe + " layers --format json src/unit_test/test_copy.cpp src/core/array.cpp", scratch_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json files = json::parse(r.out);
  ASSERT_EQ(files.size(), 2u) << r.out;
  EXPECT_EQ(files.at(0).at("layer"), "tests") << r.out;
  EXPECT_EQ(files.at(0).at("why").at(0).at("key"), "layers.tests") << r.out;
  EXPECT_EQ(files.at(1).at("layer"), "frontend") << r.out;
}

// sieve: one client folder per FFT library, named after the library (cufft, rocfft beside fftw, clfft): each
// a backend; a Buffer with a device and a dtype but no shape is no tensor type; a database whose commands
// pass no -std gets none proposed (the compiler's default is what the build uses).
TEST_F(InitDiscovery, LibraryNamedFoldersAreBackendsAndABufferIsNoTensor) {
  const fs::path tree = copy("sieve");
  const std::string root = tree.string();
  json database = json::array();
  for (const char* file :
       {"src/buffer.cpp", "libraries/fftw/fftw_client.cpp", "libraries/clfft/clfft_client.cpp"})
    database.push_back({{"directory", root + "/build"},
                        {"file", root + "/" + file},
                        {"arguments", {"c++", "-I" + root + "/include", "-c", root + "/" + file}}});
  // The same source in a static and a shared library target: two entries, one parse.
  json repeat = database.back();
  repeat["arguments"] = {"c++",
                         "-I" + root + "/include",
                         "-fPIC",
                         "-o",
                         "shared/clfft_client.o",
                         "-c",
                         root + "/libraries/clfft/clfft_client.cpp"};
  database.push_back(repeat);
  write_file(tree / "build/compile_commands.json", database.dump(1));
  Outcome init = run_in(tree, emberlint::test::emberlint() + " init -p build --dry-run", scratch_);
  ASSERT_EQ(init.exit_code, 0) << init.err;
  const json c = json::parse(init.out, nullptr, true, true);
  const json& b = c.at("layers").at("backends");
  EXPECT_EQ(b.at("cufft"), json({"libraries/cufft/**"})) << init.out;
  EXPECT_EQ(b.at("rocfft"), json({"libraries/rocfft/**"})) << init.out;
  EXPECT_EQ(b.size(), 4u) << init.out;
  EXPECT_EQ(c.at("libraries").at("CUDA").at("backend"), "cufft") << init.out;
  EXPECT_EQ(c.at("libraries").at("HIP").at("backend"), "rocfft") << init.out;
  EXPECT_EQ(c.at("tensor_types"), json::array()) << init.out;
  EXPECT_NE(init.out.find("one of them shape-like"), std::string::npos) << init.out;
  EXPECT_EQ(c.at("compile_flags"), json({"-Iinclude"})) << init.out;
  EXPECT_NE(init.out.find("from 7 C and C++ files under the folder, 4 compile commands (3 distinct: 1 repeat "
                          "another's file and parse flags)."),
            std::string::npos)
      << "every entry of the database counted: " << init.out;
  EXPECT_NE(init.out.find("commands pass no -std (the compiler's default): none proposed"), std::string::npos)
      << init.out;
}

// What init writes is a config emberlint loads and runs; it is never overwritten unless asked, and --dry-run
// writes nothing.
TEST_F(InitDiscovery, WritesAConfigThatLoadsAndNeverOverwritesUnlessAsked) {
  const fs::path tree = copy("prism");
  const std::string exe = emberlint::test::emberlint();
  Outcome dry = run_in(tree, exe + " init --dry-run", scratch_);
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_FALSE(fs::exists(tree / ".emberlint.json")) << "--dry-run wrote the config";
  Outcome wrote = run_in(tree, exe + " init", scratch_);
  EXPECT_EQ(wrote.exit_code, 0) << wrote.err;
  EXPECT_EQ(read_file(tree / ".emberlint.json"), dry.out);
  // The proposed config runs: its compile_flags find the project's headers (-I. for "prism/array.h"), the
  // backends whose SDK is missing here parse partially as expected, and the cpu backend's BLAS include is no
  // finding while a frontend one is.
  EXPECT_NE(dry.out.find("\"compile_flags\": [\"-std=c++20\", \"-I.\"]"), std::string::npos) << dry.out;
  write_file(tree / "prism/ops.cpp", "#include <cblas.h>\nint ops() { return 0; }\n");
  Outcome check = run_in(tree, exe + " check --select EL100 --format json prism", scratch_);
  ASSERT_EQ(check.exit_code, 1) << check.out << check.err;
  const json findings = json::parse(check.out).at("diagnostics");
  ASSERT_EQ(findings.size(), 1u) << check.out;
  EXPECT_EQ(findings.at(0).at("file"), "prism/ops.cpp");

  write_file(tree / ".emberlint.json", "{}\n");
  Outcome again = run_in(tree, exe + " init", scratch_);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already exists; use --force to overwrite it, or --dry-run"), std::string::npos)
      << again.err;
  EXPECT_EQ(read_file(tree / ".emberlint.json"), "{}\n");
  Outcome forced = run_in(tree, exe + " init --force", scratch_);
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(read_file(tree / ".emberlint.json").find("\"model\": \"op_classes_methods\""), std::string::npos);
}

// `emberlint layers`: each file's layer, backends and the config entries (with their lines) that put it
// there.
TEST_F(InitDiscovery, LayersSaysWhereEachFileLandsAndWhichEntryPutItThere) {
  const fs::path tree = copy("prism");
  const std::string exe = emberlint::test::emberlint();
  ASSERT_EQ(run_in(tree, exe + " init", scratch_).exit_code, 0);
  const std::string config = read_file(tree / ".emberlint.json");
  auto line_of = [&](const std::string& needle, const std::string& after = "") {
    const auto at = config.find(needle, after.empty() ? 0 : config.find(after));
    return at == std::string::npos
               ? -1
               : 1 + static_cast<int>(std::count(config.begin(), config.begin() + at, '\n'));
  };
  Outcome r = run_in(
      tree, exe + " layers --format json prism/backend/gpu prism/array.h prism/3rdparty python", scratch_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json files = json::parse(r.out);
  std::map<std::string, json> by_file;
  for (const auto& f : files) by_file[f.at("file")] = f;
  ASSERT_TRUE(by_file.count("prism/backend/gpu/copy.cpp")) << r.out;
  const json& gpu = by_file.at("prism/backend/gpu/copy.cpp");
  EXPECT_EQ(gpu.at("layer"), "backend");
  EXPECT_EQ(gpu.at("backends"), json({"cuda", "metal"})) << "a folder shared by two backends";
  EXPECT_EQ(gpu.at("libraries"), json({"CUDA", "Metal"}));
  ASSERT_EQ(gpu.at("why").size(), 2u);
  EXPECT_EQ(gpu.at("why").at(0).at("key"), "layers.backends.cuda");
  EXPECT_EQ(gpu.at("why").at(0).at("pattern"), "prism/backend/gpu/**");
  EXPECT_EQ(gpu.at("why").at(0).at("line"), line_of("\"prism/backend/gpu/**\""));
  EXPECT_EQ(gpu.at("why").at(1).at("line"), line_of("\"prism/backend/gpu/**\"", "\"metal\": ["))
      << "each backend's own line";
  EXPECT_EQ(by_file.at("prism/array.h").at("layer"), "frontend");
  EXPECT_EQ(by_file.at("prism/array.h").at("why").at(0).at("key"), "layers.frontend");
  EXPECT_EQ(by_file.at("prism/3rdparty").at("layer"), "excluded") << r.out;
  EXPECT_EQ(by_file.at("prism/3rdparty").at("why").at(0).at("pattern"), "prism/3rdparty/**");
  EXPECT_EQ(by_file.at("python/src/bindings.cpp").at("layer"), "glue");

  Outcome text = run_in(tree, exe + " layers prism/backend/gpu/copy.cpp", scratch_);
  EXPECT_EQ(text.out,
            "prism/backend/gpu/copy.cpp  backend cuda, metal; may use CUDA, Metal  (layers.backends.cuda "
            "\"prism/backend/gpu/**\", .emberlint.json:" +
                std::to_string(line_of("\"prism/backend/gpu/**\"")) +
                ")  (layers.backends.metal \"prism/backend/gpu/**\", .emberlint.json:" +
                std::to_string(line_of("\"prism/backend/gpu/**\"", "\"metal\": [")) + ")\n");
  Outcome missing = run_in(tree, exe + " layers nowhere", scratch_);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nowhere: no such file or folder"), std::string::npos) << missing.err;
}

// The one table of well-known libraries: init's proposals and the parse-error classifier read it.
TEST(KnownLibraries, IncludesAreMatchedByTheirWholeSpellingOrFileName) {
  using emberlint::library_of_include;
  ASSERT_NE(library_of_include("cuda_runtime.h"), nullptr);
  EXPECT_EQ(library_of_include("cuda_runtime.h")->name, "CUDA");
  EXPECT_EQ(library_of_include("nvidia/cuda_fp16.h")->name, "CUDA") << "a file-name glob, in any folder";
  EXPECT_EQ(library_of_include("vulkan/vulkan.hpp")->name, "Vulkan");
  EXPECT_EQ(library_of_include("layer/vulkan/shader.h"), nullptr)
      << "a project's own header in a folder named vulkan is not the Vulkan SDK";
  EXPECT_EQ(library_of_include("CL/sycl.hpp")->name, "SYCL") << "the more specific library first";
  EXPECT_EQ(library_of_include("CL/cl.h")->name, "OpenCL");
  EXPECT_EQ(library_of_include("Eigen/Core")->name, "Eigen");
  EXPECT_EQ(library_of_include("metal/metal.h"), nullptr);
  ASSERT_NE(library_of_include("metal/metal.h", /*ignore_case=*/true), nullptr);
  EXPECT_EQ(library_of_include("metal/metal.h", true)->name, "Metal");
  // FFT libraries and Boost.Compute (a multi-backend FFT benchmark's and an OpenCL/CUDA/Boost.Compute
  // library's shapes).
  ASSERT_NE(library_of_include("fftw3.h"), nullptr);
  EXPECT_EQ(library_of_include("fftw3.h")->name, "FFTW");
  ASSERT_NE(library_of_include("clFFT.h"), nullptr);
  EXPECT_EQ(library_of_include("clFFT.h")->name, "clFFT");
  ASSERT_NE(library_of_include("boost/compute/core.hpp"), nullptr);
  EXPECT_EQ(library_of_include("boost/compute/core.hpp")->name, "Boost.Compute");
  EXPECT_EQ(library_of_include("boost/compute.hpp")->name, "Boost.Compute");
  EXPECT_EQ(library_of_include("boost/config.hpp"), nullptr) << "the rest of Boost is no backend's";
  EXPECT_EQ(library_of_include("rocfft/rocfft.h")->name, "HIP");
}

}  // namespace

namespace {

// `check --explain`: each purity finding says why it fired, from the use to the config entries (with their
// lines) that make the used thing a backend's and put the file in its layer; without the flag, nothing.
TEST(Explain, APurityFindingSaysWhichConfigEntriesMadeIt) {
  const fs::path project = fs::path(EMBERLINT_FIXTURES) / "project";
  const fs::path scratch = scratch_dir("explain");
  const std::string config = read_file(project / ".emberlint.json");
  auto line = [&](const std::string& value, const std::string& after) {
    const auto at = config.find(value, config.find(after));
    return std::to_string(1 + std::count(config.begin(), config.begin() + static_cast<long>(at), '\n'));
  };
  const std::string check =
      emberlint::test::emberlint() + " check --no-cache --select EL100,EL101 --format json ";
  Outcome r = run_in(project, check + "--explain frontend/el100_includes.cpp", scratch);
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const json first = json::parse(r.out).at("diagnostics").at(0);
  ASSERT_EQ(first.at("message").get<std::string>().rfind("frontend file includes 'Eigen/Core'", 0), 0u)
      << r.out;
  EXPECT_EQ(first.at("explanation"), json({"'Eigen/Core' resolves to vendor/Eigen/Core",
                                           "owned by library Eigen (backend 'eigen'): "
                                           "libraries.Eigen.headers \"Eigen/**\" (.emberlint.json:" +
                                               line("\"Eigen/**\"", "\"libraries\"") + ")",
                                           "frontend/el100_includes.cpp is in the frontend: layers.frontend "
                                           "\"frontend/**\" (.emberlint.json:" +
                                               line("\"frontend/**\"", "\"frontend\"") + ")"}));
  // A symbol: where it is declared, and the symbol glob that makes it BLAS's.
  Outcome sym = run_in(project, check + "--explain frontend/el101_nested_calls.cpp", scratch);
  bool blas = false;
  const json doc = json::parse(sym.out);  // kept: a range-for over a member of a temporary would dangle
  for (const auto& d : doc.at("diagnostics")) {
    if (d.at("message").get<std::string>().find("'cblas_dnrm2'") == std::string::npos) continue;
    blas = true;
    ASSERT_EQ(d.at("explanation").size(), 3u) << d;
    EXPECT_EQ(
        d.at("explanation").at(0).get<std::string>().rfind("line 17 names 'cblas_dnrm2', declared at ", 0),
        0u)
        << d;
    EXPECT_EQ(d.at("explanation").at(1),
              "owned by library BLAS (backend 'blas'): libraries.BLAS.symbols \"cblas_*\" "
              "(.emberlint.json:" +
                  line("\"cblas_*\"", "\"libraries\"") + ")");
  }
  EXPECT_TRUE(blas) << sym.out;
  Outcome text = run_in(project,
                        emberlint::test::emberlint() +
                            " check --no-cache --select EL100 --explain "
                            "frontend/el100_includes.cpp",
                        scratch);
  EXPECT_NE(text.out.find("\n  note: 'Eigen/Core' resolves to vendor/Eigen/Core\n"), std::string::npos)
      << text.out;
  Outcome plain = run_in(project, check + "frontend/el100_includes.cpp", scratch);
  EXPECT_FALSE(json::parse(plain.out).at("diagnostics").at(0).contains("explanation")) << plain.out;
  fs::remove_all(scratch);
}

// docs/emberlint.md documents every subcommand `emberlint --help` lists, and every flag of `check`.
TEST(Docs, EverySubcommandAndCheckFlagIsDocumented) {
  const std::string docs = read_file(fs::path(EMBERLINT_FIXTURES) / "../../../docs/emberlint.md");
  ASSERT_FALSE(docs.empty());
  const fs::path scratch = scratch_dir("docs");
  auto listed = [&](const std::string& args, const std::string& section) {
    Outcome help = run_in(scratch, emberlint::test::emberlint() + " " + args, scratch);
    std::vector<std::string> names;
    std::istringstream lines(help.out.substr(std::min(help.out.size(), help.out.find(section))));
    std::string line;
    std::getline(lines, line);  // the section's title
    while (std::getline(lines, line) && line.rfind("  ", 0) == 0) {
      std::istringstream words(line);
      std::string first;
      words >> first;
      names.push_back(first.substr(0, first.find(',')));
    }
    return names;
  };
  const auto commands = listed("--help", "Subcommands:");
  EXPECT_GE(commands.size(), 8u);
  for (const auto& c : commands)
    EXPECT_NE(docs.find("`emberlint " + c), std::string::npos) << c << " is not in docs/emberlint.md";
  const auto flags = listed("check --help", "Options:");
  EXPECT_GE(flags.size(), 20u);
  for (const auto& f : flags) {
    if (f.rfind("-", 0) != 0 || f == "-h") continue;
    EXPECT_NE(docs.find("`" + f), std::string::npos) << "check " << f << " is not in docs/emberlint.md";
  }
  fs::remove_all(scratch);
}

}  // namespace
