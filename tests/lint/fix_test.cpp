// The EL200 fixes end to end, on a copy of fixtures/fix: `--fix` in place and `--export-fixes` applied by the
// real clang-apply-replacements must give the same bytes, equal to the expected text, which compiles; a
// second run finds nothing left to fix and changes nothing.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using emberlint::test::read_file;

namespace {

const fs::path kFixture = fs::path(EMBERLINT_FIXTURES) / "fix";

struct Outcome {
  int exit_code = -1;
  std::string out;
};

Outcome shell(const std::string& command, const fs::path& out_file) {
  int status = std::system((command + " >'" + out_file.string() + "' 2>&1").c_str());
  Outcome r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out_file);
  fs::remove(out_file);
  return r;
}

// Debian's clang-tools installs clang-apply-replacements, also as clang-apply-replacements-<N>.
std::string apply_replacements_tool() {
  std::vector<std::string> names = {"clang-apply-replacements"};
  for (int v = 20; v >= 11; --v) names.push_back("clang-apply-replacements-" + std::to_string(v));
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::vector<fs::path> folders;
  for (std::string d; std::getline(dirs, d, ':');) folders.emplace_back(d);
  for (int v = 20; v >= 11; --v) folders.emplace_back("/usr/lib/llvm-" + std::to_string(v) + "/bin");
  for (const auto& name : names) {
    for (const auto& folder : folders) {
      std::error_code ec;
      if (fs::is_regular_file(folder / name, ec) && ::access((folder / name).c_str(), X_OK) == 0)
        return (folder / name).string();
    }
  }
  return {};
}

class Fix : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("emberlint_fix_" + std::to_string(::getpid()) + "_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    expected_ = read_file(kFixture / "src/operators.cpp.fixed");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A fresh copy of the fixture (without the expected text, which is no source file).
  fs::path copy(const std::string& name) {
    fs::path to = dir_ / name;
    fs::copy(kFixture, to, fs::copy_options::recursive);
    fs::remove(to / "src/operators.cpp.fixed");
    return to;
  }

  Outcome emberlint(const fs::path& project, const std::string& args) {
    return shell("cd '" + project.string() + "' && '" EMBERLINT_EXE "' check " + args, dir_ / "out.txt");
  }

  Outcome compiles(const fs::path& project) {
    return shell("c++ -std=c++20 -fsyntax-only -I'" + (project / "include").string() + "' '" +
                     (project / "src/operators.cpp").string() + "'",
                 dir_ / "cc.txt");
  }

  static std::size_t fixable(const nlohmann::json& report) {
    std::size_t n = 0;
    for (const auto& d : report.at("diagnostics")) n += d.at("code") == "EL200" && !d.at("fix").empty();
    return n;
  }

  fs::path dir_;
  std::string expected_;
};

TEST_F(Fix, TheFixtureCompilesBeforeFixing) {
  fs::path a = copy("a");
  Outcome cc = compiles(a);
  EXPECT_EQ(cc.exit_code, 0) << cc.out;
}

TEST_F(Fix, JsonCarriesEachFixWithByteOffsetsIntoTheFileOnDisk) {
  fs::path a = copy("a");
  Outcome r = emberlint(a, "--format json src");
  ASSERT_EQ(r.exit_code, 1) << r.out;
  auto report = nlohmann::json::parse(r.out);
  const std::string source = read_file(a / "src/operators.cpp");
  bool saw_first = false;
  for (const auto& d : report.at("diagnostics")) {
    for (const auto& f : d.at("fix")) {
      EXPECT_EQ(f.at("file"), "src/operators.cpp");
      std::size_t offset = f.at("offset"), length = f.at("length");
      ASSERT_LE(offset + length, source.size());
      if (d.at("line") == 10) {
        EXPECT_EQ(source.substr(offset, length), "a + b");
        EXPECT_EQ(f.at("replacement"), "ember::ops::add(a, b)");
        saw_first = true;
      }
    }
  }
  EXPECT_TRUE(saw_first) << r.out;
  // Nested operators share one edit of the outermost expression.
  std::size_t line11 = 0;
  for (const auto& d : report.at("diagnostics")) {
    if (d.at("line") == 11) {
      ++line11;
      ASSERT_EQ(d.at("fix").size(), 1u);
      EXPECT_EQ(d.at("fix").at(0).at("replacement"),
                "ember::ops::subtract(ember::ops::add(a, ember::ops::multiply(b, c)), a)");
    }
  }
  EXPECT_EQ(line11, 3u);
}

TEST_F(Fix, FixInPlaceGivesTheExpectedTextKeepsPermissionsAndIsIdempotent) {
  fs::path a = copy("a");
  const fs::path file = a / "src/operators.cpp";
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  Outcome first = emberlint(a, "--fix --format json src");
  EXPECT_EQ(first.exit_code, 1) << first.out;  // the operators without a fix remain
  auto report = nlohmann::json::parse(first.out);
  EXPECT_GT(report.at("fixed").get<std::size_t>(), 20u);
  EXPECT_EQ(fixable(report), 0u);
  EXPECT_EQ(read_file(file), expected_);
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  for (const auto& e : fs::directory_iterator(a / "src")) {
    EXPECT_EQ(e.path().filename().string().find(".emberlint-"), std::string::npos) << "temporary file left";
  }
  Outcome cc = compiles(a);
  EXPECT_EQ(cc.exit_code, 0) << cc.out;

  // Second run: nothing fixable, nothing changed, only the operators the fix leaves alone.
  Outcome second = emberlint(a, "--fix --format json src");
  EXPECT_EQ(second.exit_code, 1) << second.out;
  auto again = nlohmann::json::parse(second.out);
  EXPECT_EQ(again.at("fixed"), 0);
  EXPECT_EQ(read_file(file), expected_);
  std::size_t left = 0;
  std::set<std::string> withdrawn;
  for (const auto& d : again.at("diagnostics")) {
    if (d.at("code") == "EL200") {
      ++left;
      EXPECT_TRUE(d.at("fix").empty());
      const std::string message = d.at("message");
      EXPECT_NE(message.find("no automatic fix"), std::string::npos);
      if (message.find("would name 'ember::detail::ops::add' there, not 'ember::ops::add'") !=
          std::string::npos)
        withdrawn.insert("shadowed");
      if (message.find("the fixed code does not compile: no viable overloaded '='") != std::string::npos)
        withdrawn.insert("derived");
    }
  }
  // not_fixed() in the fixture: TWICE(a), 2.0 - a and p[0] -= b; and the two fixes the reparse withdraws:
  // ops::add inside a namespace with its own ops, p += x on a type derived from the tensor.
  EXPECT_EQ(left, 5u);
  EXPECT_EQ(withdrawn, (std::set<std::string>{"shadowed", "derived"}));
}

TEST_F(Fix, ExportedFixesAppliedByClangApplyReplacementsMatchFixInPlace) {
  const std::string tool = apply_replacements_tool();
  ASSERT_FALSE(tool.empty()) << "clang-apply-replacements not found (Debian package clang-tools)";
  fs::path a = copy("a"), b = copy("b");
  ASSERT_EQ(emberlint(a, "--fix --quiet src").exit_code, 1);

  fs::create_directories(dir_ / "yaml");
  Outcome exported = emberlint(b, "--quiet --export-fixes '" + (dir_ / "yaml/fixes.yaml").string() + "' src");
  EXPECT_EQ(exported.exit_code, 1) << exported.out;
  EXPECT_NE(read_file(b / "src/operators.cpp"), expected_);  // exporting changes no file
  Outcome applied = shell("'" + tool + "' '" + (dir_ / "yaml").string() + "'", dir_ / "car.txt");
  ASSERT_EQ(applied.exit_code, 0) << applied.out << "\n" << read_file(dir_ / "yaml/fixes.yaml");
  EXPECT_EQ(read_file(b / "src/operators.cpp"), read_file(a / "src/operators.cpp"));
  EXPECT_EQ(read_file(b / "src/operators.cpp"), expected_);
  Outcome cc = compiles(b);
  EXPECT_EQ(cc.exit_code, 0) << cc.out;

  // Exporting again after applying: no replacement is left.
  fs::remove_all(dir_ / "yaml");
  fs::create_directories(dir_ / "yaml");
  emberlint(b, "--quiet --export-fixes '" + (dir_ / "yaml/fixes.yaml").string() + "' src");
  std::string yaml = read_file(dir_ / "yaml/fixes.yaml");
  EXPECT_EQ(yaml.find("Replacements"), std::string::npos) << yaml;
  ASSERT_EQ(shell("'" + tool + "' '" + (dir_ / "yaml").string() + "'", dir_ / "car.txt").exit_code, 0);
  EXPECT_EQ(read_file(b / "src/operators.cpp"), expected_);
}

TEST_F(Fix, AnUnwritableFolderLeavesTheFileAloneAndExitsThree) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes anywhere";
  fs::path a = copy("a");
  const std::string before = read_file(a / "src/operators.cpp");
  fs::permissions(a / "src", fs::perms::owner_read | fs::perms::owner_exec);
  Outcome r = emberlint(a, "--fix --quiet src");
  fs::permissions(a / "src", fs::perms::owner_all);
  EXPECT_EQ(r.exit_code, 3) << r.out;
  EXPECT_NE(r.out.find("cannot create a temporary file"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(a / "src/operators.cpp"), before);
}

}  // namespace
