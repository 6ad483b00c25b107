// Parsing what the compiler parses and keeping going past errors (issue 17, parts 1 and 2), end to end:
// the compiler of each compile command is asked what the command leaves implicit (a stand-in GCC answers
// with its own standard, system folder and instruction-set macro); Objective-C, Objective-C++ and CUDA
// units parse in their language; a GCC precompiled header is read as its header; a unit with errors is
// analyzed, reported partial with its cause, expected or not by the config, and cached.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "lint/compile/driver_query.hpp"
#include "lint/project/parse_errors.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::run_in;
using emberlint::test::scratch_dir;
using emberlint::test::write_file;

namespace {

class Fidelity : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("fidelity");
    write_file(dir_ / ".emberlint.json", R"({
      "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "exclude": ["build/**", "cache/**", "bin/**"]
    })");
    write_file(dir_ / "vendor/Eigen/Core",
               "#pragma once\nnamespace Eigen { struct MatrixXd { long rows() const { return 0; } }; }\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::string& args) { return run_in(dir_, emberlint::test::emberlint() + " " + args); }

  // A config whose tensor type is ns::Tensor, declared (with an operator+ and a conversion to bool) in
  // frontend/include/tensor.hpp.
  void tensor_project() {
    write_file(dir_ / ".emberlint.json", R"({
      "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "tensor_types": ["ns::Tensor"],
      "exclude": ["build/**", "cache/**"]
    })");
    write_file(dir_ / "frontend/include/tensor.hpp",
               "#pragma once\nnamespace ns {\nstruct Tensor {\n  Tensor operator+(const Tensor&) const;\n"
               "  explicit operator bool() const;\n};\n}  // namespace ns\n");
  }

  // A compile database of these (file, command) entries, run in the project folder.
  void database(const std::vector<std::pair<std::string, std::string>>& entries) {
    nlohmann::json db = nlohmann::json::array();
    for (const auto& [file, command] : entries)
      db.push_back({{"directory", dir_.string()}, {"file", file}, {"command", command + " -c " + file}});
    write_file(dir_ / "build/compile_commands.json", db.dump(2));
  }

  // A stand-in GCC: it predefines C++20 and, with -mfoo, __FOO__; its system folder holds fakesys.h; its own
  // builtin folder (with a stddef.h) never reaches libclang. It answers only the query emberlint sends.
  std::string fake_gcc() {
    write_file(dir_ / "sys/fakesys.h", "#pragma once\n#define FAKESYS_VALUE 42\n");
    write_file(dir_ / "gccinc/stddef.h", "#error \"GCC's own builtin headers reached libclang\"\n");
    fs::path gcc = dir_ / "bin/x86_64-test-linux-gnu-g++";
    write_file(gcc,
               "#!/bin/sh\n"
               "foo=0\nfor a in \"$@\"; do [ \"$a\" = -mfoo ] && foo=1; done\n"
               "echo '#define __cplusplus 202002L'\necho '#define __GNUC__ 12'\n"
               "[ $foo = 1 ] && echo '#define __FOO__ 1'\n"
               "echo 'Target: x86_64-linux-gnu' >&2\n"
               "echo '#include <...> search starts here:' >&2\n"
               "echo ' " +
                   (dir_ / "sys").string() +
                   "' >&2\n"
                   "echo ' " +
                   (dir_ / "gccinc").string() +
                   "' >&2\n"
                   "echo ' /usr/include' >&2\n"
                   "echo 'End of search list.' >&2\n");
    fs::permissions(gcc, fs::perms::owner_all);
    return gcc.string();
  }

  // Moves every file's and folder's mtime an hour back: what changed just before a run is not cached by it.
  void age_tree() {
    auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const auto& e : fs::recursive_directory_iterator(dir_)) fs::last_write_time(e.path(), old);
    fs::last_write_time(dir_, old);
  }

  fs::path dir_;
};

const char* kImplicitUnit =
    "#include <fakesys.h>\n#include <stddef.h>\n"
    "static_assert(__cplusplus == 202002L, \"the compiler's default standard\");\n"
    "#ifndef __FOO__\n#error \"the macro of -mfoo\"\n#endif\n"
    "int value() { return FAKESYS_VALUE; }\n";

TEST_F(Fidelity, TheCompilerIsAskedForItsStandardSystemFoldersAndInstructionSetMacros) {
  std::string gcc = fake_gcc();
  write_file(dir_ / "frontend/implicit.cpp", kImplicitUnit);
  database({{"frontend/implicit.cpp", gcc + " -O2 -mfoo"}});
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("partial").empty()) << j.at("partial").dump();
  EXPECT_EQ(r.err.find("note:"), std::string::npos) << r.err;

  // Without the query the same unit misses all three.
  Outcome off = run("check -p build --format json --no-query-driver");
  EXPECT_EQ(off.exit_code, 3) << off.out;
  auto o = nlohmann::json::parse(off.out);
  ASSERT_EQ(o.at("partial").size(), 1u) << off.out;
  EXPECT_EQ(o.at("partial").at(0).at("cause"), "missing-sdk-header");
}

TEST_F(Fidelity, ACompilerThatCannotBeQueriedLeavesTheCleanedCommandWithOneNote) {
  write_file(dir_ / "frontend/a.cpp", "int a() { return 1; }\n");
  write_file(dir_ / "frontend/b.cpp", "int b() { return 2; }\n");
  write_file(dir_ / "tools/g++", "#!/bin/sh\nexit 1\n");
  database({{"frontend/a.cpp", "/nonexistent/bin/g++ -std=c++17"},
            {"frontend/b.cpp", "/nonexistent/bin/g++ -std=c++17"}});
  Outcome r = run("check -p build");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string note = "emberlint: note: could not query the compiler '/nonexistent/bin/g++'";
  ASSERT_NE(r.err.find(note), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(note, r.err.find(note) + 1), std::string::npos) << "one note per compiler: " << r.err;
  // A compiler inside the tree ("./tools/g++") is never run.
  database({{"frontend/a.cpp", "./tools/g++ -std=c++17"}});
  Outcome local = run("check -p build");
  EXPECT_EQ(local.exit_code, 0) << local.err;
  EXPECT_NE(
      local.err.find("could not query the compiler './tools/g++' for its implicit flags (a relative path: a "
                     "file of the tree is never run)"),
      std::string::npos)
      << local.err;
}

TEST_F(Fidelity, ObjectiveCObjectiveCxxAndCudaUnitsParseInTheirLanguage) {
  // `class` is a name in Objective-C, a keyword in Objective-C++.
  write_file(dir_ / "frontend/view.m",
             "@interface View\n- (int)width;\n@end\nint classes(void) { int class = 2; return class; }\n");
  write_file(dir_ / "frontend/bridge.mm",
             "#include <Eigen/Core>\n@class View;\nlong rows() { return Eigen::MatrixXd().rows(); }\n");
  // nvcc's own flags, a kernel, and host code; no CUDA installation: the toolkit's header is a missing SDK.
  write_file(dir_ / "frontend/kernels.cu",
             "#include <cuda_runtime.h>\n#include <Eigen/Core>\n"
             "__global__ void scale(float* x) { x[threadIdx.x] *= 2; }\n"
             "long host_rows() { return Eigen::MatrixXd().rows(); }\n");
  write_file(dir_ / ".emberlint.json", read_file(dir_ / ".emberlint.json").insert(1, R"(
      "expected_parse_errors": {"frontend/*.cu": ["missing-sdk-header"]},)"));
  database({{"frontend/view.m", "/usr/bin/clang -fobjc-arc"},
            {"frontend/bridge.mm", "/usr/bin/clang++ -isystem vendor"},
            {"frontend/kernels.cu",
             "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -isystem vendor -x cu "
             "--generate-code=arch=compute_75,code=[compute_75,sm_75] -Xcompiler=-fPIC -std=c++17"}});
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("failures").empty()) << r.out;
  EXPECT_EQ(j.at("files_analyzed"), 3);
  ASSERT_EQ(j.at("partial").size(), 1u) << r.out;
  const auto& cu = j.at("partial").at(0);
  EXPECT_EQ(cu.at("file"), "frontend/kernels.cu");
  EXPECT_EQ(cu.at("cause"), "missing-sdk-header");
  EXPECT_TRUE(cu.at("expected").get<bool>());
  std::set<std::string> found;
  for (const auto& d : j.at("diagnostics"))
    found.insert(d.at("file").get<std::string>() + " " + d.at("code").get<std::string>());
  EXPECT_EQ(found, (std::set<std::string>{"frontend/bridge.mm EL100", "frontend/bridge.mm EL101",
                                          "frontend/bridge.mm EL102", "frontend/kernels.cu EL100",
                                          "frontend/kernels.cu EL101", "frontend/kernels.cu EL102"}))
      << r.out;
}

TEST_F(Fidelity, AGccPrecompiledHeaderIsReadAsItsHeader) {
  write_file(dir_ / "build/CMakeFiles/app.dir/cmake_pch.hxx", "#pragma once\n#define FROM_PCH 3\n");
  write_file(dir_ / "build/CMakeFiles/app.dir/cmake_pch.hxx.gch", "GCC's precompiled format, not clang's\n");
  write_file(dir_ / "frontend/uses_pch.cpp", "int pch() { return FROM_PCH; }\n");
  database({{"frontend/uses_pch.cpp", "/usr/bin/g++ -std=gnu++17 -Winvalid-pch -include " +
                                          (dir_ / "build/CMakeFiles/app.dir/cmake_pch.hxx").string()}});
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("failures").empty()) << r.out;
  EXPECT_TRUE(j.at("partial").empty()) << r.out;
}

class KeepGoing : public Fidelity {
 protected:
  void SetUp() override {
    Fidelity::SetUp();
    // A generated header not built yet, then code with a finding that parsed fine.
    write_file(dir_ / "frontend/app.cpp",
               "#include \"app_version.h\"\n#include <Eigen/Core>\n"
               "long rows() { return Eigen::MatrixXd().rows(); }\n");
    write_file(dir_ / "frontend/clean.cpp", "int twice(int n) { return n * 2; }\n");
    database({{"frontend/app.cpp", "/usr/bin/g++ -std=c++17 -isystem vendor -Ibuild/generated"},
              {"frontend/clean.cpp", "/usr/bin/g++ -std=c++17"}});
    base_config_ = read_file(dir_ / ".emberlint.json");
  }
  // The project's config with one expected_parse_errors entry for frontend/app.cpp.
  void expect(const std::string& causes) {
    std::string config = base_config_;
    write_file(dir_ / ".emberlint.json",
               config.insert(1, "\n  \"expected_parse_errors\": {\"frontend/app.cpp\": [" + causes + "]},"));
  }
  std::string base_config_;
};

TEST_F(KeepGoing, AUnitWithErrorsIsAnalyzedAndReportedPartialWithItsCause) {
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("files_analyzed"), 2);
  EXPECT_TRUE(j.at("failures").empty());
  // EL100, EL101 (Eigen::MatrixXd and its rows()), EL102: the code after the error
  ASSERT_EQ(j.at("diagnostics").size(), 4u) << r.out;
  EXPECT_EQ(j.at("diagnostics").at(0).at("file"), "frontend/app.cpp");
  ASSERT_EQ(j.at("partial").size(), 1u);
  const auto& p = j.at("partial").at(0);
  EXPECT_EQ(p.at("file"), "frontend/app.cpp");
  EXPECT_EQ(p.at("cause"), "missing-generated-file");
  EXPECT_FALSE(p.at("expected").get<bool>());
  ASSERT_GE(p.at("errors").size(), 1u);
  EXPECT_EQ(p.at("errors").at(0).at("line"), 1);
  EXPECT_EQ(p.at("errors").at(0).at("message"), "error: 'app_version.h' file not found");

  Outcome text = run("check -p build");
  EXPECT_NE(text.out.find("frontend/app.cpp: warning: analyzed partially (missing generated file): "
                          "frontend/app.cpp:1:10: error: 'app_version.h' file not found"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("in 2 files; 1 file analyzed partially."), std::string::npos) << text.out;
  Outcome sarif = run("check -p build --format sarif");
  auto s = nlohmann::json::parse(sarif.out);
  const auto& invocation = s.at("runs").at(0).at("invocations").at(0);
  EXPECT_FALSE(invocation.at("executionSuccessful").get<bool>());
  EXPECT_EQ(invocation.at("toolExecutionNotifications").at(0).at("level"), "warning");
  Outcome github = run("check -p build --format github");
  EXPECT_NE(github.out.find("::warning file=frontend/app.cpp,line=1,col=10,title=emberlint%3A analyzed "
                            "frontend/app.cpp partially::analyzed partially"),
            std::string::npos)
      << github.out;
  Outcome junit = run("check -p build --format junit");
  EXPECT_NE(junit.out.find("<error message=\"analyzed partially\" type=\"analysis-partial\">"),
            std::string::npos)
      << junit.out;
  Outcome markdown = run("check -p build --format markdown");
  EXPECT_NE(markdown.out.find("| frontend/app.cpp | missing-generated-file | **no** |"), std::string::npos)
      << markdown.out;
}

TEST_F(KeepGoing, ExpectedCausesKeepCiGreenAndStrict) {
  expect("\"missing-sdk-header\"");
  EXPECT_EQ(run("check -p build").exit_code, 3) << "another cause is still unexpected";
  expect("\"missing-generated-file\"");
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("partial").at(0).at("expected").get<bool>());
  Outcome zero = run("check -p build --exit-zero");
  EXPECT_EQ(zero.exit_code, 0) << zero.out;
  EXPECT_NE(zero.out.find("frontend/app.cpp: note: analyzed partially (missing generated file, expected)"),
            std::string::npos)
      << zero.out;
  auto s = nlohmann::json::parse(run("check -p build --format sarif").out);
  const auto& invocation = s.at("runs").at(0).at("invocations").at(0);
  EXPECT_TRUE(invocation.at("executionSuccessful").get<bool>());
  EXPECT_EQ(invocation.at("toolExecutionNotifications").at(0).at("level"), "note");
}

TEST_F(KeepGoing, AnUnknownCauseIsAConfigError) {
  expect("\"missing-header\"");
  Outcome r = run("check -p build");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(".emberlint.json: expected_parse_errors.frontend/app.cpp[0]: unknown cause "
                       "'missing-header'; expected one of: missing-sdk-header, missing-generated-file, "
                       "unsupported-feature, unowned-code, other, any"),
            std::string::npos)
      << r.err;
}

// A shared test header may open a scope that each test file closes: Boost.Test's BOOST_FIXTURE_TEST_SUITE in
// a setup header, BOOST_AUTO_TEST_SUITE_END() at the end of every test. The compiler reads one text; the
// precompiled preamble that skips the headers' bodies stops inside the open namespace, and clang said
// "expected '}'" where the preamble ends (vexcl's 32 test units). Such a unit is parsed again whole: no
// error, and the code after the includes is checked. A header that really leaves a brace open is still an
// error.
TEST_F(Fidelity, AScopeThatAnIncludedHeaderOpensAndTheFileClosesIsNoParseError) {
  tensor_project();
  write_file(dir_ / "frontend/suite.hpp",
             "#pragma once\n#define SUITE_BEGIN(name) namespace name {\n#define SUITE_END() }\n"
             "#include \"tensor.hpp\"\nSUITE_BEGIN(suite)\ninline int ready() { return 1; }\n");
  for (const char* name : {"add", "sub"}) {
    write_file(dir_ / "frontend" / (std::string(name) + ".cpp"),
               "// the setup first\n#include <vector>\n#include \"suite.hpp\"\n\n"
               "ns::Tensor twice(const ns::Tensor& t) { return t + t; }\n"
               "int one() { return ready(); }\n\nSUITE_END()\n");
  }
  write_file(dir_ / "frontend/open.hpp", "#pragma once\nnamespace never_closed {\n");
  write_file(dir_ / "frontend/broken.cpp", "#include \"open.hpp\"\n\nint broken() { return 0; }\n");
  database({{"frontend/add.cpp", "/usr/bin/g++ -std=c++17 -Ifrontend/include"},
            {"frontend/sub.cpp", "/usr/bin/g++ -std=c++17 -Ifrontend/include"},
            {"frontend/broken.cpp", "/usr/bin/g++ -std=c++17"}});
  for (const char* cache : {" --no-cache", "", ""}) {  // cold, then stored, then from the cache
    Outcome r = run(std::string("check -p build --format json") + cache);
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.at("partial").size(), 1u) << r.out;
    EXPECT_EQ(j.at("partial").at(0).at("file"), "frontend/broken.cpp");
    EXPECT_EQ(j.at("partial").at(0).at("errors").at(0).at("file"), "frontend/broken.cpp") << r.out;
    EXPECT_EQ(j.at("partial").at(0).at("errors").at(0).at("line"), 3)
        << "at the end of the file, not where the preamble ends (line 2)";
    std::set<std::string> el200;
    for (const auto& d : j.at("diagnostics"))
      if (d.at("code") == "EL200")
        el200.insert(d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()));
    EXPECT_EQ(el200, (std::set<std::string>{"frontend/add.cpp:5", "frontend/sub.cpp:5"})) << r.out;
  }
  write_file(dir_ / "frontend/broken.cpp", "int broken() { return 0; }\n");
  EXPECT_EQ(run("check -p build").exit_code, 1);
  Outcome analyzed = run("analyze -p build --format json");
  EXPECT_EQ(analyzed.exit_code, 0) << analyzed.out << analyzed.err;
  EXPECT_EQ(analyzed.out.find("expected '}'"), std::string::npos) << analyzed.out;
}

// A command libclang's driver refuses reads no file; its failure is cached under the file itself, so a warm
// run does not try again (ggml's CUDA headers did, on every run) until the file changes.
TEST_F(Fidelity, AUnitLibclangRefusesIsCachedUntilItChanges) {
  write_file(dir_ / "frontend/refused.cpp", "int f() { return 1; }\n");
  database({{"frontend/refused.cpp", "/usr/bin/clang++ -std=gnu11"}});
  age_tree();
  const std::string check = "check -p build --no-query-driver --format json --statistics --cache-dir '" +
                            (dir_ / "cache").string() + "'";
  Outcome cold = run(check);
  EXPECT_EQ(cold.exit_code, 3) << cold.out << cold.err;
  ASSERT_EQ(nlohmann::json::parse(cold.out).at("failures").size(), 1u) << cold.out;
  auto warm = nlohmann::json::parse(run(check).out);
  EXPECT_EQ(warm.at("statistics").at("cache").at("hits"), 1) << warm.dump();
  EXPECT_EQ(warm.at("statistics").at("cache").at("misses"), 0);
  EXPECT_EQ(warm.at("failures").size(), 1u);
  write_file(dir_ / "frontend/refused.cpp", "int f() { return 2; }\n");
  auto changed = nlohmann::json::parse(run(check).out);
  EXPECT_EQ(changed.at("statistics").at("cache").at("misses"), 1) << changed.dump();
}

TEST_F(KeepGoing, PartialUnitsAreCachedUntilTheMissingFileAppears) {
  age_tree();
  const std::string check =
      "check -p build --format json --statistics --cache-dir '" + (dir_ / "cache").string() + "'";
  Outcome cold = run(check);
  Outcome warm = run(check);
  EXPECT_EQ(warm.exit_code, 3);
  auto w = nlohmann::json::parse(warm.out);
  EXPECT_EQ(w.at("statistics").at("cache").at("hits"), 2) << warm.out;
  EXPECT_EQ(w.at("statistics").at("cache").at("misses"), 0);
  EXPECT_EQ(w.at("partial"), nlohmann::json::parse(cold.out).at("partial"));
  // The build writes the generated header: the unit is analyzed again, and is whole.
  write_file(dir_ / "build/generated/app_version.h", "#pragma once\n");
  Outcome built = run(check);
  EXPECT_EQ(built.exit_code, 1) << built.out;
  auto b = nlohmann::json::parse(built.out);
  EXPECT_TRUE(b.at("partial").empty()) << built.out;
  EXPECT_EQ(b.at("statistics").at("cache").at("misses"), 1);
}

// Walking a tree (no database), every header is a unit of its own. A helper header that is not self-contained
// (it relies on its includer's includes, as ncnn's src/layer/fused_activation.h does) does not parse alone,
// but the unit that includes it parses: no failure of the run, and its own code is still checked. A header
// that no unit includes and that does not parse is still reported.
TEST_F(Fidelity, ANonSelfContainedHeaderThatAUnitIncludesIsNoFailureOfAWalk) {
  write_file(dir_ / "frontend/shape.h", "#pragma once\nstruct Shape { long n = 0; };\n");
  write_file(dir_ / "frontend/shape_helpers.h",
             "#pragma once\n#include <Eigen/Core>\n"
             "inline long cells(const Shape& s) { return s.n + Eigen::MatrixXd().rows(); }\n");
  write_file(
      dir_ / "frontend/shape.cpp",
      "#include \"shape.h\"\n#include \"shape_helpers.h\"\nlong twice(Shape s) { return 2 * cells(s); }\n");
  write_file(dir_ / ".emberlint.json", read_file(dir_ / ".emberlint.json")
                                           .insert(1,
                                                   "\n  \"compile_flags\": [\"-std=c++17\", \"-isystem\", "
                                                   "\"vendor\"],"));
  Outcome r = run("check frontend --no-cache --format json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("partial").empty()) << r.out;
  EXPECT_TRUE(j.at("failures").empty()) << r.out;
  // The helper's own code is checked: its Eigen use in the frontend (EL100 for the include, EL101).
  bool helper_finding = false;
  for (const auto& d : j.at("diagnostics")) helper_finding |= d.at("file") == "frontend/shape_helpers.h";
  EXPECT_TRUE(helper_finding) << r.out;

  // The same header with no includer is a partial unit of the run.
  fs::remove(dir_ / "frontend/shape.cpp");
  Outcome alone = run("check frontend --no-cache --format json");
  EXPECT_EQ(alone.exit_code, 3) << alone.out << alone.err;
  auto a = nlohmann::json::parse(alone.out);
  ASSERT_EQ(a.at("partial").size(), 1u) << alone.out;
  EXPECT_EQ(a.at("partial").at(0).at("file"), "frontend/shape_helpers.h");
}
TEST(ParseCauses, MissingFilesUnsupportedFeaturesAndTheRest) {
  using emberlint::classify_parse_error;
  EXPECT_EQ(classify_parse_error("error: 'cuda_runtime.h' file not found", "#include \"cuda_runtime.h\""),
            "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: 'Metal/Metal.h' file not found", "#import <Metal/Metal.h>"),
            "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: 'zlib.h' file not found", "#include <zlib.h>"),
            "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: 'ggml-vulkan-shaders.hpp' file not found",
                                 "  #  include \"ggml-vulkan-shaders.hpp\""),
            "missing-generated-file")
      << "a quoted header the build writes, whatever SDK its name mentions";
  EXPECT_EQ(classify_parse_error("error: 'build-info.h' file not found", "#include \"build-info.h\""),
            "missing-generated-file");
  EXPECT_EQ(classify_parse_error("error: use of undeclared identifier '__builtin_ia32_foo'", ""),
            "unsupported-feature");
  EXPECT_EQ(classify_parse_error("error: unknown type name '__bf16'", ""), "unsupported-feature");
  EXPECT_EQ(classify_parse_error("error: expected ';' after expression", ""), "other");
  // What only the CUDA or HIP toolkit declares, used in a unit parsed without it: the missing SDK.
  EXPECT_EQ(classify_parse_error("error: use of undeclared identifier 'cudaMalloc'", ""),
            "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: unknown type name 'cudaStream_t'", ""), "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: unknown type name 'dim3'", ""), "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: use of undeclared identifier __cudaPushCallConfiguration", ""),
            "missing-sdk-header")
      << "a kernel launch <<<...>>> without the toolkit; clang does not quote this name";
  EXPECT_EQ(classify_parse_error("error: use of undeclared identifier '__shfl_xor_sync'", ""),
            "missing-sdk-header");
  EXPECT_EQ(classify_parse_error("error: use of undeclared identifier 'cuda'", ""), "other")
      << "a name that merely is a prefix";
  EXPECT_EQ(classify_parse_error("error: use of undeclared identifier 'blocks'", ""), "other");
  // A unit's cause: its first missing file, whatever came before.
  EXPECT_EQ(emberlint::unit_parse_cause(
                {{"error: expected ';'", ""}, {"error: 'gen.h' file not found", "#include \"gen.h\""}}),
            "missing-generated-file");
}

TEST(DriverOutput, StandardTargetFoldersAndMacros) {
  std::string defines = "#define __cplusplus 201703L\n#define __AVX2__ 1\n#define __has_include(x) 1\n";
  std::string report =
      "Target: aarch64-linux-gnu\n#include \"...\" search starts here:\n#include <...> search starts here:\n"
      " /usr/include/c++/12\n /nonexistent/gcc/include-fixed\n /usr/include\nEnd of search list.\n";
  auto facts = emberlint::parse_driver_output(defines, report);
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->standard, "-std=gnu++17");
  EXPECT_EQ(facts->target, "aarch64-linux-gnu");
  EXPECT_EQ(facts->includes_before, std::vector<std::string>{"/usr/include/c++/12"});
  EXPECT_EQ(facts->includes_after, std::vector<std::string>{"/usr/include"});
  EXPECT_EQ(facts->macros.count("__has_include(x)"), 0u);
  EXPECT_EQ(facts->macros.at("__AVX2__"), "1");
  EXPECT_FALSE(emberlint::parse_driver_output("", report)) << "no macros: not a GCC-compatible compiler";
  EXPECT_EQ(emberlint::standard_flag({{"__STDC_VERSION__", "201710L"}, {"__STRICT_ANSI__", "1"}}, false),
            "-std=c17");
  EXPECT_EQ(emberlint::standard_flag({{"__cplusplus", "202002L"}}, true), "-std=gnu++20");
}

}  // namespace

namespace {

// Issue 17, part 6: with a compile database, the bodies of project headers are analyzed whatever their words.
TEST_F(Fidelity, EveryHeaderBodyIsAnalyzedWhateverItsWords) {
  tensor_project();
  // No `operator`, no host copy, no extractor: only tensors used in inline bodies.
  write_file(dir_ / "frontend/include/use.hpp",
             "#pragma once\n#include \"tensor.hpp\"\n"
             "inline ns::Tensor twice(const ns::Tensor& a) { return a + a; }\n"
             "inline bool nonzero(const ns::Tensor& t) {\n  if (t) return true;\n  return false;\n}\n");
  write_file(dir_ / "frontend/main.cpp", "#include \"use.hpp\"\nint main() { return 0; }\n");
  database({{"frontend/main.cpp", "/usr/bin/g++ -std=c++17 -Ifrontend/include"}});
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  std::set<std::string> found;
  for (const auto& d : j.at("diagnostics"))
    found.insert(d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()) + " " +
                 d.at("code").get<std::string>());
  EXPECT_EQ(found,
            (std::set<std::string>{"frontend/include/use.hpp:3 EL200", "frontend/include/use.hpp:5 EL201"}))
      << r.out;
}

// Issue 17 (cold cost): units of one command load the system and library headers they share from one
// precompiled prefix. A unit that defines a macro those headers test (_GLIBCXX_DEBUG turns std::vector into
// the debug one, which would parse as well, silently other) parses them itself; a unit with errors is parsed
// again without the prefix, so what is reported is what a parse of its own reports. Findings and failures are
// those of --no-shared-prefix.
TEST_F(Fidelity, UnitsOfOneCommandShareAPrecompiledPrefix) {
  tensor_project();
  // Two headers with code, parsed for their bodies in one batch.
  write_file(dir_ / "frontend/include/twice.hpp",
             "#pragma once\n#include <vector>\n#include \"tensor.hpp\"\n"
             "inline ns::Tensor twice(const ns::Tensor& a) { return a + a; }\n");
  write_file(dir_ / "frontend/include/thrice.hpp",
             "#pragma once\n#include <string>\n#include \"tensor.hpp\"\n"
             "inline ns::Tensor thrice(const ns::Tensor& a) {\n  return a + a + a;\n}\n");
  write_file(dir_ / "frontend/a.cpp",
             "#include <vector>\n#include \"tensor.hpp\"\n#include \"twice.hpp\"\n#include \"thrice.hpp\"\n"
             "ns::Tensor f(const ns::Tensor& a) { std::vector<int> v{1}; return a + a; }\n");
  write_file(dir_ / "frontend/b.cpp",
             "#include <map>\n#include <string>\n#include \"tensor.hpp\"\n"
             "bool g(const ns::Tensor& t) {\n  std::map<std::string, int> m;\n  if (t) return m.empty();\n"
             "  return false;\n}\n");
  write_file(dir_ / "frontend/c.cpp", "#include <vector>\nint h() { return undeclared_name; }\n");
  write_file(dir_ / "frontend/d.cpp",
             "#define _GLIBCXX_DEBUG\n#include <vector>\n#include \"tensor.hpp\"\n"
             "\n"
             "ns::Tensor k(const ns::Tensor& a) { return a + a; }\n");
  // An SDK header this machine lacks: left out of the prefix, which is built again without it.
  write_file(dir_ / "frontend/e.cpp", "#include <missing_sdk.h>\n#include <vector>\nint e() { return 0; }\n");
  const std::string flags = "/usr/bin/g++ -std=c++17 -Ifrontend/include";
  database({{"frontend/a.cpp", flags},
            {"frontend/b.cpp", flags},
            {"frontend/c.cpp", flags},
            {"frontend/d.cpp", flags},
            {"frontend/e.cpp", flags}});
  auto findings = [](const nlohmann::json& j) {
    std::set<std::string> found;
    for (const auto& d : j.at("diagnostics"))
      found.insert(d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()) + " " +
                   d.at("code").get<std::string>());
    for (const auto& f : j.at("failures")) found.insert(f.at("file").get<std::string>() + " failed");
    for (const auto& f : j.at("partial"))
      found.insert(f.at("file").get<std::string>() +
                   " partial: " + f.at("errors").at(0).at("message").get<std::string>());
    return found;
  };
  Outcome shared = run("check -p build --no-cache --format json --statistics");
  EXPECT_EQ(shared.exit_code, 3) << shared.out << shared.err;
  auto j = nlohmann::json::parse(shared.out);
  const auto& parses = j.at("statistics").at("parses");
  EXPECT_EQ(parses.at("units"), 5) << shared.out;
  EXPECT_EQ(parses.at("prefixes"), 1) << shared.out;
  EXPECT_EQ(parses.at("prefixed_units"), 2) << "a and b; not c and e (errors), not d (_GLIBCXX_DEBUG)\n"
                                            << shared.out;
  std::set<std::string> found = findings(j);
  EXPECT_EQ(found.count("frontend/a.cpp:5 EL200"), 1u) << shared.out;
  EXPECT_EQ(found.count("frontend/include/twice.hpp:4 EL200"), 1u) << shared.out;
  EXPECT_EQ(found.count("frontend/include/thrice.hpp:5 EL200"), 1u) << shared.out;
  EXPECT_EQ(parses.at("batches"), 1) << shared.out;
  EXPECT_EQ(found.count("frontend/b.cpp:6 EL201"), 1u) << shared.out;
  EXPECT_EQ(found.count("frontend/d.cpp:5 EL200"), 1u) << shared.out;
  EXPECT_EQ(std::count_if(found.begin(), found.end(),
                          [](const std::string& f) {
                            return f.rfind("frontend/c.cpp partial: ", 0) == 0 &&
                                   f.find("undeclared_name") != std::string::npos;
                          }),
            1)
      << shared.out;
  EXPECT_EQ(shared.out.find("emberlint-prefix"), std::string::npos) << shared.out;
  Outcome own = run("check -p build --no-cache --format json --statistics --no-shared-prefix");
  auto o = nlohmann::json::parse(own.out);
  EXPECT_EQ(o.at("statistics").at("parses").at("prefixes"), 0) << own.out;
  EXPECT_EQ(findings(o), found) << own.out;
}

// The headers parsed for their bodies share a parse per command: a batch, one unit that includes each of
// them. Headers that do not go together (the same function defined twice) are parsed again alone, so that
// each still gets its findings; nothing of the batch's own unit shows in the report.
TEST_F(Fidelity, HeaderBodiesAreParsedInBatchesAndAloneWhenTheyClash) {
  tensor_project();
  write_file(dir_ / "frontend/include/use_a.hpp",
             "#pragma once\n#include \"tensor.hpp\"\n"
             "inline ns::Tensor twice(const ns::Tensor& a) { return a + a; }\n");
  write_file(dir_ / "frontend/include/use_b.hpp",
             "#pragma once\n#include \"tensor.hpp\"\n"
             "inline bool nonzero(const ns::Tensor& t) {\n  if (t) return true;\n  return false;\n}\n");
  write_file(dir_ / "frontend/include/clash_x.hpp",
             "#pragma once\n#include \"tensor.hpp\"\n\n"
             "inline ns::Tensor pick(const ns::Tensor& a) { return a + a; }\n");
  write_file(dir_ / "frontend/include/clash_y.hpp",
             "#pragma once\n#include \"tensor.hpp\"\n\n\n"
             "inline ns::Tensor pick(const ns::Tensor& a) { return a + a; }\n");
  // Headers no unit includes, parsed with the flags of their nearest unit: one includes an SDK header this
  // machine lacks. Alone it would miss it too, so it keeps what the batch parsed of it, as a partial parse.
  write_file(dir_ / "frontend/include/unread_ok.hpp",
             "#pragma once\n#include \"tensor.hpp\"\n"
             "inline ns::Tensor sum(const ns::Tensor& a) { return a + a; }\n");
  write_file(dir_ / "frontend/include/unread_sdk.hpp",
             "#pragma once\n#include <missing_sdk.h>\n#include \"tensor.hpp\"\n\n"
             "inline ns::Tensor total(const ns::Tensor& a) { return a + a; }\n");
  // Two headers of the eigen backend that no unit includes: one turns on the block of a shared header that
  // includes Eigen. That is the backend's use (as when a unit of it does so), not the frontend's: no EL100.
  write_file(dir_ / "frontend/include/shared.hpp",
             "#pragma once\n#if defined(SHARED_WITH_EIGEN)\n#include <Eigen/Core>\n#endif\n");
  write_file(
      dir_ / "backends/eigen/eigen_a.hpp",
      "#pragma once\n#define SHARED_WITH_EIGEN\n#include \"shared.hpp\"\ninline int a() { return 1; }\n");
  write_file(dir_ / "backends/eigen/eigen_b.hpp", "#pragma once\ninline int b() { return 2; }\n");
  write_file(dir_ / "frontend/main.cpp", "#include \"use_a.hpp\"\n#include \"use_b.hpp\"\nint main() {}\n");
  write_file(dir_ / "frontend/x.cpp", "#include \"clash_x.hpp\"\n");
  write_file(dir_ / "frontend/y.cpp", "#include \"clash_y.hpp\"\n");
  const std::string flags = "/usr/bin/g++ -std=c++17 -Ifrontend/include -Ivendor";
  database(
      {{"frontend/main.cpp", flags}, {"frontend/x.cpp", flags + " -DX"}, {"frontend/y.cpp", flags + " -DX"}});
  const std::string cache = "--cache-dir " + (dir_ / "cache").string();
  Outcome r = run("check -p build --format json --statistics " + cache);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.find(".emberlint-headers"), std::string::npos) << r.out;
  auto j = nlohmann::json::parse(r.out);
  std::set<std::string> found;
  for (const auto& d : j.at("diagnostics"))
    found.insert(d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()) + " " +
                 d.at("code").get<std::string>());
  EXPECT_EQ(found, (std::set<std::string>{
                       "frontend/include/use_a.hpp:3 EL200", "frontend/include/use_b.hpp:4 EL201",
                       "frontend/include/clash_x.hpp:4 EL200", "frontend/include/clash_y.hpp:5 EL200",
                       "frontend/include/unread_ok.hpp:3 EL200", "frontend/include/unread_sdk.hpp:5 EL200"}))
      << r.out;
  EXPECT_TRUE(j.at("failures").empty()) << r.out;
  // use_a and use_b in one batch; clash_x and clash_y in another, where clash_y's pick is a redefinition:
  // clash_x keeps the batch's result, clash_y is parsed again alone; unread_ok and unread_sdk in a third,
  // eigen_a and eigen_b (another layer) in a fourth.
  EXPECT_EQ(j.at("statistics").at("parses"), (nlohmann::json{{"units", 3},
                                                             {"headers", 8},
                                                             {"batches", 4},
                                                             {"headers_alone", 1},
                                                             {"prefixes", 0},
                                                             {"prefixed_units", 0}}))
      << r.out;
  // Each header has its own cache entry: a warm run parses nothing and reports the same.
  Outcome warm = run("check -p build --format json --statistics " + cache);
  auto w = nlohmann::json::parse(warm.out);
  EXPECT_EQ(w.at("statistics").at("parses"), (nlohmann::json{{"units", 0},
                                                             {"headers", 0},
                                                             {"batches", 0},
                                                             {"headers_alone", 0},
                                                             {"prefixes", 0},
                                                             {"prefixed_units", 0}}))
      << warm.out;
  EXPECT_EQ(w.at("diagnostics"), j.at("diagnostics"));
}

}  // namespace
