// Regression tests for what fuzzing found (fuzz/): each input that once crashed, hung or broke an invariant,
// as a plain test of the part at fault. The inputs themselves are in fuzz/regressions/<target>/, and every
// config input there is replayed here too, so the plain test suite covers them without libFuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "lint/compile/compile_db.hpp"
#include "lint/project/config.hpp"
#include "lint/support/glob.hpp"
#include "lint/run/runner.hpp"
#include "rules/registry.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

const fs::path kFixtures = EMBERLINT_FIXTURES;
const fs::path kRegressions = kFixtures / ".." / ".." / ".." / "fuzz" / "regressions";

// What validating `text` as a config reports: "valid", or the ConfigError's message after the file name
// that every message starts with.
std::string verdict(const std::string& text) {
  static const RegistryNames names;
  const std::string file = "dir/.emberlint.json";
  try {
    validate_config_text(text, file, names);
    return "valid";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(file, 0), 0u) << what;
    return what.substr(std::min(what.size(), file.size()));
  }
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

// nlohmann reports a number beyond a double as out_of_range, not parse_error: it escaped as an uncaught
// exception (abort) instead of a configuration error (exit 2).
TEST(FuzzRegression, ConfigNumberOverflowIsAConfigError) {
  EXPECT_EQ(verdict("{\"exclude\": [1e400]}"), ": invalid JSON: number overflow parsing '1e400'");
}

// ops_namespace was checked with std::regex, which recurses per character: 30000 characters overflowed the
// stack (a segmentation fault).
TEST(FuzzRegression, LongOpsNamespaceIsCheckedWithoutOverflowingTheStack) {
  const std::string name = repeat("a", 40000);
  EXPECT_EQ(verdict("{\"rules\": {\"EL200\": {\"ops_namespace\": \"" + name + "\"}}}"), "valid");
  std::string e = verdict("{\"rules\": {\"EL200\": {\"ops_namespace\": \"" + name + "::\"}}}");
  EXPECT_EQ(e.rfind(": rules.EL200.ops_namespace: expected a qualified namespace name", 0), 0u) << e;
  EXPECT_EQ(verdict(R"({"rules": {"EL200": {"ops_namespace": "::my_ops::v2"}}})"), "valid");
  for (const char* bad : {"", "2d", "a::", "a:b", "a::::b", "a b", "a-b"}) {
    EXPECT_NE(verdict(std::string(R"({"rules": {"EL200": {"ops_namespace": ")") + bad + "\"}}}"), "valid")
        << bad;
  }
}

// Brace groups multiply: 22 of them made four million alternatives (tens of seconds, gigabytes).
TEST(FuzzRegression, BraceGroupsThatExpandTooFarAreAnError) {
  EXPECT_NO_THROW(Glob(repeat("{a,b}", 10)));  // 1024 alternatives: the limit
  try {
    Glob(repeat("{a,b}", 22));
    FAIL() << "expected a GlobError";
  } catch (const GlobError& e) {
    EXPECT_NE(std::string(e.what()).find("expand to more than 1024 alternatives"), std::string::npos);
  }
  std::string e = verdict("{\"exclude\": [\"" + repeat("{a,b}", 11) + "\"]}");
  EXPECT_EQ(e.rfind(": exclude[0]: bad glob", 0), 0u) << e;
}

// Every "**" tried every split of the rest of the path again: 16 of them against 40 folders ran for hours.
TEST(FuzzRegression, ManyDoubleStarsMatchWithoutExponentialTime) {
  std::string path = "/p";
  for (int i = 0; i < 40; ++i) path += "/a";
  EXPECT_FALSE(Glob(repeat("**/a/", 16) + "c", "/p").matches_path(path + "/x.cpp"));
  EXPECT_TRUE(Glob(repeat("**/a/", 16) + "*.cpp", "/p").matches_path(path + "/x.cpp"));
  EXPECT_TRUE(Glob(repeat("**/", 50) + "x.cpp", "/p").matches_path(path + "/x.cpp"));
  EXPECT_TRUE(Glob("**/**/a/**").matches_suffix("/usr/a/b/c"));
  EXPECT_FALSE(Glob("**/**/b/**/c").matches_relative("a/c/b"));
}

// Parsing passed -working-directory to clang's driver, which changes the working folder of the whole
// process: `check -p build -o out.json` wrote out.json into the compile command's folder, and parallel jobs
// raced on the folder.
TEST(FuzzRegression, CheckLeavesTheWorkingFolderAlone) {
  const fs::path before = fs::current_path();
  CheckOptions o;
  o.paths = {kFixtures / "project" / "frontend" / "el300_casts.cpp"};
  o.jobs = 1;
  CheckResult r = run_check(o, rule_catalog());
  EXPECT_TRUE(r.failures.empty());
  EXPECT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(fs::current_path(), before);
}

// The compile database reader works on text (the fuzz target's entry point); its errors name the origin, and
// a file the system cannot resolve keeps its name (it became empty, and one such entry hid the others).
TEST(FuzzRegression, CompileDatabaseParsesFromText) {
  auto commands = parse_compile_database(
      R"([{"directory": "/w", "file": "b.cpp", "arguments": ["g++", "-Iinc", "-c", "b.cpp"]},
          {"directory": "/w", "file": "a.cpp", "command": "c++ '-DX=a b' -o a.o a.cpp"},
          {"directory": "/w", "file": "/w/b.cpp", "command": "c++ -DSECOND b.cpp"}])",
      "db.json");
  ASSERT_EQ(commands.size(), 3u);
  EXPECT_EQ(commands[0].file, fs::path("/w/a.cpp"));
  EXPECT_EQ(commands[0].arguments, (std::vector<std::string>{"-DX=a b"}));
  // A file compiled twice with other flags is two commands, in the database's order.
  EXPECT_EQ(commands[1].arguments, (std::vector<std::string>{"-Iinc"}));
  EXPECT_EQ(commands[2].arguments, (std::vector<std::string>{"-DSECOND"}));
  try {
    parse_compile_database(R"([{"directory": "/w"}])", "db.json");
    FAIL() << "expected a CompileDatabaseError";
  } catch (const CompileDatabaseError& e) {
    EXPECT_NE(std::string(e.what()).find("db.json: entry 0: expected an object"), std::string::npos);
  }
  EXPECT_THROW(parse_compile_database("[1e400]", "db.json"), CompileDatabaseError);
  // A file name the system cannot resolve (a component over 255 bytes) is kept as written, not emptied.
  const std::string too_long = "/w/" + repeat("x", 300);
  commands = parse_compile_database(R"([{"directory": "/w", "file": ")" + too_long +
                                        R"(/a.cpp", "command": "c++ a.cpp"},
                                        {"directory": "/w", "file": ")" +
                                        too_long + R"(/../b.cpp", "command": "c++ b.cpp"}])",
                                    "db.json");
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0].file, fs::path("/w/b.cpp"));
  EXPECT_EQ(commands[1].file, fs::path(too_long + "/a.cpp"));
  EXPECT_THROW(parse_compile_database("{}", "db.json"), CompileDatabaseError);
}

// Every config input that ever failed the config fuzz target: valid, or a ConfigError that names the file.
TEST(FuzzRegression, EveryConfigRegressionInputIsHandled) {
  std::size_t n = 0;
  for (const auto& entry : fs::directory_iterator(kRegressions / "fuzz_config")) {
    (void)verdict(test::read_file(entry.path()));  // returns (valid or a ConfigError) within the test's time
    ++n;
  }
  EXPECT_GE(n, 4u);
}
