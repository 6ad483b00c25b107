// Unit tests of emberlint's parts: globs, configuration errors, suppression comments, compile command
// cleaning, the builtin header lookup and the starter config.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"
#include "lint/findings/fixes.hpp"
#include "lint/init/init.hpp"
#include "lint/run/scheduler.hpp"
#include "lint/findings/suppressions.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

TEST(Glob, MatchesComponentsAndDoubleStar) {
  Glob g("backends/eigen/**", "/p");
  EXPECT_TRUE(g.matches_path("/p/backends/eigen/math_ops.cpp"));
  EXPECT_TRUE(g.matches_path("/p/backends/eigen/sub/x.hpp"));
  EXPECT_FALSE(g.matches_path("/p/backends/blas/math_ops.cpp"));
  EXPECT_FALSE(g.matches_path("/q/backends/eigen/math_ops.cpp"));
  EXPECT_TRUE(Glob("**/*.cpp", "/p").matches_path("/p/a/b/c.cpp"));
  EXPECT_TRUE(Glob("src/*.{cpp,hpp}", "/p").matches_path("/p/src/x.hpp"));
  EXPECT_FALSE(Glob("src/*.cpp", "/p").matches_path("/p/src/sub/x.cpp"));
}

TEST(Glob, HeaderGlobsMatchSpelledNamesAndResolvedSuffixes) {
  EXPECT_TRUE(Glob("Eigen/**").matches_relative("Eigen/Core"));
  EXPECT_TRUE(Glob("Eigen/**").matches_suffix("/usr/include/eigen3/Eigen/src/Core/Matrix.h"));
  EXPECT_TRUE(Glob("lapacke*.h").matches_suffix("/usr/include/x86_64-linux-gnu/lapacke_mangling.h"));
  EXPECT_FALSE(Glob("cblas.h").matches_suffix("/usr/include/mycblas.h"));
  EXPECT_TRUE(Glob("cl[A-Z]*").matches_name("clFinish"));
  EXPECT_FALSE(Glob("cl[A-Z]*").matches_name("clamp"));
}

TEST(Glob, RejectsBadPatternsWithTheReason) {
  EXPECT_THROW(Glob("backends/[eigen/**"), GlobError);
  EXPECT_THROW(Glob("src/{a,b"), GlobError);
  EXPECT_THROW(Glob("src/a**b"), GlobError);
  EXPECT_THROW(Glob(""), GlobError);
  try {
    Glob("backends/[eigen");
  } catch (const GlobError& e) {
    EXPECT_NE(std::string(e.what()).find("unclosed '['"), std::string::npos);
  }
}

std::string config_error(const std::string& text) {
  RegistryNames names;
  try {
    validate_config_text(text, "dir/.emberlint.json", names);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Config, AcceptsCommentsAndTheDocumentedKeys) {
  EXPECT_EQ(config_error(R"({
    // comment
    "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}, "tests": "tests/**",
               "glue": []},
    /* block */
    "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
    "tensor_types": ["ember::Tensor"], "scalar_extractors": [], "ops_interface": {},
    "rules": {"EL101": "error", "frontend-includes-backend": {"severity": "off"}},
    "per_file_ignores": {"tests/internal/**": ["EL104"]}, "exclude": ["build/**"],
    "compile_flags": ["-std=c++20", "-Iinclude"]
  })"),
            "(no error)");
}

TEST(Config, InvalidJsonNamesFileLineAndColumn) {
  std::string e = config_error("{\n  \"layers\": {\n    \"frontend\": [\"a\",]\n  }\n}");
  EXPECT_EQ(e.rfind("dir/.emberlint.json:3:", 0), 0u) << e;
  EXPECT_NE(e.find("invalid JSON"), std::string::npos) << e;
}

TEST(Config, UnknownKeyNamesThePathAndSuggests) {
  std::string e = config_error(R"({"layers": {"frontends": []}})");
  EXPECT_NE(e.find("dir/.emberlint.json: layers: unknown key 'frontends' (did you mean 'frontend'?)"),
            std::string::npos)
      << e;
  EXPECT_NE(config_error(R"({"layer": {}})").find("$: unknown key 'layer'"), std::string::npos);
}

TEST(Config, BadGlobWrongTypeAndUnknownRule) {
  EXPECT_NE(
      config_error(R"({"exclude": ["build/[x"]})").find("exclude[0]: bad glob 'build/[x': unclosed '['"),
      std::string::npos);
  EXPECT_NE(config_error(R"({"tensor_types": 3})")
                .find("tensor_types: expected an array of strings, found a number"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"rules": {"EL999": "error"}})").find("rules.EL999: unknown rule 'EL999'"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"rules": {"EL101": "loud"}})").find("unknown severity 'loud'"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"libraries": {"X": {"backend": "nope"}}})").find("libraries.X.backend"),
            std::string::npos);
}

// A rule's options are declared once, by the rule (RuleInfo::options); the config accepts those and only
// those.
TEST(Config, RuleOptionsComeFromTheRulesOwnInfo) {
  RegistryNames names;
  for (const RuleInfo* info : rule_infos()) {
    EXPECT_EQ(names.options_of(info->code), info->options) << info->code;
    for (const std::string& option : info->options) {
      EXPECT_EQ(config_error(R"({"rules": {")" + info->code + R"(": {")" + option + R"(": 1}}})")
                    .find("unknown key"),
                std::string::npos)
          << info->code << "." << option;
    }
  }
  EXPECT_EQ(find_rule("EL104")->options, std::vector<std::string>{"report_type_only"});
  EXPECT_TRUE(names.options_of("EL100").empty());
  EXPECT_NE(config_error(R"({"rules": {"EL100": {"report_type_only": true}}})")
                .find("rules.EL100: unknown key 'report_type_only'; expected one of: severity"),
            std::string::npos);
}

// --select and --ignore have one reading for check and analyze: "ALL", a code, a name, a code prefix.
TEST(RuleSelection, CodesNamesPrefixesAndAll) {
  const RuleInfo& el200 = *find_rule("EL200");
  const RuleInfo& el400 = *find_rule("EL400");
  EXPECT_TRUE(rule_selected(el200, {}, {}));
  EXPECT_TRUE(rule_selected(el200, {"EL2"}, {}));
  EXPECT_TRUE(rule_selected(el200, {"tensor-operator"}, {}));
  EXPECT_TRUE(rule_selected(el200, {"el200"}, {}));  // codes are case-insensitive
  EXPECT_FALSE(rule_selected(el200, {"EL3"}, {}));
  EXPECT_FALSE(rule_selected(el200, {"ALL"}, {"EL20"}));
  EXPECT_FALSE(rule_selected(el200, {}, {"tensor-operator"}));
  EXPECT_TRUE(rule_selected(el400, {el400.name}, {}));
  EXPECT_FALSE(rule_selected(el400, {"EL4"}, {el400.name}));
  // A name is that rule only, never a prefix of others.
  EXPECT_FALSE(rule_selected(*find_rule("EL201"), {"EL200"}, {}));
}

// Every item runs once, on its thread's own index; the first exception reaches the caller after every
// thread has stopped, and no item starts after it.
TEST(Scheduler, RunsEachUnitOnceAndRethrowsTheFirstFailure) {
  for (unsigned jobs : {1u, 2u, 4u}) {
    std::vector<int> runs(50, 0);
    for_each_unit(runs.size(), jobs, [&](const clang::Index& index, std::size_t i) {
      EXPECT_NE(index.get(), nullptr);
      ++runs[i];
    });
    EXPECT_EQ(std::count(runs.begin(), runs.end(), 1), 50) << jobs << " jobs";
    // Each item takes a millisecond, as a unit takes its parse: instant items let the other threads run all
    // 1000 before the thread of item 3 (descheduled on a busy machine) gets to its throw. Here that would
    // take it a quarter of a second off the CPU.
    std::atomic<int> started{0};
    EXPECT_THROW(for_each_unit(1000, jobs,
                               [&](const clang::Index&, std::size_t i) {
                                 ++started;
                                 if (i == 3) throw std::runtime_error("unit 3");
                                 std::this_thread::sleep_for(std::chrono::milliseconds(1));
                               }),
                 std::runtime_error);
    EXPECT_LT(started.load(), 1000) << jobs << " jobs";
    if (jobs == 1) {
      EXPECT_EQ(started.load(), 4) << "items 0 to 3, in order, then none";
    }
  }
  EXPECT_EQ(worker_count(0, 0), 1u);
  EXPECT_EQ(worker_count(8, 3), 3u);
}

TEST(Config, RuleOptionsAreCheckedPerRule) {
  EXPECT_EQ(
      config_error(R"({"rules": {"EL301": {"allowed_files": ["examples/**"], "allowed_functions": "ns::*"},
                                        "tensor-operator": {"ops_namespace": "::my::ops", "severity": "error"}}})"),
      "(no error)");
  EXPECT_NE(config_error(R"({"rules": {"EL301": {"allowed_files": ["ex/[x"]}}})")
                .find("rules.EL301.allowed_files[0]: bad glob 'ex/[x': unclosed '['"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"rules": {"EL301": {"allowed_functions": 4}}})")
                .find("rules.EL301.allowed_functions: expected an array of strings, found a number"),
            std::string::npos);
  // An option of another rule is an unknown key, with the keys this rule takes.
  std::string e = config_error(R"({"rules": {"EL200": {"allowed_files": []}}})");
  EXPECT_NE(e.find("rules.EL200: unknown key 'allowed_files'; expected one of: severity, ops_namespace"),
            std::string::npos)
      << e;
  EXPECT_NE(config_error(R"json({"rules": {"EL200": {"ops_namespace": "ember::ops()"}}})json")
                .find("rules.EL200.ops_namespace: expected a qualified namespace name"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"tensor_types": ["ember::[Tensor"]})").find("tensor_types[0]: bad glob"),
            std::string::npos);
  // A '<' inside a [...] class does not open template arguments: "a[<]" is one valid glob, not "a[" (a
  // fuzzed config whose cut-off template was an unclosed class crashed the model).
  EXPECT_EQ(config_error(R"({"tensor_types": ["a[<]", "ns::B[<>]x<*>", "{A<int>,B}"]})"), "(no error)");
  // A bad extractor glob is the config's error, not a crash of the first rule that reads it.
  EXPECT_NE(config_error(R"({"scalar_extractors": ["ns::item", "::a[b"]})")
                .find("scalar_extractors[1]: bad glob 'a[b'"),
            std::string::npos);
}

TEST(Config, TensorTypePatternsCutTheTemplateAtTheFirstTopLevelAngle) {
  using V = std::vector<std::string>;
  EXPECT_EQ(tensor_type_patterns("::ns::Basic<*>"), (V{"ns::Basic<*>", "ns::Basic"}));
  EXPECT_EQ(tensor_type_patterns("ns::Tensor"), (V{"ns::Tensor"}));
  EXPECT_EQ(tensor_type_patterns("<*>"), (V{"<*>"}));
  EXPECT_EQ(tensor_type_patterns("ns::T[<]x<*>"), (V{"ns::T[<]x<*>", "ns::T[<]x"}));
  EXPECT_EQ(tensor_type_patterns("ns::T[]<]x"), (V{"ns::T[]<]x"}));
  EXPECT_EQ(tensor_type_patterns("{A<int>,B}"), (V{"{A<int>,B}"}));
  EXPECT_EQ(tensor_type_patterns("ns::A\\<b"), (V{"ns::A\\<b"}));
}

// A source compiled once per backend (other defines) is several commands; an exact repeat is one.
TEST(CompileDatabase, KeepsEachDistinctCommandOfAFileAndDropsRepeats) {
  auto commands = parse_compile_database(R"([
    {"directory": "/w", "file": "ops.cpp", "arguments": ["c++", "-DBACKEND_CPU", "-c", "ops.cpp"]},
    {"directory": "/w", "file": "a.cpp", "arguments": ["c++", "-c", "a.cpp"]},
    {"directory": "/w", "file": "ops.cpp", "arguments": ["c++", "-DBACKEND_GPU", "-c", "ops.cpp"]},
    {"directory": "/w", "file": "ops.cpp", "arguments": ["c++", "-DBACKEND_CPU", "-c", "ops.cpp"]}
  ])",
                                         "db.json");
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0].file, "/w/a.cpp");
  EXPECT_EQ(commands[1].file, "/w/ops.cpp");
  EXPECT_EQ(commands[2].file, "/w/ops.cpp");
  auto has = [](const CompileCommand& c, const std::string& arg) {
    return std::find(c.arguments.begin(), c.arguments.end(), arg) != c.arguments.end();
  };
  EXPECT_TRUE(has(commands[1], "-DBACKEND_CPU")) << "the database's order";
  EXPECT_TRUE(has(commands[2], "-DBACKEND_GPU"));
}

TEST(Fixes, SharedEditsAreTakenOnceAndOverlapsWaitForTheNextRun) {
  auto diag = [](std::size_t offset, std::size_t length, std::string text) {
    Diagnostic d;
    d.code = "EL200";
    d.file = "/p/a.cpp";
    d.fix.push_back({"/p/a.cpp", offset, length, std::move(text), {}});
    return d;
  };
  std::vector<Diagnostic> ds = {diag(10, 5, "add(a, b)"), diag(10, 5, "add(a, b)"), diag(12, 9, "x"),
                                diag(30, 0, "y"),         diag(30, 0, "z"),         diag(40, 2, "w")};
  ds.push_back(Diagnostic{});  // no fix
  FixPlan plan = plan_fixes(ds);
  EXPECT_EQ(plan.fixed, (std::set<std::size_t>{0, 1, 3, 5}));
  ASSERT_EQ(plan.edits.size(), 1u);
  const auto& edits = plan.edits.begin()->second;
  ASSERT_EQ(edits.size(), 3u);
  EXPECT_EQ(edits[0].offset, 10u);
  EXPECT_EQ(edits[1].replacement, "y");
  EXPECT_EQ(edits[2].offset, 40u);
}

TEST(Fixes, YamlIsWhatClangApplyReplacementsReads) {
  Diagnostic d;
  d.code = "EL200";
  d.message = "operator '+' \"quoted\"";
  d.file = "/nonexistent/a.cpp";
  d.line = 1;
  d.column = 1;
  d.fix.push_back({"/nonexistent/a.cpp", 4, 5, "add(a,\tb)\n", {}});
  std::vector<Diagnostic> ds = {d, d};
  std::ostringstream out;
  write_fixes_yaml(out, ds, plan_fixes(ds));
  const std::string y = out.str();
  EXPECT_EQ(y.rfind("---\nMainSourceFile: \"\"\nDiagnostics:\n  - DiagnosticName: \"emberlint-EL200\"\n", 0),
            0u)
      << y;
  EXPECT_NE(y.find("      Message: \"operator '+' \\\"quoted\\\"\"\n"), std::string::npos) << y;
  EXPECT_NE(
      y.find("          Offset: 4\n          Length: 5\n          ReplacementText: \"add(a,\\tb)\\n\"\n"),
      std::string::npos)
      << y;
  EXPECT_EQ(y.find("Replacements:"), y.rfind("Replacements:")) << "one replacement, written once";
  EXPECT_EQ(y.substr(y.size() - 4), "...\n");
}

TEST(Config, NearestWinsAndInheritMerges) {
  fs::path root = fs::temp_directory_path() / ("emberlint_config_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "sub" / "deeper");
  fs::create_directories(root / "alone");
  std::ofstream(root / ".emberlint.json") << R"({"layers": {"frontend": ["frontend/**"],
      "backends": {"eigen": ["backends/eigen/**"]}}, "exclude": ["build/**"], "rules": {"EL101": "error"}})";
  std::ofstream(root / "sub" / ".emberlint.json") << R"({"inherit": true, "exclude": ["gen/**"],
      "rules": {"EL100": "off"}})";
  std::ofstream(root / "alone" / ".emberlint.json") << R"({"exclude": ["x/**"]})";
  RegistryNames names;
  ConfigLoader loader(names);
  auto sub = loader.for_folder(root / "sub" / "deeper", root);
  EXPECT_EQ(sub->root, root / "sub");
  EXPECT_EQ(sub->frontend.size(), 1u);  // from the parent
  EXPECT_EQ(sub->exclude.size(), 2u);   // the parent's and its own
  EXPECT_EQ(sub->rules.at("EL101").severity, Severity::error);
  EXPECT_EQ(sub->rules.at("EL100").severity, Severity::off);
  EXPECT_TRUE(sub->excluded(root / "build" / "a.cpp"));
  EXPECT_TRUE(sub->excluded(root / "sub" / "gen" / "a.cpp"));
  auto alone = loader.for_folder(root / "alone", root);
  EXPECT_TRUE(alone->frontend.empty());  // nearest wins: no inherit, nothing from the parent
  EXPECT_EQ(alone->exclude.size(), 1u);
  fs::remove_all(root);
}

TEST(Suppressions, FindsCommentsButNotStrings) {
  auto comments = find_comments(
      "int a = 1'000; // one\nconst char* s = \"// not\"; auto r = R\"x(/* not */)x\"; /* two */ char c = "
      "'\"';\n");
  ASSERT_EQ(comments.size(), 2u);
  EXPECT_EQ(comments[0].text, "// one");
  EXPECT_EQ(comments[1].text, "/* two */");
}

TEST(Suppressions, ParsesEveryForm) {
  SourceText src(
      "a; // emberlint: ignore[EL101, EL100] reason\n"
      "// emberlint: ignore-next-line\n"
      "b;\n"
      "// emberlint: begin-ignore[EL102]\n"
      "c;\n"
      "// emberlint: end-ignore\n"
      "d; // NOLINT(emberlint-EL10*, bugprone-foo)\n"
      "// NOLINTNEXTLINE(emberlint-frontend-uses-backend-symbol)\n"
      "e;\n"
      "f; // EMBERLINT: IGNORE\n"
      "g; // NOLINT(bugprone-foo)\n");
  auto s = scan_suppressions(src);
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].rules, (std::vector<std::string>{"EL101", "EL100"}));
  EXPECT_EQ(s[0].first_line, 1u);
  EXPECT_EQ(s[1].first_line, 3u);
  EXPECT_TRUE(s[1].rules.empty());
  EXPECT_EQ(s[2].first_line, 4u);
  EXPECT_EQ(s[2].last_line, 6u);
  EXPECT_EQ(s[4].rules, (std::vector<std::string>{"EL10*"}));
  EXPECT_EQ(s[5].first_line, 9u);
  EXPECT_EQ(s[6].first_line, 10u);
  Diagnostic d;
  d.code = "EL101";
  d.name = "frontend-uses-backend-symbol";
  d.line = 7;
  EXPECT_TRUE(covers(s[4], d));
  d.line = 9;
  EXPECT_TRUE(covers(s[5], d));
  d.code = "EL102";
  d.line = 5;
  EXPECT_TRUE(covers(s[2], d));
}

TEST(Suppressions, ReportsUnmatchedBeginAndEnd) {
  auto s = scan_suppressions(SourceText("// emberlint: end-ignore\n// NOLINTBEGIN(emberlint-*)\nx;\n"));
  ASSERT_EQ(s.size(), 2u);
  EXPECT_NE(s[0].problem.find("no matching begin"), std::string::npos);
  EXPECT_NE(s[1].problem.find("no matching end"), std::string::npos);
}

TEST(CompileCommands, DropsGccOnlyFlagsWithTheirArguments) {
  auto argv = split_command_line(
      "/usr/bin/g++-12 -DNDEBUG -I../include -isystem /opt/x -std=gnu++20 -O2 -g -fno-tree-vectorize "
      "-fconserve-stack --param max-inline-insns-single=1000 -Wl,--as-needed -MD -MT out.o -MF out.o.d "
      "-fstack-clash-protection -fno-exceptions -Wall -o out.o -c ../src/a.cpp");
  CompileCommand c = clean_command(argv, "/b/src/a.cpp", "/b/build");
  EXPECT_EQ(c.driver, "clang++");
  EXPECT_EQ(c.arguments, (std::vector<std::string>{"-DNDEBUG", "-I../include", "-isystem", "/opt/x",
                                                   "-std=gnu++20", "-fno-exceptions"}));
}

TEST(CompileCommands, SplitsQuotedArguments) {
  EXPECT_EQ(split_command_line(R"(c++ -DNAME="a b" '-DX=1 2' -Dq=\"s\")"),
            (std::vector<std::string>{"c++", "-DNAME=a b", "-DX=1 2", "-Dq=\"s\""}));
}

TEST(CompileCommands, FindsTheBuiltinHeaders) {
  std::string dir = find_resource_dir();
  ASSERT_FALSE(dir.empty());
  EXPECT_TRUE(fs::exists(fs::path(dir) / "include" / "stddef.h"));
}

TEST(CompileCommands, InterpolatesAHeaderFromItsNeighbour) {
  std::vector<CompileCommand> db(2);
  db[0].file = "/p/a/x.cpp";
  db[0].arguments = {"-DA"};
  db[1].file = "/p/b/y.cpp";
  db[1].arguments = {"-DB"};
  auto c = interpolate_command(db, "/p/b/z.hpp");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->arguments, std::vector<std::string>{"-DB"});
  EXPECT_EQ(c->file, "/p/b/z.hpp");
}

// A source borrows from a neighbour of its own language; from another language (the only neighbour), it
// keeps the include paths and defines but not the -std and -x, and gets its own language's driver.
TEST(CompileCommands, InterpolatesFromANeighbourOfTheSameLanguage) {
  std::vector<CompileCommand> db(3);
  db[0].file = "/p/cpu/feats.c";
  db[0].arguments = {"-std=gnu11", "-DC_UNIT"};
  db[0].driver = "clang";
  db[1].file = "/p/cpu/ops/vec.cpp";
  db[1].arguments = {"-std=gnu++17", "-DCXX_UNIT"};
  db[2].file = "/p/metal/device.m";
  db[2].arguments = {"-x", "objective-c", "-DOBJC"};
  db[2].driver = "clang";
  const CompileCommand* near = nearest_command(db, "/p/cpu/repack.cpp");
  ASSERT_NE(near, nullptr);
  EXPECT_EQ(near->file, "/p/cpu/ops/vec.cpp");  // C++, though the C file shares the longer folder
  auto cxx = interpolate_command(db, "/p/cpu/repack.cpp");
  ASSERT_TRUE(cxx);
  EXPECT_EQ(cxx->arguments, (std::vector<std::string>{"-std=gnu++17", "-DCXX_UNIT"}));
  // Only another language's neighbour: its -std and -x go, the file's own language and driver come.
  std::vector<CompileCommand> c_only(db.begin(), db.begin() + 1);
  auto from_c = interpolate_command(c_only, "/p/cpu/kleidi.cpp");
  ASSERT_TRUE(from_c);
  EXPECT_EQ(from_c->arguments, std::vector<std::string>{"-DC_UNIT"});
  EXPECT_EQ(from_c->driver, "clang++");
  std::vector<CompileCommand> objc_only(db.begin() + 2, db.end());
  auto from_objc = interpolate_command(objc_only, "/p/metal/ops.cpp");
  ASSERT_TRUE(from_objc);
  EXPECT_EQ(from_objc->arguments, std::vector<std::string>{"-DOBJC"});
  auto objcxx = interpolate_command(c_only, "/p/metal/context.mm");
  ASSERT_TRUE(objcxx);
  EXPECT_EQ(objcxx->arguments, (std::vector<std::string>{"-x", "objective-c++", "-DC_UNIT"}));
  // A CUDA source gets clang's CUDA host mode and built-in variables; a C++ file given a CUDA neighbour's
  // flags loses all of them (a C++ unit that force-includes __clang_cuda_builtin_vars.h does not parse).
  auto cuda = interpolate_command(c_only, "/p/cuda/scale.cu");
  ASSERT_TRUE(cuda);
  std::vector<std::string> cuda_args = emberlint::language_arguments("/p/cuda/scale.cu");
  ASSERT_NE(std::find(cuda_args.begin(), cuda_args.end(), "__clang_cuda_builtin_vars.h"), cuda_args.end());
  cuda_args.push_back("-DC_UNIT");
  EXPECT_EQ(cuda->arguments, cuda_args);
  std::vector<CompileCommand> cuda_only(1);
  cuda_only[0].file = "/p/cuda/scale.cu";
  cuda_only[0].arguments = emberlint::language_arguments("/p/cuda/scale.cu");
  cuda_only[0].arguments.push_back("-DCUDA_UNIT");
  auto host = interpolate_command(cuda_only, "/p/cuda/dispatch.cpp");
  ASSERT_TRUE(host);
  EXPECT_EQ(host->arguments, std::vector<std::string>{"-DCUDA_UNIT"});
}

TEST(Registry, EveryRuleHasTheFourDocSectionsAndAUniqueCodeAndName) {
  std::set<std::string> codes, names;
  for (const RuleInfo* r : rule_infos()) {
    EXPECT_TRUE(codes.insert(r->code).second) << r->code;
    EXPECT_TRUE(names.insert(r->name).second) << r->name;
    for (const char* h : {"## What it does", "## Why is this bad?", "## Example", "## Use instead"}) {
      EXPECT_NE(r->doc.find(h), std::string::npos) << r->code << " lacks " << h;
    }
  }
  EXPECT_EQ(find_rule("el101"), find_rule("frontend-uses-backend-symbol"));
}

TEST(Init, StarterConfigIsValidAndDescribesTheTree) {
  fs::path root = fs::temp_directory_path() / ("emberlint_init_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const char* d :
       {"frontend/include", "backends/eigen", "backends/blas", "backends/custom", "tests", "build"}) {
    fs::create_directories(root / d);
  }
  std::ofstream(root / "backends" / "builtin.cpp") << "\n";
  std::ofstream(root / "backends" / "eigen" / "eigen.cpp") << "#include <Eigen/Core>\n";
  std::ofstream(root / "backends" / "blas" / "blas.cpp") << "#include <cblas.h>\n";
  std::ofstream(root / "backends" / "custom" / "custom.cpp") << "int custom() { return 1; }\n";
  std::ofstream(root / "frontend" / "include" / "api.h") << "#pragma once\n";
  std::string text = starter_config(root);
  RegistryNames names;
  EXPECT_NO_THROW(validate_config_text(text, root / ".emberlint.json", names)) << text;
  EXPECT_NE(text.find("\"eigen\": [\"backends/eigen/**\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"Eigen\": {\"backend\": \"eigen\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"glue\": [\"backends/builtin.cpp\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"build/**\""), std::string::npos) << text;
  fs::remove_all(root);
}

}  // namespace
