// End-to-end tests of the emberlint executable: every exit code, every format, and the bad inputs a user
// will hit (broken configs, missing databases and paths, unparsable, non-UTF-8 and huge files, g++ flags).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::run_in;
using emberlint::test::scratch_dir;
using emberlint::test::write_file;

namespace {

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("cli");
    write_file(dir_ / ".emberlint.json", R"({
      // a small project: a frontend, one backend, a stand-in Eigen
      "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}, "tests": ["tests/**"]},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "exclude": ["build/**"],
      "compile_flags": ["-std=c++20", "-isystem", "vendor", "-Iinclude"]
    })");
    write_file(dir_ / "vendor/Eigen/Core",
               "#pragma once\nnamespace Eigen { struct MatrixXd { long rows() const { return 0; } }; }\n");
    write_file(dir_ / "backends/eigen/ops.cpp",
               "#include <Eigen/Core>\nlong f() { return Eigen::MatrixXd().rows(); }\n");
    write_file(dir_ / "frontend/clean.cpp", "int twice(int n) { return n * 2 - 1; }\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::string& args) { return run_in(dir_, emberlint::test::emberlint() + " " + args); }

  void add_finding() {
    write_file(dir_ / "frontend/bad.cpp", "#include <Eigen/Core>\nint g() { return 1; }\n");
  }

  fs::path dir_;
};

TEST_F(Cli, CleanTreeExitsZero) {
  Outcome r = run("check");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("No problems in 2 files."), std::string::npos) << r.out;
}

TEST_F(Cli, FindingsExitOneInClangStyleWithSnippetAndCaret) {
  add_finding();
  Outcome r = run("check");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(
      r.out.find("frontend/bad.cpp:1:1: warning: frontend file includes 'Eigen/Core', a header of library "
                 "Eigen (backend 'eigen'); reach the backend through the ops interface "
                 "[EL100 frontend-includes-backend]\n#include <Eigen/Core>\n^~~~~~~~~~~~~~~~~~~~~\n"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("\033["), std::string::npos) << "no color when stdout is not a terminal";
  EXPECT_NE(run("check --color always").out.find("\033["), std::string::npos);
}

// --help names the program, as a user would type it: "Usage: emberlint [OPTIONS]", not "Usage: [OPTIONS]".
TEST_F(Cli, HelpNamesTheProgram) {
  for (const std::string args : {"--help", "check --help", "merge --help"}) {
    Outcome r = run(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    const std::string command = args.substr(0, args.find("--help"));
    EXPECT_NE(r.out.find("Usage: emberlint " + command), std::string::npos) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find("Usage: [OPTIONS]"), std::string::npos) << args << "\n" << r.out;
  }
}

TEST_F(Cli, ExitZeroTurnsFindingsIntoSuccessOnly) {
  add_finding();
  EXPECT_EQ(run("check --exit-zero").exit_code, 0);
  write_file(dir_ / "frontend/broken.cpp", "int broken( {\n");
  EXPECT_EQ(run("check --exit-zero").exit_code, 3);
}

TEST_F(Cli, JsonFollowsTheSchema) {
  add_finding();
  Outcome r = run("check --format json --statistics");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("tool"), "emberlint");
  EXPECT_TRUE(j.at("version").is_string());
  EXPECT_EQ(j.at("files_analyzed"), 3);
  ASSERT_EQ(j.at("diagnostics").size(), 1u);
  const auto& d = j.at("diagnostics").at(0);
  EXPECT_EQ(d.at("code"), "EL100");
  EXPECT_EQ(d.at("name"), "frontend-includes-backend");
  EXPECT_EQ(d.at("severity"), "warning");
  EXPECT_EQ(d.at("file"), "frontend/bad.cpp");
  EXPECT_EQ(d.at("line"), 1);
  EXPECT_EQ(d.at("column"), 1);
  EXPECT_EQ(d.at("end_line"), 1);
  EXPECT_EQ(d.at("end_column"), 22);
  EXPECT_TRUE(d.at("fix").is_array());
  EXPECT_TRUE(j.at("failures").is_array());
  EXPECT_EQ(j.at("statistics").at("EL100"), 1);
}

TEST_F(Cli, TextStatisticsAndOutputFile) {
  add_finding();
  Outcome r = run("check --statistics -o report.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  std::string report = read_file(dir_ / "report.txt");
  EXPECT_NE(report.find("    1  EL100  frontend-includes-backend\n"), std::string::npos) << report;
}

// One check, several reports: each -o in its extension's format and byte for byte what that format alone
// prints; an output folder gets one report per format.
TEST_F(Cli, OneRunWritesSeveralReportsByExtension) {
  add_finding();
  Outcome r = run("check --no-cache -o out/r.json -o r.sarif -o r.txt -o r.xml");
  EXPECT_EQ(r.exit_code, 2) << "out/ does not exist: nothing runs\n" << r.err;
  EXPECT_NE(r.err.find("-o out/r.json: "), std::string::npos) << r.err;
  r = run("check --no-cache -o r.json -o r.sarif -o r.txt -o r.xml");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(read_file(dir_ / "r.json"), run("check --no-cache --format json").out);
  EXPECT_EQ(read_file(dir_ / "r.sarif"), run("check --no-cache --format sarif").out);
  EXPECT_EQ(read_file(dir_ / "r.txt"), run("check --no-cache --format text").out);
  EXPECT_EQ(read_file(dir_ / "r.xml"), run("check --no-cache --format junit").out);
  EXPECT_NE(r.err.find("wrote r.sarif (sarif)"), std::string::npos) << r.err;

  Outcome folder = run("check --no-cache -o reports/");
  EXPECT_EQ(folder.exit_code, 1) << folder.err;
  for (const char* name :
       {"emberlint.txt", "emberlint.json", "emberlint.sarif", "emberlint.xml", "emberlint.md"})
    EXPECT_TRUE(fs::is_regular_file(dir_ / "reports" / name)) << name;
  EXPECT_EQ(run("check -o a.json -o b.yaml").exit_code, 2);
}

// EL101 reports a file's uses of one symbol once; --statistics ranks the files and the symbols by use.
TEST_F(Cli, StatisticsRankFilesAndSymbolsAndUsesAreGrouped) {
  write_file(
      dir_ / "frontend/uses.cpp",
      "#include <Eigen/Core>\nlong a() { Eigen::MatrixXd m; return m.rows(); }\n"
      "long b() { Eigen::MatrixXd m; return m.rows(); }\nlong c() { Eigen::MatrixXd m; return m.rows(); }\n");
  Outcome text = run("check --no-cache --statistics");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("(3 uses in this file; also lines 3, 4)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("files with the most findings:\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("symbols used most (EL101, EL104: uses):\n"
                          "    3  EL101  'Eigen::MatrixXd' of library Eigen (backend 'eigen')\n"),
            std::string::npos)
      << text.out;
  Outcome json_run = run("check --no-cache --statistics --format json");
  auto doc = nlohmann::json::parse(json_run.out);
  EXPECT_EQ(doc.at("statistics").at("EL101"), 2);  // Eigen::MatrixXd and the rows() called on it
  EXPECT_EQ(doc.at("statistics").at("top_symbols").at(0).at("uses"), 3);
  EXPECT_EQ(doc.at("statistics").at("top_symbols").at(1).at("uses"), 3);
  EXPECT_EQ(doc.at("statistics").at("top_files").at(0).at("file"), "frontend/uses.cpp");
}

TEST_F(Cli, SeveritiesFromTheConfigAndSelectIgnore) {
  add_finding();
  EXPECT_EQ(run("check --ignore EL100").exit_code, 0);
  EXPECT_EQ(run("check --select EL101").exit_code, 0);
  EXPECT_EQ(run("check --select EL1").exit_code, 1);
  Outcome bad = run("check --select EL999");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--select: unknown rule 'EL999'"), std::string::npos) << bad.err;
  write_file(dir_ / "frontend/.emberlint.json", R"({"inherit": true, "rules": {"EL100": "info"}})");
  Outcome info = run("check");
  EXPECT_EQ(info.exit_code, 0) << "info does not fail the run";
  EXPECT_NE(info.out.find(": info: "), std::string::npos) << info.out;
}

// The inventory rules of `analyze` are rules like the others: a config may set their severity and check
// accepts them in --select, so one .emberlint.json serves both commands.
TEST_F(Cli, InventoryRulesAreKnownToCheckAndItsConfig) {
  write_file(dir_ / "frontend/.emberlint.json",
             R"({"inherit": true, "rules": {"EL403": "error", "stub-op": "off"}})");
  Outcome with_config = run("check");
  EXPECT_EQ(with_config.exit_code, 0) << with_config.err;
  EXPECT_EQ(run("check --select EL4,EL100").exit_code, 0);
  Outcome explained = run("rule missing-op");
  EXPECT_EQ(explained.exit_code, 0);
  EXPECT_NE(explained.out.find("# EL400 missing-op"), std::string::npos) << explained.out;
}

TEST_F(Cli, RulesAndRuleExplainEveryRule) {
  Outcome r = run("rules");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* code : {"EL001", "EL100", "EL101", "EL102", "EL103", "EL104", "EL200", "EL201", "EL202",
                           "EL300", "EL301", "EL302", "EL303", "EL400", "EL401", "EL402", "EL403"}) {
    EXPECT_NE(r.out.find(code), std::string::npos) << code;
  }
  std::string el200_row = r.out.substr(r.out.find("EL200  tensor-operator"));
  el200_row = el200_row.substr(0, el200_row.find('\n'));
  EXPECT_NE(el200_row.find(" operators  warning   yes "), std::string::npos) << el200_row;
  Outcome el200 = run("rule EL200");
  EXPECT_NE(el200.out.find("Fixable: yes"), std::string::npos) << el200.out;
  Outcome one = run("rule frontend-uses-backend-symbol");
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_NE(one.out.find("# EL101 frontend-uses-backend-symbol"), std::string::npos);
  EXPECT_NE(one.out.find("## Why is this bad?"), std::string::npos);
  Outcome unknown = run("rule EL999");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown rule 'EL999'"), std::string::npos);
}

TEST_F(Cli, FixesOfATensorOperatorInJsonAndAnUnwritableExportIsAUsageError) {
  write_file(
      dir_ / "include/t.hpp",
      "#pragma once\nnamespace ember { struct Tensor {}; Tensor operator+(const Tensor&, const Tensor&);\n"
      "namespace ops { Tensor add(const Tensor&, const Tensor&); } }\n");
  write_file(dir_ / ".emberlint.json",
             R"({"layers": {"frontend": ["frontend/**"]}, "tensor_types": ["ember::Tensor"],
                 "rules": {"EL200": {"ops_namespace": "ember::ops"}},
                 "compile_flags": ["-std=c++20", "-Iinclude"]})");
  write_file(dir_ / "frontend/sum.cpp",
             "#include <t.hpp>\nember::Tensor f(ember::Tensor a, ember::Tensor b) { return a + b; }\n");
  Outcome r = run("check --format json frontend");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.at("diagnostics").size(), 1u) << r.out;
  const auto& fix = doc.at("diagnostics").at(0).at("fix");
  ASSERT_EQ(fix.size(), 1u);
  EXPECT_EQ(fix[0], nlohmann::json({{"file", "frontend/sum.cpp"},
                                    {"offset", 76},
                                    {"length", 5},
                                    {"replacement", "ember::ops::add(a, b)"}}));
  Outcome bad = run("check --export-fixes no/such/folder/fixes.yaml frontend");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("--export-fixes no/such/folder/fixes.yaml: cannot write this file"),
            std::string::npos)
      << bad.err;
}

// Uses of a backend's declarations that need nothing of it at link or run time (decltype, sizeof, a pointer
// to a class the unit never sees defined) are findings only when the config asks for them.
TEST_F(Cli, TypeOnlyUsesOfABackendAreReportedOnlyWhenAsked) {
  write_file(dir_ / "vendor/lib.h",
             "#pragma once\nextern \"C\" int lib_call(int);\n"
             "namespace lib { class Handle; struct Big { double d[4]; }; }\n");
  write_file(dir_ / "frontend/a.cpp",
             "#include <lib.h>\nusing Fn = decltype(&lib_call);\n"
             "unsigned long n() { return sizeof(lib::Big); }\nvoid keep(lib::Handle* h);\n"
             "int call() { return lib_call(1); }\n");
  const std::string layers = R"("layers": {"frontend": ["frontend/**"], "backends": {"x": ["backends/x/**"]}},
      "libraries": {"Lib": {"backend": "x", "headers": ["lib.h"], "namespaces": ["lib"], "symbols": ["lib_*"]}},
      "compile_flags": ["-std=c++20", "-isystem", "vendor"])";
  auto uses = [&](const std::string& rules) {
    write_file(dir_ / ".emberlint.json", "{" + layers + rules + "}");
    Outcome r = run("check --no-cache --format json frontend/a.cpp");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& d : doc.at("diagnostics")) {
      out[d.at("code").get<std::string>()].push_back(std::to_string(d.at("line").get<int>()) + " " +
                                                     d.at("message").get<std::string>());
    }
    return out;
  };
  auto plain = uses("");
  ASSERT_EQ(plain["EL101"].size(), 1u) << testing::PrintToString(plain);
  EXPECT_EQ(plain["EL101"][0].rfind("5 frontend code uses 'lib_call'", 0), 0u) << plain["EL101"][0];
  ASSERT_EQ(plain["EL102"].size(), 1u) << testing::PrintToString(plain);  // call(), not n()
  EXPECT_EQ(plain["EL102"][0].rfind("5 ", 0), 0u);
  auto all = uses(R"(, "rules": {"EL101": {"report_type_only": true}, "EL102": {"report_type_only": true}})");
  // Each symbol's type-only uses are one finding, its real uses another.
  std::set<std::string> lines;
  for (const auto& m : all["EL101"]) {
    lines.insert(m.substr(0, m.find(' ')));
    EXPECT_EQ(m.find("(type only") != std::string::npos, m.rfind("5 ", 0) != 0) << m;
  }
  EXPECT_EQ(lines, (std::set<std::string>{"2", "3", "4", "5"})) << testing::PrintToString(all);
  EXPECT_EQ(all["EL102"].size(), 2u) << testing::PrintToString(all);
}

// Another code base's tensor operators are its API: without rules.EL200.ops_namespace the finding says to use
// the ops API and offers no fix, rather than a rewrite to ember::ops.
TEST_F(Cli, WithoutAnOpsNamespaceTensorOperatorsHaveNoFix) {
  write_file(
      dir_ / "include/t.hpp",
      "#pragma once\nnamespace mine { struct Tensor {}; Tensor operator+(const Tensor&, const Tensor&);\n"
      "namespace ops { Tensor add(const Tensor&, const Tensor&); } }\n");
  write_file(dir_ / ".emberlint.json",
             R"({"layers": {"frontend": ["frontend/**"]}, "tensor_types": ["mine::Tensor"],
                 "compile_flags": ["-std=c++20", "-Iinclude"]})");
  write_file(dir_ / "frontend/sum.cpp",
             "#include <t.hpp>\nmine::Tensor f(mine::Tensor a, mine::Tensor b) { return a + b; }\n");
  Outcome r = run("check --no-cache --format json frontend");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.at("diagnostics").size(), 1u) << r.out;
  const auto& d = doc.at("diagnostics").at(0);
  EXPECT_TRUE(d.value("fix", nlohmann::json::array()).empty()) << d.dump();
  EXPECT_NE(d.at("message").get<std::string>().find("no ops namespace to call (rules.EL200.ops_namespace)"),
            std::string::npos)
      << d.dump();
  EXPECT_EQ(r.out.find("ember::ops"), std::string::npos) << r.out;
}

// A folder shared by two backends (MLX's backend/gpu for metal and cuda) is each one's own: metal and cuda
// use it freely. The shared code must suit both: its use of cuda's own folder is metal's cross-backend
// dependency, and the message names metal.
TEST_F(Cli, AFolderSharedByTwoBackendsIsEachOnesOwn) {
  write_file(dir_ / ".emberlint.json", R"({
    "layers": {"frontend": ["frontend/**"],
               "backends": {"metal": ["be/metal/**", "be/gpu/**"], "cuda": ["be/cuda/**", "be/gpu/**"]}},
    "compile_flags": ["-std=c++20", "-I."]
  })");
  write_file(dir_ / "be/gpu/copy.h", "#pragma once\ninline int gpu_copy(int n) { return n; }\n");
  write_file(dir_ / "be/cuda/stream.h", "#pragma once\ninline int cuda_stream() { return 7; }\n");
  write_file(dir_ / "be/metal/add.cpp",
             "#include \"be/gpu/copy.h\"\nint metal_add() { return gpu_copy(1); }\n");
  write_file(dir_ / "be/cuda/add.cpp",
             "#include \"be/gpu/copy.h\"\n#include \"be/cuda/stream.h\"\n"
             "int cuda_add() { return gpu_copy(cuda_stream()); }\n");
  fs::remove_all(dir_ / "frontend");
  fs::remove_all(dir_ / "backends");
  Outcome own = run("check --no-cache --format json");
  EXPECT_EQ(own.exit_code, 0) << own.out << own.err;

  write_file(dir_ / "be/gpu/sync.cpp",
             "#include \"be/cuda/stream.h\"\nint gpu_sync() { return cuda_stream(); }\n");
  Outcome shared = run("check --no-cache --format json");
  EXPECT_EQ(shared.exit_code, 1) << shared.err;
  const auto doc = nlohmann::json::parse(shared.out);
  std::set<std::string> messages;
  for (const auto& d : doc.at("diagnostics"))
    messages.insert(d.at("code").get<std::string>() + " " + d.at("file").get<std::string>() + ": " +
                    d.at("message").get<std::string>());
  EXPECT_EQ(messages, (std::set<std::string>{
                          "EL103 be/gpu/sync.cpp: backend 'metal' includes 'be/cuda/stream.h', a header of "
                          "backend 'cuda'",
                          "EL103 be/gpu/sync.cpp: backend 'metal' uses 'cuda_stream' of backend 'cuda'"}))
      << shared.out;
}

// A plain library symbol glob ("gpu[A-Z]*", a C API's names) does not own what the project declares in a
// namespace of its own, nor what a backend's public header declares: ncnn-style run-time-loaded entry points
// (`extern PFN_x gpuFlush;` in the project's namespace) are the project's. A global-namespace name the
// project only redeclares in a backend header is still the library's.
TEST_F(Cli, APlainSymbolGlobOwnsNoNameOfTheProjectsNamespaceOrPublicHeaders) {
  write_file(dir_ / ".emberlint.json", R"({
    "layers": {"frontend": ["frontend/**"],
               "backends": {"gpu": {"paths": ["gpu/**"], "public": ["gpu/gpu_api.h"]}}},
    "libraries": {"GpuAPI": {"backend": "gpu", "headers": ["gpuapi/**"], "symbols": ["gpu[A-Z]*"]}},
    "compile_flags": ["-std=c++20", "-I."]
  })");
  fs::remove_all(dir_ / "backends");
  write_file(
      dir_ / "gpu/gpu_api.h",
      "#pragma once\nnamespace proj {\nusing PFN_flush = int (*)(int);\nextern PFN_flush gpuFlush;\n}\n"
      "int gpuReset(int);\n");
  write_file(dir_ / "gpu/gpu_impl.h", "#pragma once\nextern \"C\" int gpuQueueSubmit(int);\n");
  write_file(dir_ / "frontend/alloc.cpp",
             "#include \"gpu/gpu_api.h\"\nint flush() { return proj::gpuFlush(1) + gpuReset(2); }\n");
  Outcome own = run("check --no-cache --format json");
  EXPECT_EQ(own.exit_code, 0) << own.out << own.err;

  write_file(dir_ / "frontend/submit.cpp",
             "extern \"C\" int gpuQueueSubmit(int);\nint submit() { return gpuQueueSubmit(3); }\n");
  Outcome library = run("check --no-cache --format json");
  EXPECT_EQ(library.exit_code, 1) << library.err;
  const auto doc = nlohmann::json::parse(library.out);
  std::set<std::string> where;
  for (const auto& d : doc.at("diagnostics"))
    where.insert(d.at("code").get<std::string>() + " " + d.at("file").get<std::string>());
  EXPECT_EQ(where, (std::set<std::string>{"EL101 frontend/submit.cpp", "EL102 frontend/submit.cpp"}))
      << library.out;
}

// Ownership that fits real designs: a backend built on another's sources ("uses"), a library serving two
// backends, a backend's public dispatch header, tests that belong to a backend. What the config allows is
// not reported; the same code without the allowance is.
TEST_F(Cli, BackendsThatUseOthersPublicHeadersAndSharedLibrariesAreNotReported) {
  write_file(dir_ / ".emberlint.json", R"({
    "layers": {
      "frontend": ["frontend/**"],
      "backends": {
        "cuda": {"paths": ["cuda/**"], "public": ["cuda/cuda_api.h"], "tests": ["tests/cuda/**"]},
        "hip": {"paths": ["hip/**"], "uses": ["cuda"]},
        "blas": ["blas/**"],
        "eigen": ["backends/eigen/**"]
      },
      "tests": ["tests/**"]
    },
    "libraries": {
      "Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]},
      "BLAS": {"backend": ["blas", "eigen"], "headers": ["cblas.h"], "symbols": ["cblas_*"]}
    },
    "compile_flags": ["-std=c++20", "-isystem", "vendor", "-I."]
  })");
  write_file(dir_ / "vendor/cblas.h", "#pragma once\nextern \"C\" double cblas_ddot(int);\n");
  write_file(dir_ / "cuda/cuda_api.h", "#pragma once\nint cuda_device_count();\n");
  write_file(dir_ / "cuda/kernels.h", "#pragma once\nint cuda_kernel(int);\n");
  write_file(dir_ / "hip/ops.cpp", "#include \"cuda/kernels.h\"\nint hip_op() { return cuda_kernel(1); }\n");
  write_file(dir_ / "backends/eigen/dot.cpp", "#include <cblas.h>\ndouble dot() { return cblas_ddot(1); }\n");
  write_file(dir_ / "frontend/devices.cpp",
             "#include \"cuda/cuda_api.h\"\nint devices() { return cuda_device_count(); }\n");
  write_file(dir_ / "tests/cuda/kernel_test.cpp",
             "#include \"cuda/kernels.h\"\nint test_kernel() { return cuda_kernel(2); }\n");
  Outcome allowed = run("check --no-cache --format json");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;

  // Without the allowances: blas's own code may still use BLAS, the rest is reported.
  write_file(dir_ / "blas/gemm.cpp", "#include \"cuda/kernels.h\"\nint gemm() { return cuda_kernel(3); }\n");
  write_file(dir_ / "tests/plain_test.cpp",
             "#include \"cuda/kernels.h\"\nint test_plain() { return cuda_kernel(4); }\n");
  Outcome reported = run("check --no-cache --format json");
  EXPECT_EQ(reported.exit_code, 1) << reported.err;
  std::set<std::string> where;
  const auto doc = nlohmann::json::parse(reported.out);
  for (const auto& d : doc.at("diagnostics"))
    where.insert(d.at("code").get<std::string>() + " " + d.at("file").get<std::string>());
  EXPECT_EQ(where, (std::set<std::string>{"EL103 blas/gemm.cpp", "EL104 tests/plain_test.cpp"}))
      << reported.out;

  write_file(dir_ / ".emberlint.json",
             R"({"layers": {"backends": {"hip": {"paths": ["hip/**"], "uses": ["rocm"]}}}})");
  Outcome bad = run("check --no-cache");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("layers.backends.hip.uses: 'rocm' is not a backend in layers.backends"),
            std::string::npos)
      << bad.err;
}

// A config that enforces nothing says so, in one line each, instead of a bare "No problems".
TEST_F(Cli, AConfigThatEnforcesNothingSaysWhy) {
  Outcome full = run("check --no-cache");
  EXPECT_EQ(full.err.find("enforce"), std::string::npos) << "backends and libraries: no warning\n"
                                                         << full.err;

  write_file(
      dir_ / ".emberlint.json",
      R"({"layers": {"frontend": ["frontend/**"]}, "compile_flags": ["-std=c++20", "-isystem", "vendor"]})");
  Outcome none = run("check --no-cache --format json");
  EXPECT_EQ(none.exit_code, 0) << none.err << none.out;
  EXPECT_NE(
      none.err.find("emberlint: warning: " + (dir_ / ".emberlint.json").string() +
                    " defines no backend in layers.backends: the purity rules EL100-EL104 enforce nothing"),
      std::string::npos)
      << none.err;
  EXPECT_EQ(nlohmann::json::parse(none.out).at("warnings").size(), 1u) << none.out;

  write_file(dir_ / ".emberlint.json",
             R"({"layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
                 "compile_flags": ["-std=c++20", "-isystem", "vendor"]})");
  EXPECT_NE(run("check --no-cache").err.find("defines no library"), std::string::npos);

  // A layer glob whose folder does not exist (a typo, a moved folder) matches nothing: said, in every format.
  write_file(dir_ / ".emberlint.json",
             R"({"layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigne/**"]}},
                 "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"]}},
                 "compile_flags": ["-std=c++20", "-isystem", "vendor"]})");
  Outcome typo = run("check --no-cache --format json");
  EXPECT_NE(typo.err.find("layers.backends.eigen \"backends/eigne/**\" matches no file (backends/eigne does "
                          "not exist)"),
            std::string::npos)
      << typo.err;
  EXPECT_EQ(nlohmann::json::parse(typo.out).at("warnings").size(), 1u) << typo.out;

  const fs::path other = scratch_dir("cli_other");
  write_file(other / ".emberlint.json",
             R"({"layers": {"frontend": ["src/**"], "backends": {"b": ["b/**"]}},
                 "libraries": {"L": {"backend": "b", "headers": ["l.h"]}}})");
  Outcome outside = run("check --no-cache --config " + (other / ".emberlint.json").string() + " frontend");
  EXPECT_NE(outside.err.find("is outside the checked files"), std::string::npos) << outside.err;
  fs::remove_all(other);
}

// An opaque handle: the frontend declares `struct handle;` and uses pointers to it, a backend defines it. The
// frontend header's uses are not EL101, whichever unit the header is seen through (the backend's unit sees
// the definition); a backend type the frontend did not declare still is.
TEST_F(Cli, AnOpaqueHandleDeclaredByTheFrontendAndDefinedInABackendIsTheFrontends) {
  write_file(dir_ / "frontend/handle.h",
             "#pragma once\nstruct handle;\nhandle* make_handle();\nint handle_size(const handle* h);\n");
  write_file(dir_ / "frontend/user.cpp",
             "#include \"handle.h\"\nint user() { return handle_size(make_handle()); }\n");
  write_file(
      dir_ / "backends/eigen/handle.cpp",
      "#include \"../../frontend/handle.h\"\nstruct handle { int n; };\nstruct hidden { int m; };\n"
      "handle* make_handle() { return new handle{1}; }\nint handle_size(const handle* h) { return h->n; }\n");
  Outcome clean = run("check --no-cache --format json");
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;

  write_file(dir_ / "backends/eigen/hidden.h", "#pragma once\nstruct hidden { int m; };\n");
  write_file(dir_ / "frontend/leak.cpp",
             "#include \"../backends/eigen/hidden.h\"\nint leak(hidden* h) { return h != 0; }\n");
  Outcome leak = run("check --no-cache --format json");
  EXPECT_EQ(leak.exit_code, 1) << leak.err;
  EXPECT_NE(leak.out.find("frontend code uses 'hidden' of backend 'eigen'"), std::string::npos) << leak.out;
  EXPECT_EQ(leak.out.find("'handle'"), std::string::npos) << leak.out;
}

TEST_F(Cli, UnknownFlagIsAUsageError) {
  Outcome r = run("check --bogus");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--bogus"), std::string::npos) << r.err;
  EXPECT_EQ(run("check --format yaml").exit_code, 2);
}

TEST_F(Cli, InvalidJsonConfigNamesLineAndColumn) {
  write_file(dir_ / ".emberlint.json", "{\n  \"layers\": {\n    \"frontend\": [\"frontend/**\",]\n  }\n}\n");
  Outcome r = run("check");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(".emberlint.json:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("invalid JSON"), std::string::npos) << r.err;
}

TEST_F(Cli, UnknownKeyAndBadGlobAreConfigErrors) {
  write_file(dir_ / ".emberlint.json", R"({"layers": {"frontend": ["frontend/**"]}, "excludes": []})");
  Outcome r = run("check");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("$: unknown key 'excludes' (did you mean 'exclude'?)"), std::string::npos) << r.err;
  write_file(dir_ / ".emberlint.json", R"({"layers": {"frontend": ["frontend/[abc"]}})");
  r = run("check");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("layers.frontend[0]: bad glob 'frontend/[abc': unclosed '['"), std::string::npos)
      << r.err;
}

TEST_F(Cli, ConfigErrorOutranksEverything) {
  write_file(dir_ / "frontend/broken.cpp", "int broken( {\n");
  write_file(dir_ / ".emberlint.json", R"({"layers": 1})");
  EXPECT_EQ(run("check").exit_code, 2);
}

TEST_F(Cli, MissingCompileDatabaseAndMissingPath) {
  Outcome r = run("check -p nowhere");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-p nowhere: no such folder"), std::string::npos) << r.err;
  fs::create_directories(dir_ / "build");
  r = run("check -p build");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no compile_commands.json"), std::string::npos) << r.err;
  r = run("check frontend/missing.cpp");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("frontend/missing.cpp: no such file or folder"), std::string::npos) << r.err;
}

TEST_F(Cli, UnparsableFileExitsThreeAndTheOthersAreStillReported) {
  add_finding();
  // A syntax error: what parsed is still analyzed (a partial unit, exit 3 unless expected).
  write_file(dir_ / "frontend/broken.cpp", "#include <Eigen/Core>\nint ok() { return 0; }\nint broken( {\n");
  Outcome r = run("check --format json");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.at("diagnostics").size(), 2u) << r.out;
  EXPECT_EQ(j.at("diagnostics").at(0).at("file"), "frontend/bad.cpp");
  EXPECT_EQ(j.at("diagnostics").at(1).at("file"), "frontend/broken.cpp");
  EXPECT_TRUE(j.at("failures").empty());
  ASSERT_EQ(j.at("partial").size(), 1u);
  EXPECT_EQ(j.at("partial").at(0).at("file"), "frontend/broken.cpp");
  EXPECT_EQ(j.at("partial").at(0).at("cause"), "other");
  EXPECT_NE(j.at("partial").at(0).at("message").get<std::string>().find("frontend/broken.cpp:3:"),
            std::string::npos);
  Outcome text = run("check");
  EXPECT_NE(
      text.out.find("frontend/broken.cpp: warning: analyzed partially (other error): frontend/broken.cpp:3:"),
      std::string::npos)
      << text.out;
  // A file that cannot be read is no unit at all: a failure.
  write_file(dir_ / "build/compile_commands.json",
             "[{\"directory\": \"" + dir_.string() +
                 "\", \"file\": \"frontend/gone.cpp\", \"command\": \"c++ -c frontend/gone.cpp\"}]");
  Outcome gone = run("check -p build --format json");
  EXPECT_EQ(gone.exit_code, 3) << gone.out;
  auto g = nlohmann::json::parse(gone.out);
  ASSERT_EQ(g.at("failures").size(), 1u) << gone.out;
  EXPECT_EQ(g.at("failures").at(0).at("message"), "no such file");
  // A database entry whose source is not there is one the build writes (a build-info.cpp): its own cause,
  // which a config of a configured but unbuilt tree can expect.
  EXPECT_EQ(g.at("failures").at(0).at("cause"), "missing-generated-file") << gone.out;
  EXPECT_FALSE(g.at("failures").at(0).at("expected").get<bool>());
  write_file(dir_ / ".emberlint.json",
             R"({"layers": {"frontend": ["frontend/**"]}, "expected_parse_errors": {"frontend/gone.cpp": )"
             R"(["missing-generated-file"]}})");
  Outcome expected = run("check -p build --format json");
  EXPECT_EQ(expected.exit_code, 0) << expected.out << expected.err;
  EXPECT_TRUE(nlohmann::json::parse(expected.out).at("failures").at(0).at("expected").get<bool>());
}

// With a compile database, a project header with code that no unit includes (header-only code) is checked on
// its own with its nearest source's flags; a header of declarations only needs no parse of its own.
TEST_F(Cli, HeaderCodeNoUnitIncludesIsCheckedWithACompileDatabase) {
  write_file(dir_ / "frontend/orphan.hpp",
             "#pragma once\n#include <Eigen/Core>\ninline long h() { return Eigen::MatrixXd().rows(); }\n");
  write_file(dir_ / "frontend/declarations.hpp", "#pragma once\n#include <Eigen/Core>\nlong g();\n");
  write_file(dir_ / "build/compile_commands.json",
             "[{\"directory\": \"" + dir_.string() +
                 "\", \"file\": \"frontend/clean.cpp\", \"command\": \"c++ -std=c++20 -isystem vendor -c "
                 "frontend/clean.cpp\"}]");
  Outcome r = run("check --no-cache -p build --format json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  std::set<std::string> found;
  for (const auto& d : doc.at("diagnostics")) {
    found.insert(d.at("file").get<std::string>() + " " + d.at("code").get<std::string>());
  }
  EXPECT_EQ(found, (std::set<std::string>{"frontend/orphan.hpp EL100", "frontend/orphan.hpp EL101",
                                          "frontend/orphan.hpp EL102"}))
      << r.out;
  EXPECT_TRUE(doc.at("failures").empty()) << r.out;
}

TEST_F(Cli, NonUtf8FileIsAnalyzedAndPrintedSafely) {
  // Latin-1 bytes in a comment and a string: clang accepts them; the report must stay valid UTF-8.
  write_file(
      dir_ / "frontend/latin1.cpp",
      "#include <Eigen/Core>\n// caf\xE9\nconst char* s = \"na\xEFve\"; Eigen::MatrixXd m;  // \xE9\n");
  Outcome r = run("check");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("frontend/latin1.cpp:3:33: warning: frontend code uses 'Eigen::MatrixXd'"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("na\xEF\xBF\xBDve"), std::string::npos) << "invalid bytes print as U+FFFD";
  Outcome j = run("check --format json");
  EXPECT_TRUE(nlohmann::json::accept(j.out)) << j.out;
}

TEST_F(Cli, CompileDatabaseWrittenForGccParses) {
  add_finding();
  write_file(dir_ / "include/helper.hpp", "#pragma once\ninline int helper() { return 2; }\n");
  write_file(dir_ / "frontend/uses_helper.cpp",
             "#include <cstddef>\n#include \"helper.hpp\"\nstd::size_t h() { return helper(); }\n");
  nlohmann::json db = nlohmann::json::array();
  for (const char* f : {"frontend/bad.cpp", "frontend/uses_helper.cpp", "backends/eigen/ops.cpp"}) {
    db.push_back(
        {{"directory", dir_.string()},
         {"file", f},
         {"command",
          std::string("/usr/bin/g++ -DNDEBUG -I" + dir_.string() +
                      "/include -isystem vendor -O2 -g -std=gnu++20 -fno-tree-vectorize "
                      "-fconserve-stack -fstack-clash-protection --param max-inline-insns-single=1000 "
                      "-Wl,--as-needed -MD -MT x.o -MF x.o.d -o x.o -c ") +
              f}});
  }
  write_file(dir_ / "build/compile_commands.json", db.dump(2));
  Outcome r = run("check -p build --format json");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("failures").empty()) << j.at("failures").dump();
  EXPECT_EQ(j.at("files_analyzed"), 3);
  ASSERT_EQ(j.at("diagnostics").size(), 1u);
  EXPECT_EQ(j.at("diagnostics").at(0).at("code"), "EL100");
}

TEST_F(Cli, FiftyThousandLineGeneratedFile) {
  std::ostringstream big;
  big << "#include <Eigen/Core>\n";
  for (int i = 1; i < 49999; ++i) big << "inline int f" << i << "(int n) { return n * " << i << " - 1; }\n";
  big << "long last() { return Eigen::MatrixXd().rows(); }\n";
  write_file(dir_ / "frontend/generated.cpp", big.str());
  Outcome r = run("check --format json --select EL100,EL101");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  // EL100 for the include; EL101 for Eigen::MatrixXd and for its rows(), both on the last line.
  ASSERT_EQ(j.at("diagnostics").size(), 3u) << r.out.substr(0, 2000);
  for (int i : {1, 2}) {
    EXPECT_EQ(j.at("diagnostics").at(i).at("line"), 50000);
    EXPECT_EQ(j.at("diagnostics").at(i).at("code"), "EL101");
  }
}

TEST_F(Cli, OutputIsTheSameForAnyNumberOfJobs) {
  add_finding();
  write_file(dir_ / "frontend/more.cpp", "#include <Eigen/Core>\nEigen::MatrixXd m;\n");
  write_file(dir_ / "tests/t.cpp", "#include <Eigen/Core>\nEigen::MatrixXd m;\n");
  Outcome one = run("check -j 1 --format json");
  Outcome two = run("check -j 2 --format json");
  Outcome all = run("check -j 0 --format json");
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.out, all.out);
  EXPECT_EQ(nlohmann::json::parse(one.out).at("diagnostics").size(), 5u) << one.out;
}

TEST_F(Cli, InitWritesAStarterThatChecks) {
  fs::remove(dir_ / ".emberlint.json");
  Outcome r = run("init");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string text = read_file(dir_ / ".emberlint.json");
  EXPECT_NE(text.find("\"eigen\": [\"backends/eigen/**\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("// "), std::string::npos) << "the starter is commented";
  Outcome again = run("init");
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already exists"), std::string::npos);
  Outcome check = run("check --select EL100 frontend");
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
}

}  // namespace
