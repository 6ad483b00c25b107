// Diff mode and pre-commit: the include scanner and graph (lint/parse/include_graph.hpp), the patch parser
// (lint/run/git_diff.hpp), `emberlint check --diff/--diff-lines/--units-of` end to end in a scratch git
// repository, and the pre-commit hook of .pre-commit-hooks.yaml run by a real pre-commit.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "lint/compile/compile_db.hpp"
#include "lint/parse/include_graph.hpp"
#include "lint/parse/prefix.hpp"
#include "lint/run/git_diff.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

void put(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh scratch folder per test, removed afterwards.
class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("emberlint_diff_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    dir_ = fs::canonical(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  struct Run {
    int exit_code = -1;
    std::string out, err;
  };
  // Runs a shell command in `cwd` with git isolated from the user's configuration (HOME is the scratch
  // folder; the outputs are kept outside the repositories the tests make in it).
  Run sh(const fs::path& cwd, const std::string& command) {
    const fs::path out = dir_ / ".out", err = dir_ / ".err";
    std::string line = "cd '" + cwd.string() + "' && export HOME='" + dir_.string() +
                       "' GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null && (" + command + ") >'" +
                       out.string() + "' 2>'" + err.string() + "'";
    int status = std::system(line.c_str());
    Run r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, contents(out), contents(err)};
    fs::remove(out);
    fs::remove(err);
    return r;
  }
  void git(const fs::path& repo, const std::string& args) {
    Run r = sh(repo, "git " + args);
    ASSERT_EQ(r.exit_code, 0) << "git " << args << ": " << r.err;
  }
  void init_repo(const fs::path& repo) {
    fs::create_directories(repo);
    git(repo, "init -q");
    git(repo, "config user.name 'Ember Test'");
    git(repo, "config user.email test@example.com");
    git(repo, "config commit.gpgsign false");
  }

  fs::path dir_;
};

// --- the scanner -------------------------------------------------------------------------------------------

std::vector<std::string> names(const DirectiveScan& scan) {
  std::vector<std::string> out;
  for (const auto& i : scan.includes) {
    const char* forms[] = {"\"", "<", "macro ", "other "};
    out.push_back(forms[static_cast<int>(i.name.form)] + i.name.text + (i.next ? " next" : "") + " @" +
                  std::to_string(i.line));
  }
  return out;
}

TEST(IncludeScan, FindsEveryDirectiveButNoneInCommentsOrStrings) {
  const std::string text = R"src(#include "a.h"
  #  include <b/c.hpp> // trailing comment
// #include "commented.h"
/* #include "block.h"
   #include "block2.h" */ #include "after_block.h"
const char* s = "\n#include \"in_string.h\"";
const char* r = R"x(
#include "in_raw_string.h"
)x";
int big = 1'000'000; char q = '"';
#if 0
#include "conditional.h"
#endif
#include_next <next.h>
#import "imported.h"
#define HDR "macro.h"
#include HDR
#include STR(x)
#inc\
lude "spliced.h"
x = a # include "not_a_directive.h"
)src";
  std::vector<std::string> expected = {
      "\"a.h @1",         "<b/c.hpp @2",   "\"after_block.h @5", "\"conditional.h @12", "<next.h next @14",
      "\"imported.h @15", "macro HDR @17", "other STR(x) @18",   "\"spliced.h @19"};
  DirectiveScan scan = scan_directives(text);
  EXPECT_EQ(names(scan), expected);
  ASSERT_EQ(scan.defines.count("HDR"), 1u);
  EXPECT_EQ(scan.defines.find("HDR")->second.form, HeaderName::Form::quoted);
  EXPECT_EQ(scan.defines.find("HDR")->second.text, "macro.h");
}

TEST(IncludeScan, UnterminatedLiteralsAndFunctionLikeMacrosDoNotHideLaterIncludes) {
  DirectiveScan scan = scan_directives("#error don't\n#define F(x) \"f.h\"\n#include \"later.h\"\n");
  EXPECT_EQ(names(scan), std::vector<std::string>{"\"later.h @3"});
  EXPECT_EQ(scan.defines.count("F"), 0u);
}

TEST(IncludeScan, ConditionalBlocksLeaveTheIncludeGuardOut) {
  using Blocks = std::vector<std::pair<unsigned, unsigned>>;
  // The guard (first #ifndef X, then #define X) is no conditional block; what it guards may be.
  const char* guarded =
      "#ifndef A_H\n#define A_H\n#if defined(USE_X)\n#include <x.h>\n#endif\n"
      "#ifdef USE_Y\n#ifndef NESTED\n#include <y.h>\n#endif  // NESTED\n#endif\n#endif\n";
  EXPECT_EQ(scan_directives(guarded).conditionals, (Blocks{{3, 5}, {7, 9}, {6, 10}}));
  // `#if !defined(X)` guards too; a first #ifndef that no #define of its macro follows is a block.
  EXPECT_EQ(scan_directives("#if !defined( B_H )\n#define B_H\nint b;\n#endif\n").conditionals, Blocks{});
  EXPECT_EQ(scan_directives("#ifndef NO_C\n#include <c.h>\n#endif\n#define NO_C\n").conditionals,
            (Blocks{{1, 3}}));
  // Comments and line continuations hide no directive; a block left open runs to the end.
  EXPECT_EQ(scan_directives("#pragma once\n/* #if 0 */\n#if \\\n  defined(Z)\n#include <z.h>\n").conditionals,
            (Blocks{{3, 5}}));
}

// A platform switch (the same library in every branch of a block with an #else) is read by every build; a
// block without an #else, or a branch without the library, is not (lint/init reads a library's includes so).
TEST(IncludeScan, EveryBuildReadsAnIncludeInEachBranchOfAPlatformSwitch) {
  const char* text =
      "#ifndef S_H\n#define S_H\n"                                                      // 1-2: the guard
      "#ifdef __APPLE__\n#include <OpenCL/cl.h>\n#else\n#include <CL/cl.h>\n#endif\n"   // 3-7
      "#if defined(A)\n#include <x/a.h>\n#elif defined(B)\n#include <x/b.h>\n#endif\n"  // 8-12
      "#if defined(C)\n#include <y/c.h>\n#elif defined(D)\n#include <y/d.h>\n#else\n"   // 13-17
      "#ifdef E\n#include <y/e.h>\n#else\n#include <y/f.h>\n#endif\n#endif\n"           // 18-23
      "#ifdef G\n#include <z/g.h>\n#else\n#endif\n#include <w.h>\n#endif\n";            // 24-29
  const DirectiveScan scan = scan_directives(text);
  ASSERT_EQ(scan.branches.size(), scan.conditionals.size());
  EXPECT_TRUE(every_build_reads(scan, {4, 6}));
  EXPECT_FALSE(every_build_reads(scan, {4})) << "one branch only";
  EXPECT_FALSE(every_build_reads(scan, {9, 11})) << "no #else: neither A nor B";
  EXPECT_TRUE(every_build_reads(scan, {14, 16, 19, 21})) << "a switch nested in the #else of another";
  EXPECT_FALSE(every_build_reads(scan, {14, 16, 19})) << "not when E is undefined";
  EXPECT_FALSE(every_build_reads(scan, {25})) << "an empty #else";
  EXPECT_TRUE(every_build_reads(scan, {28})) << "inside the guard only";
}

// What a precompiled prefix compares with a unit's files (lint/parse/prefix.hpp): the macros conditions test
// and the macros the file defines or undefines.
TEST(IncludeScan, TestedAndDefinedMacros) {
  using Tests = std::vector<std::pair<unsigned, std::string>>;
  DirectiveScan scan = scan_directives(
      "#ifndef G_H\n#define G_H\n#if defined(USE_X) && VERSION >= 201703L /* OLD */\n#elif !defined NEXT\n"
      "#endif\n#ifdef __linux__ // COMMENT\n#undef MAX\n#define MIN(a, b) a\n#endif\n"
      "#if \\\n  SPLICED\n#endif\nint IF_NOT_A_DIRECTIVE;\n#endif\n");
  EXPECT_EQ(
      scan.tested,
      (Tests{{1, "G_H"}, {3, "USE_X"}, {3, "VERSION"}, {4, "NEXT"}, {6, "__linux__"}, {10, "SPLICED"}}));
  EXPECT_EQ(scan.defined, (std::set<std::string>{"G_H", "MAX", "MIN"}));
}

TEST(IncludeScan, APrefixFitsAUnitThatAgreesOnItsMacros) {
  emberlint::Prefix prefix;
  prefix.headers = {"stdint.h", "features.h"};
  prefix.tested = {"_GNU_SOURCE", "NDEBUG"};
  prefix.defined_by = {{"UINTPTR_MAX", "_STDINT_H"}, {"__GLIBC__"}};
  prefix.defined = {"UINTPTR_MAX", "_STDINT_H", "__GLIBC__"};
  prefix.inputs = {
      {"/usr/include/stdint.h", ""}, {"/usr/include/features.h", ""}, {"/usr/include/bits.h", ""}};
  prefix.reads = {{0, 1, 2}, {1, 2}};
  {
    emberlint::PrefixFit fit(prefix);
    fit.defines("MY_GUARD_H");
    fit.tests("MY_GUARD_H");
    fit.includes("stdint.h", true);
    fit.tests("UINTPTR_MAX");  // after its header: as the prefix has it
    EXPECT_TRUE(fit.fits());
    EXPECT_EQ(fit.use().prefix, &prefix);
    EXPECT_EQ(fit.use().inputs, (std::vector<std::size_t>{0, 1, 2})) << "what the unit reads through it";
  }
  {
    emberlint::PrefixFit fit(prefix);
    fit.includes("features.h", true);
    EXPECT_EQ(fit.use().inputs, (std::vector<std::size_t>{1, 2}));
    fit.defines("_GNU_SOURCE");
    EXPECT_FALSE(fit.fits()) << "the unit defines a macro the prefix's headers test";
    EXPECT_EQ(fit.use().prefix, nullptr);
  }
  {
    emberlint::PrefixFit fit(prefix);
    fit.includes("stdint.h", true);
    fit.tests("__GLIBC__");
    EXPECT_FALSE(fit.fits()) << "tested before the header that defines it: the prefix would define it there";
  }
  {
    emberlint::PrefixFit fit(prefix);
    fit.includes("stdint.h", false);  // in an #if: the macro may still be undefined
    fit.tests("UINTPTR_MAX");
    EXPECT_FALSE(fit.fits());
  }
}

// --- resolution and the graph ------------------------------------------------------------------------------

using IncludeGraphTest = Scratch;

CompileCommand command(const fs::path& file, const fs::path& directory, std::vector<std::string> args) {
  CompileCommand c;
  c.file = file;
  c.directory = directory;
  c.arguments = std::move(args);
  return c;
}

TEST_F(IncludeGraphTest, QuotedNamesLookBesideTheIncluderFirstAngledOnesDoNot) {
  put(dir_ / "src/x.h", "");
  put(dir_ / "inc/x.h", "");
  CompileCommand c = command(dir_ / "src/main.cpp", dir_, {"-Iinc"});
  IncludePaths paths = include_paths(c);
  EXPECT_EQ(resolve_include({HeaderName::Form::quoted, "x.h"}, false, c.file, paths), dir_ / "src/x.h");
  EXPECT_EQ(resolve_include({HeaderName::Form::angled, "x.h"}, false, c.file, paths), dir_ / "inc/x.h");
  EXPECT_EQ(resolve_include({HeaderName::Form::angled, "vector"}, false, c.file, paths), std::nullopt);
}

TEST_F(IncludeGraphTest, SearchOrderIsIquoteThenIThenIsystemThenIdirafterRelativeToTheDirectory) {
  for (const char* d : {"q", "i1", "i2", "sys", "after"}) put(dir_ / d / "h.h", "");
  auto first = [&](std::vector<std::string> args, HeaderName::Form form) {
    CompileCommand c = command(dir_ / "src/main.cpp", dir_ / "build", std::move(args));
    return resolve_include({form, "h.h"}, false, c.file, include_paths(c));
  };
  using F = HeaderName::Form;
  std::vector<std::string> all = {"-idirafter", "../after", "-isystem../sys", "-I../i1",
                                  "-I",         "../i2",    "-iquote",        "../q"};
  EXPECT_EQ(first(all, F::quoted), dir_ / "q/h.h");
  EXPECT_EQ(first(all, F::angled), dir_ / "i1/h.h") << "-iquote is for quoted names only";
  EXPECT_EQ(first({"-I../i2", "-I../i1"}, F::angled), dir_ / "i2/h.h") << "-I in command-line order";
  EXPECT_EQ(first({"-idirafter", "../after", "-isystem", "../sys"}, F::angled), dir_ / "sys/h.h");
  EXPECT_EQ(first({"-idirafter", "../after"}, F::angled), dir_ / "after/h.h");
}

TEST_F(IncludeGraphTest, IncludeNextFindsTheNextFileOfThatName) {
  put(dir_ / "a/h.h", "#include_next <h.h>\n");
  put(dir_ / "b/h.h", "");
  CompileCommand c = command(dir_ / "main.cpp", dir_, {"-Ia", "-Ib"});
  EXPECT_EQ(resolve_include({HeaderName::Form::angled, "h.h"}, true, dir_ / "a/h.h", include_paths(c)),
            dir_ / "b/h.h");
}

TEST_F(IncludeGraphTest, TransitiveIncludesAndCyclesCommentedIncludesDoNotCount) {
  put(dir_ / "main.cpp", "#include \"a.h\"\n// #include \"commented.h\"\n");
  put(dir_ / "a.h", "#pragma once\n#include <b.h>\n");
  put(dir_ / "inc/b.h", "#pragma once\n#include \"c.h\"\n#include \"../a.h\"\n");  // c.h beside b.h; a cycle
  put(dir_ / "inc/c.h", "#include \"b.h\"\n");
  put(dir_ / "commented.h", "");
  IncludeGraph graph;
  UnitIncludes u = graph.unit(command(dir_ / "main.cpp", dir_, {"-I", "inc"}));
  std::set<fs::path> expected = {dir_ / "main.cpp", dir_ / "a.h", dir_ / "inc/b.h", dir_ / "inc/c.h"};
  EXPECT_EQ(u.files, expected);
  EXPECT_FALSE(u.unresolved);
}

TEST_F(IncludeGraphTest, MacroIncludesFollowDefinitionsFromFilesAndFlags) {
  put(dir_ / "config.h", "#define PLUGIN_HEADER INDIRECT\n#define INDIRECT \"plugin.h\"\n");
  put(dir_ / "plugin.h", "");
  put(dir_ / "flagged.h", "");
  put(dir_ / "main.cpp",
      "#include \"config.h\"\n#include PLUGIN_HEADER\n#include FROM_FLAG\n"
      "#ifdef NEVER_DEFINED\n#include NEVER_DEFINED\n#endif\n");
  IncludeGraph graph;
  UnitIncludes u = graph.unit(command(dir_ / "main.cpp", dir_, {"-DFROM_FLAG=<flagged.h>", "-I."}));
  EXPECT_TRUE(u.files.count(dir_ / "plugin.h"));
  EXPECT_TRUE(u.files.count(dir_ / "flagged.h"));
  EXPECT_FALSE(u.unresolved) << "a macro nothing defines cannot be active";

  put(dir_ / "computed.cpp", "#define STR(x) #x\n#define NAME STR(x.h)\n#include NAME\n");
  EXPECT_TRUE(graph.unit(command(dir_ / "computed.cpp", dir_, {})).unresolved);
  put(dir_ / "call.cpp", "#include STR(x.h)\n");
  EXPECT_TRUE(graph.unit(command(dir_ / "call.cpp", dir_, {})).unresolved);
}

TEST_F(IncludeGraphTest, ForcedIncludesAreRead) {
  put(dir_ / "pre.h", "#include \"more.h\"\n");
  put(dir_ / "more.h", "");
  put(dir_ / "main.cpp", "");
  IncludeGraph graph;
  UnitIncludes u = graph.unit(command(dir_ / "main.cpp", dir_, {"-include", "pre.h"}));
  EXPECT_TRUE(u.files.count(dir_ / "more.h"));
}

TEST_F(IncludeGraphTest, AffectedUnitsAreThoseThatReadATarget) {
  put(dir_ / "shared.h", "");
  put(dir_ / "one.cpp", "#include \"shared.h\"\n");
  put(dir_ / "two.cpp", "int two;\n");
  put(dir_ / "sub/three.cpp", "#include UNKNOWABLE\n#define UNKNOWABLE 1\n");
  std::vector<CompileCommand> units = {command(dir_ / "one.cpp", dir_, {}),
                                       command(dir_ / "two.cpp", dir_, {}),
                                       command(dir_ / "sub/three.cpp", dir_, {})};
  Affected a = affected_units(units, {dir_ / "shared.h", dir_ / "nobody.h"});
  EXPECT_EQ(a.units, (std::vector<bool>{true, false, true})) << "three.cpp may read anything";
  EXPECT_EQ(a.unread, std::set<fs::path>{dir_ / "nobody.h"});
  EXPECT_EQ(affected_units(units, {}).units, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(affected_units({units[0], units[1]}, {dir_ / "sub/.emberlint.json"}).units,
            (std::vector<bool>{false, false}));
  EXPECT_EQ(affected_units(units, {dir_ / "two.cpp"}).units, (std::vector<bool>{false, true, true}));
  EXPECT_EQ(affected_units({units[0], units[1]}, {dir_ / ".emberlint.json"}).units,
            (std::vector<bool>{true, true}))
      << "a config change affects every unit below it";
}

// --- the patch parser --------------------------------------------------------------------------------------

TEST(GitDiff, ParsesAddedLinesQuotedPathsAndBodyLinesThatLookLikeHeaders) {
  const std::string patch =
      "diff --git a/src/x.cpp b/src/x.cpp\n"
      "index 1..2 100644\n"
      "--- a/src/x.cpp\n"
      "+++ b/src/x.cpp\n"
      "@@ -3 +3 @@ int f();\n"
      "-old\n"
      "+new\n"
      "@@ -10,0 +11,2 @@\n"
      "+++ this added line looks like a header\n"
      "+@@ -1 +1 @@ so does this one\n"
      "@@ -20,2 +21,0 @@\n"
      "-gone\n"
      "-gone too\n"
      "\\ No newline at end of file\n"
      "diff --git \"a/sp\\303\\251cial \\\"q\\\".h\" \"b/sp\\303\\251cial \\\"q\\\".h\"\n"
      "--- \"a/sp\\303\\251cial \\\"q\\\".h\"\n"
      "+++ \"b/sp\\303\\251cial \\\"q\\\".h\"\n"
      "@@ -0,0 +1 @@\n"
      "+x\n"
      "diff --git a/with space.h b/with space.h\n"
      "--- a/with space.h\t\n"
      "+++ b/with space.h\t\n"
      "@@ -1 +1,3 @@\n"
      "-a\n"
      "+b\n"
      "+c\n"
      "+d\n"
      "diff --git a/deleted.h b/deleted.h\n"
      "--- a/deleted.h\n"
      "+++ /dev/null\n"
      "@@ -1 +0,0 @@\n"
      "-x\n";
  auto lines = parse_unified_diff(patch);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines["src/x.cpp"], (LineRanges{{3, 3}, {11, 12}}));
  EXPECT_EQ(lines["sp\xc3\xa9"
                  "cial \"q\".h"],
            (LineRanges{{1, 1}}));
  EXPECT_EQ(lines["with space.h"], (LineRanges{{1, 3}}));
}

TEST(GitDiff, TouchesIsAboutOverlappingLines) {
  ChangeSet c;
  c.files["/p/a.cpp"].lines = {{3, 3}, {10, 12}};
  c.files["/p/new.cpp"].whole = true;
  EXPECT_TRUE(c.touches("/p/a.cpp", 3, 3));
  EXPECT_TRUE(c.touches("/p/a.cpp", 1, 10));
  EXPECT_FALSE(c.touches("/p/a.cpp", 4, 9));
  EXPECT_TRUE(c.touches("/p/new.cpp", 400, 400));
  EXPECT_FALSE(c.touches("/p/other.cpp", 1, 1));
}

// --- emberlint check --diff / --units-of in a git repository
// -------------------------------------------------

// A repository whose project lives in a subfolder (proj/): four frontend units that each include a backend
// library header (one EL100 finding per unit, on line 2), two of them reaching include/common.hpp (one
// through include/mid.hpp), and a compile database written here.
class DiffRepo : public Scratch {
 protected:
  void SetUp() override {
    Scratch::SetUp();
    top_ = dir_ / "repo";
    proj_ = top_ / "proj";
    put(proj_ / ".emberlint.json", R"({
      "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "exclude": ["build/**", "vendor/**"],
      "compile_flags": ["-std=c++20", "-isystem", "vendor", "-Iinclude"]
    })");
    put(proj_ / ".gitignore", "build/\n");
    put(proj_ / "vendor/Eigen/Core", "#pragma once\nnamespace Eigen { struct MatrixXd {}; }\n");
    put(proj_ / "vendor/Eigen/Dense", "#pragma once\n#include \"Core\"\n");
    put(proj_ / "include/common.hpp", "#pragma once\ninline int common() { return 1; }\n");
    put(proj_ / "include/mid.hpp", "#pragma once\n#include \"common.hpp\"\n");
    put(proj_ / "include/other.hpp", "#pragma once\ninline int other() { return 2; }\n");
    put(proj_ / "include/lonely.hpp", "#pragma once\ninline int lonely() { return 3; }\n");
    put(proj_ / "frontend/a.cpp",
        "#include \"common.hpp\"\n#include <Eigen/Core>\nint a() { return common(); }\n");
    put(proj_ / "frontend/b.cpp",
        "#include \"mid.hpp\"\n#include <Eigen/Core>\nint b() { return common(); }\n");
    put(proj_ / "frontend/c.cpp",
        "#include \"other.hpp\"\n#include <Eigen/Core>\nint c() { return other(); }\n");
    put(proj_ / "frontend/d.cpp", "int d();\n#include <Eigen/Core>\n");
    put(proj_ / "README.md", "a fixture\n");
    nlohmann::json db = nlohmann::json::array();
    for (const char* unit : {"a", "b", "c", "d"}) {
      std::string file = std::string("../frontend/") + unit + ".cpp";
      db.push_back(
          {{"directory", (proj_ / "build").string()},
           {"file", file},
           {"arguments", {"c++", "-std=c++20", "-I../include", "-isystem", "../vendor", "-c", file}}});
    }
    put(proj_ / "build/compile_commands.json", db.dump(2));
    init_repo(top_);
    git(top_, "add -A");
    git(top_, "commit -q -m fixture");
  }

  Run check(const std::string& args) { return sh(proj_, "'" EMBERLINT_EXE "' check " + args); }

  // Runs a check that must succeed with a JSON report; returns the report.
  nlohmann::json json_check(const std::string& args, int expected_exit) {
    Run r = check("--format json " + args);
    EXPECT_EQ(r.exit_code, expected_exit) << args << "\n" << r.out << r.err;
    try {
      return nlohmann::json::parse(r.out);
    } catch (const nlohmann::json::exception&) {
      ADD_FAILURE() << "no JSON report for " << args << ": " << r.out << r.err;
      return nlohmann::json::object({{"files_analyzed", -1}, {"diagnostics", nlohmann::json::array()}});
    }
  }

  // "frontend/a.cpp:2" for every diagnostic.
  static std::set<std::string> where(const nlohmann::json& report) {
    std::set<std::string> out;
    for (const auto& d : report.at("diagnostics"))
      out.insert(d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()));
    return out;
  }

  fs::path top_, proj_;  // the repository's top level and the project in it
};

// In a monorepo the project (proj/) is below the repository's top level: SARIF URIs and GitHub annotation
// paths are relative to the top level, which code scanning resolves them against; JSON and text stay
// relative to the project; --project-root names another base. Fingerprints go under emberlint's own key.
TEST_F(DiffRepo, CodeScanningPathsAreRelativeToTheRepositoryTopLevel) {
  put(proj_ / "frontend/bad.cpp", "#include <Eigen/Core>\nint bad();\n");
  Run sarif = check("--no-cache --format sarif frontend/bad.cpp");
  EXPECT_EQ(sarif.exit_code, 1) << sarif.err;
  nlohmann::json doc = nlohmann::json::parse(sarif.out);
  const nlohmann::json& run = doc.at("runs").at(0);
  const nlohmann::json& result = run.at("results").at(0);
  EXPECT_EQ(result.at("locations").at(0).at("physicalLocation").at("artifactLocation").at("uri"),
            "proj/frontend/bad.cpp");
  std::string root_uri = run.at("originalUriBaseIds").at("%SRCROOT%").at("uri");
  EXPECT_EQ(root_uri, "file://" + top_.string() + "/");
  EXPECT_TRUE(result.at("partialFingerprints").contains("emberlint/v1")) << result.dump();
  EXPECT_FALSE(result.at("partialFingerprints").contains("primaryLocationLineHash"))
      << "GitHub's own key: its upload action warns on every result that brings one";

  Run github = check("--no-cache --format github frontend/bad.cpp");
  EXPECT_NE(github.out.find("::warning file=proj/frontend/bad.cpp,line=1"), std::string::npos) << github.out;
  nlohmann::json json_doc = json_check("--no-cache frontend/bad.cpp", 1);
  EXPECT_EQ(json_doc.at("diagnostics").at(0).at("file"), "frontend/bad.cpp") << "JSON stays project-relative";

  Run own = check("--no-cache --format github --project-root . frontend/bad.cpp");
  EXPECT_NE(own.out.find("::warning file=frontend/bad.cpp,line=1"), std::string::npos) << own.out;
}

TEST_F(DiffRepo, AChangedHeaderLintsExactlyTheUnitsThatIncludeIt) {
  auto clean = json_check("-p build --diff HEAD", 0);
  EXPECT_EQ(clean.at("files_analyzed"), 0) << "nothing changed";

  put(proj_ / "include/common.hpp", "#pragma once\ninline int common() { return 10; }\n");
  for (const char* jobs : {"-j1", "-j4"}) {
    auto report = json_check(std::string("-p build --diff HEAD ") + jobs, 1);
    EXPECT_EQ(report.at("files_analyzed"), 2);
    EXPECT_EQ(where(report), (std::set<std::string>{"frontend/a.cpp:2", "frontend/b.cpp:2"}));
  }
  // The paths still narrow the run.
  EXPECT_EQ(where(json_check("-p build --diff HEAD frontend/b.cpp", 1)),
            std::set<std::string>{"frontend/b.cpp:2"});
  // Without a compile database every C/C++ file of the tree is a unit: the header itself, the header that
  // includes it, and the two sources.
  EXPECT_EQ(json_check("--diff HEAD", 1).at("files_analyzed"), 4);
}

// A PR that adds or edits a header no source includes: its findings are reported with a compile database as
// without one (the gate passed it: "No problems in 0 files").
TEST_F(DiffRepo, AChangedHeaderThatNoUnitIncludesIsLintedOnItsOwn) {
  put(proj_ / "frontend/unused.hpp", "#pragma once\nint unused();\n");
  git(top_, "add -A");
  git(top_, "commit -q -m 'a header no source includes'");
  put(proj_ / "frontend/unused.hpp", "#pragma once\n#include <Eigen/Core>\nint unused();\n");  // edited
  put(proj_ / "frontend/added.hpp", "#include <Eigen/Dense>\nint added();\n");                 // untracked
  put(proj_ / "vendor/Eigen/Extra", "#pragma once\n#include \"Core\"\n");  // a library's: excluded
  const std::set<std::string> expected = {"frontend/added.hpp:1", "frontend/unused.hpp:2"};
  for (const char* args : {"-p build --diff HEAD", "--diff HEAD", "-p build --diff HEAD --diff-lines"}) {
    auto report = json_check(std::string("--no-cache ") + args, 1);
    EXPECT_EQ(where(report), expected) << args;
    EXPECT_EQ(report.at("files_analyzed"), 2) << args;
    EXPECT_TRUE(report.at("failures").empty()) << args << report.dump();
  }
}

// Template and inline implementation files and module interfaces that no unit includes: clang's driver took
// a .tpp for a linker input ("libclang could not parse the file (error 4)", or its findings silently lost in
// a whole-tree run); they are parsed as headers (-x c++-header) and a .ixx as a module interface.
TEST_F(DiffRepo, ImplementationFilesAndModuleInterfacesNoUnitIncludesAreParsed) {
  put(proj_ / "frontend/orphan.tpp",
      "#include <Eigen/Core>\ntemplate <class T> T twice(T x) { return x + x; }\n");
  put(proj_ / "frontend/inline.inl",
      "#pragma once\n#include <Eigen/Dense>\ninline int one() { return 1; }\n");
  put(proj_ / "frontend/mod.ixx",
      "module;\n#include <Eigen/Core>\nexport module m;\nexport int f() { return 1; }\n");
  for (const char* args : {"-p build --units-of frontend/orphan.tpp", "--units-of frontend/orphan.tpp"}) {
    auto report = json_check(std::string("--no-cache ") + args, 1);
    EXPECT_EQ(where(report), std::set<std::string>{"frontend/orphan.tpp:1"}) << args;
    EXPECT_TRUE(report.at("failures").empty()) << args << report.dump();
  }
  for (const char* args : {"-p build --units-of frontend/mod.ixx", "--units-of frontend/mod.ixx"}) {
    auto report = json_check(std::string("--no-cache ") + args, 1);
    EXPECT_EQ(where(report), std::set<std::string>{"frontend/mod.ixx:2"}) << args;
    EXPECT_TRUE(report.at("failures").empty()) << args << report.dump();
  }
  auto whole = json_check("--no-cache -p build", 1);
  EXPECT_TRUE(where(whole).count("frontend/orphan.tpp:1")) << whole.dump();
  EXPECT_TRUE(where(whole).count("frontend/inline.inl:2")) << whole.dump();
  EXPECT_TRUE(whole.at("failures").empty()) << whole.dump();
}

// A monorepo with one config at the top and two projects, each with its build folder: `check -p one/build`
// from the top lints one's units and one's headers that no unit reads, not two's headers (which no database
// here compiles), with CMake's CMakeCache.txt naming the source folder and without it.
TEST_F(Scratch, ADatabaseInAMonorepoWalksOnlyItsOwnProjectForUnreadHeaders) {
  const fs::path top = dir_ / "mono";
  put(top / ".emberlint.json", R"({
    "layers": {"frontend": ["*/frontend/**"], "backends": {"eigen": ["*/backends/eigen/**"]}},
    "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
    "exclude": ["*/build/**", "vendor/**"]
  })");
  put(top / "vendor/Eigen/Core", "#pragma once\nnamespace Eigen { struct MatrixXd {}; }\n");
  for (const char* project : {"one", "two"}) {
    const fs::path root = top / project;
    put(root / "frontend/unit.cpp", "int unit() { return 1; }\n");
    put(root / "frontend/lone.hpp", "#include <Eigen/Core>\ninline int lone() { return 2; }\n");
    put(root / "backends/eigen/x.cpp", "int x();\n");
    nlohmann::json db = nlohmann::json::array();
    db.push_back({{"directory", (root / "build").string()},
                  {"file", (root / "frontend/unit.cpp").string()},
                  {"arguments",
                   {"c++", "-std=c++20", "-isystem", (top / "vendor").string(), "-c",
                    (root / "frontend/unit.cpp").string()}}});
    put(root / "build/compile_commands.json", db.dump(2));
  }
  for (bool cmake : {false, true}) {
    if (cmake)
      put(top / "one/build/CMakeCache.txt", "CMAKE_HOME_DIRECTORY:INTERNAL=" + (top / "one").string() + "\n");
    Run r = sh(top, "'" EMBERLINT_EXE "' check --no-cache --format json -p one/build");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    const nlohmann::json report = nlohmann::json::parse(r.out, nullptr, false);
    std::set<std::string> files;
    for (const auto& d : report.value("diagnostics", nlohmann::json::array()))
      files.insert(d.value("file", ""));
    EXPECT_EQ(files, std::set<std::string>{"one/frontend/lone.hpp"}) << "CMakeCache.txt: " << cmake << r.out;
  }
}

TEST_F(DiffRepo, CommittedStagedUnstagedAndUntrackedChangesCountDeletedFilesDoNot) {
  put(proj_ / "include/other.hpp", "#pragma once\ninline int other() { return 20; }\n");
  git(top_, "commit -q -am 'change other.hpp'");
  put(proj_ / "frontend/d.cpp", "int d();\n#include <Eigen/Core>\nint dd();\n");
  git(top_, "add proj/frontend/d.cpp");
  put(proj_ / "README.md", "a fixture, changed\n");           // unstaged, no unit reads it
  put(proj_ / "frontend/e.cpp", "#include <Eigen/Dense>\n");  // untracked, not in the compile database
  fs::remove(proj_ / "frontend/a.cpp");                       // deleted, still in the compile database
  auto report = json_check("-p build --diff HEAD~1", 1);
  EXPECT_EQ(report.at("files_analyzed"), 3);
  EXPECT_EQ(where(report),
            (std::set<std::string>{"frontend/c.cpp:2", "frontend/d.cpp:2", "frontend/e.cpp:1"}));
  EXPECT_TRUE(report.at("failures").empty()) << report.dump();
}

TEST_F(DiffRepo, DiffLinesKeepsOnlyTheFindingsOnChangedLines) {
  put(proj_ / "frontend/a.cpp",
      "#include \"common.hpp\"\n#include <Eigen/Core>\nint a() { return common(); }\n#include "
      "<Eigen/Dense>\n");
  EXPECT_EQ(where(json_check("-p build --diff HEAD", 1)),
            (std::set<std::string>{"frontend/a.cpp:2", "frontend/a.cpp:4"}));
  EXPECT_EQ(where(json_check("-p build --diff HEAD --diff-lines", 1)),
            std::set<std::string>{"frontend/a.cpp:4"});
  Run text = check("-p build --diff HEAD --diff-lines");
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("frontend/a.cpp:4:1: warning:"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("frontend/a.cpp:2:"), std::string::npos) << text.out;

  // A header change relints its units, whose own lines did not change: nothing to report on changed lines.
  git(top_, "checkout -q -- proj/frontend/a.cpp");
  put(proj_ / "include/mid.hpp", "#pragma once\n#include \"common.hpp\"\n// more\n");
  auto report = json_check("-p build --diff HEAD --diff-lines", 0);
  EXPECT_EQ(report.at("files_analyzed"), 1);
  EXPECT_TRUE(report.at("diagnostics").empty());
}

TEST_F(DiffRepo, UnknownRevisionNoRepositoryNoGitAndBadCombinationsExitTwo) {
  Run r = check("-p build --diff no-such-rev");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--diff no-such-rev: unknown revision"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());

  const fs::path outside = dir_ / "nogit";
  put(outside / "x.cpp", "int x;\n");
  Run no_repo =
      sh(outside, "GIT_CEILING_DIRECTORIES='" + dir_.string() + "' '" EMBERLINT_EXE "' check --diff HEAD");
  EXPECT_EQ(no_repo.exit_code, 2);
  EXPECT_NE(no_repo.err.find("is not in a git work tree"), std::string::npos) << no_repo.err;

  Run no_git = sh(proj_, "PATH=/nonexistent '" EMBERLINT_EXE "' check --diff HEAD");
  EXPECT_EQ(no_git.exit_code, 2);
  EXPECT_NE(no_git.err.find("needs git"), std::string::npos) << no_git.err;

  EXPECT_EQ(check("--diff-lines").exit_code, 2) << "--diff-lines needs --diff";
  EXPECT_EQ(check("--diff HEAD --units-of frontend/a.cpp").exit_code, 2);
}

TEST_F(DiffRepo, UnitsOfMapsEachFileToTheUnitsThatContainIt) {
  auto units_of = [&](const std::string& args, int exit_code) {
    return where(json_check("-p build --units-of " + args, exit_code));
  };
  EXPECT_EQ(units_of("include/common.hpp", 1),
            (std::set<std::string>{"frontend/a.cpp:2", "frontend/b.cpp:2"}));
  EXPECT_EQ(units_of("include/mid.hpp frontend/d.cpp", 1),
            (std::set<std::string>{"frontend/b.cpp:2", "frontend/d.cpp:2"}));
  // Excluded files and files that are no C/C++ are skipped silently; nothing left is a success.
  auto none = json_check("-p build --units-of README.md vendor/Eigen/Core .gitignore", 0);
  EXPECT_EQ(none.at("files_analyzed"), 0);
  // A header no unit includes is linted on its own, as when it is named without --units-of.
  EXPECT_EQ(json_check("-p build --units-of include/lonely.hpp", 0).at("files_analyzed"), 1);
  // Without a compile database, the header's own unit and every unit including it.
  EXPECT_EQ(json_check("--units-of include/common.hpp", 1).at("files_analyzed"), 4);
  // Text output for pre-commit: the findings, exit 1.
  Run r = check("--units-of frontend/c.cpp");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("frontend/c.cpp:2:1: warning:"), std::string::npos) << r.out;
}

// --- pre-commit
// ----------------------------------------------------------------------------------------------

// The hook of this repository's .pre-commit-hooks.yaml, run by pre-commit the way a user's repository runs
// it: `pre-commit try-repo` on a repository holding the hook file, and a .pre-commit-config.yaml naming that
// repository with `args: [-p, build]`.
class PreCommit : public DiffRepo {
 protected:
  void SetUp() override {
    if (std::system("command -v pre-commit >/dev/null 2>&1") != 0) {
      if (std::getenv("EMBER_REQUIRE_TOOLS"))
        GTEST_FAIL()
            << "pre-commit is not on PATH and EMBER_REQUIRE_TOOLS is set (scripts/setup.sh installs it)";
      GTEST_SKIP() << "pre-commit is not on PATH (Debian's pre-commit; scripts/setup.sh installs it)";
    }
    DiffRepo::SetUp();
    hooks_ = dir_ / "hooks";
    init_repo(hooks_);
    const fs::path source_root = fs::path(EMBERLINT_FIXTURES).parent_path().parent_path().parent_path();
    fs::copy_file(source_root / ".pre-commit-hooks.yaml", hooks_ / ".pre-commit-hooks.yaml");
    git(hooks_, "add .pre-commit-hooks.yaml");
    git(hooks_, "commit -q -m hooks");
  }

  // pre-commit with its cache in the scratch folder and emberlint on PATH, from the project's repository.
  Run pre_commit(const std::string& args) {
    const std::string bin = fs::path(EMBERLINT_EXE).parent_path().string();
    return sh(top_, "export PRE_COMMIT_HOME='" + (dir_ / "cache").string() + "' PATH='" + bin +
                        "':\"$PATH\" && pre-commit " + args);
  }

  fs::path hooks_;
};

TEST_F(PreCommit, TheHookFailsOnAStagedBadFileAndPassesOnAGoodOne) {
  put(proj_ / "frontend/new.cpp", "#include <Eigen/Core>\nint n();\n");
  git(top_, "add proj/frontend/new.cpp");
  Run bad = pre_commit("try-repo '" + hooks_.string() + "' emberlint");
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("EL100"), std::string::npos) << bad.out << bad.err;
  EXPECT_EQ(bad.out.find("frontend/c.cpp"), std::string::npos) << "only the staged file's units\n" << bad.out;

  put(proj_ / "frontend/new.cpp", "int n();\n");
  git(top_, "add proj/frontend/new.cpp");
  Run good = pre_commit("try-repo '" + hooks_.string() + "' emberlint");
  EXPECT_EQ(good.exit_code, 0) << good.out << good.err;
}

// The hook selects files by the extensions emberlint reads (pre-commit's own C/C++ types miss .tpp, .ipp,
// .tcc, .cppm, .ixx and .cuh): its `files:` pattern accepts every one of them, and nothing else.
TEST(PreCommitHook, ItsFilePatternIsEmberlintsListOfExtensions) {
  const fs::path source_root = fs::path(EMBERLINT_FIXTURES).parent_path().parent_path().parent_path();
  std::istringstream hooks(contents(source_root / ".pre-commit-hooks.yaml"));
  std::string line, pattern;
  while (std::getline(hooks, line)) {
    if (auto at = line.find("files: '"); at != std::string::npos && line.find('#') == std::string::npos)
      pattern = line.substr(at + 8, line.rfind('\'') - at - 8);
  }
  ASSERT_FALSE(pattern.empty()) << "no files: pattern in .pre-commit-hooks.yaml";
  EXPECT_EQ(contents(source_root / ".pre-commit-hooks.yaml").find("types_or:"), std::string::npos)
      << "pre-commit ANDs types with files: a types list would drop the extensions it does not know";
  const std::regex re(pattern);
  std::vector<std::string> extensions = header_extensions();
  extensions.insert(extensions.end(), source_extensions().begin(), source_extensions().end());
  for (const std::string& ext : {std::string(".tpp"), std::string(".ipp"), std::string(".tcc"),
                                 std::string(".cppm"), std::string(".ixx"), std::string(".cuh")})
    EXPECT_NE(std::find(extensions.begin(), extensions.end(), ext), extensions.end()) << ext;
  for (const std::string& ext : extensions)
    EXPECT_TRUE(std::regex_search("src/dir/file" + ext, re)) << ext << " is not selected by " << pattern;
  for (const char* other : {"README.md", "CMakeLists.txt", "tool.py", "file.cpp.orig", "file.hpp~"})
    EXPECT_FALSE(std::regex_search(std::string(other), re)) << other;
}

TEST_F(PreCommit, AStagedTemplateImplementationFileLintsTheUnitsThatIncludeIt) {
  put(proj_ / "frontend/impl.tpp", "#pragma once\ninline int impl() { return 1; }\n");
  put(proj_ / "frontend/e.cpp", "#include \"impl.tpp\"\nint e() { return impl(); }\n");
  git(top_, "add -A");
  git(top_, "commit -q -m template");
  put(proj_ / "frontend/impl.tpp", "#pragma once\n#include <Eigen/Core>\ninline int impl() { return 1; }\n");
  git(top_, "add proj/frontend/impl.tpp");
  Run bad = pre_commit("try-repo '" + hooks_.string() + "' emberlint");
  EXPECT_EQ(bad.exit_code, 1) << "the staged .tpp reaches emberlint\n" << bad.out << bad.err;
  EXPECT_NE(bad.out.find("EL100"), std::string::npos) << bad.out << bad.err;
}

TEST_F(PreCommit, AConfigWithTheBuildFolderLintsTheUnitsOfAStagedHeader) {
  Run head = sh(hooks_, "git rev-parse HEAD");
  ASSERT_EQ(head.exit_code, 0);
  // The project is in proj/, so the hook runs there (pre-commit itself runs hooks from the top level).
  put(top_ / ".pre-commit-config.yaml",
      "repos:\n  - repo: " + hooks_.string() + "\n    rev: " + head.out.substr(0, 40) +
          "\n    hooks:\n      - id: emberlint\n        args: [-p, proj/build]\n");
  git(top_, "add .pre-commit-config.yaml");
  git(top_, "commit -q -m 'pre-commit config'");
  put(proj_ / "include/other.hpp", "#pragma once\ninline int other() { return 30; }\n");
  git(top_, "add proj/include/other.hpp");
  Run bad = pre_commit("run");
  EXPECT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("frontend/c.cpp:2:1: warning:"), std::string::npos) << "the header's unit\n"
                                                                             << bad.out;
  EXPECT_EQ(bad.out.find("frontend/a.cpp"), std::string::npos) << bad.out;

  put(proj_ / "include/other.hpp", "#pragma once\ninline int other() { return 2; }\n");
  put(proj_ / "README.md", "docs only\n");
  git(top_, "add -A");
  Run docs = pre_commit("run");
  EXPECT_EQ(docs.exit_code, 0) << "no C/C++ file staged: the hook is skipped\n" << docs.out << docs.err;
}

}  // namespace
