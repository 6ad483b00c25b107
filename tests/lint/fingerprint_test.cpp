// Tests of the findings' fingerprints (lint/run/fingerprint.hpp): stable across runs and line moves, sensitive
// to the flagged code, its neighbours, the rule and the file, and told apart by an occurrence index.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "lint/run/fingerprint.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

class Fingerprints : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("emberlint_fp_" + std::to_string(getpid()));
    fs::create_directories(root_ / "src");
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path write(const std::string& rel, const std::string& text) {
    fs::path p = root_ / rel;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  Diagnostic at(const fs::path& file, unsigned line, const std::string& code = "EL200") {
    Diagnostic d;
    d.code = code;
    d.file = file;
    d.line = line;
    d.column = 3;
    d.message = "message";
    return d;
  }
  std::string hash(const Diagnostic& d) { return Fingerprinter(root_).hash(d); }

  fs::path root_;
};

TEST_F(Fingerprints, AreThirtyTwoHexDigitsThatIgnoreBlanksInTheNeighbours) {
  fs::path f = write("src/a.cpp", "int f();\nauto y = a + b;\nint g();\n");
  std::string h = hash(at(f, 2));
  EXPECT_TRUE(std::regex_match(h, std::regex("[0-9a-f]{32}"))) << h;
  write("src/a.cpp", "\tint   f();  \r\nauto y = a + b;\n  int\tg();\n");
  EXPECT_EQ(hash(at(f, 2)), h);
}

TEST(NormalizedContext, CollapsesBlanksAndPadsTheEnds) {
  SourceText t("  int  a =\tb;  \nc  +  d;\n\te;\n");
  EXPECT_EQ(normalized_context(t, 1), "\nint a = b;\nc + d;");
  EXPECT_EQ(normalized_context(t, 2), "int a = b;\nc + d;\ne;");
  EXPECT_EQ(normalized_context(SourceText("x\n"), 1), "\nx\n");
}

TEST_F(Fingerprints, SurviveInsertedLinesAndIndentation) {
  fs::path f = write("src/a.cpp", "int f();\nauto y = a + b;\nint g();\n");
  std::string before = hash(at(f, 2));
  write("src/a.cpp", "// new\n// lines\nint f();\n    auto   y = a + b;\nint g();\n");
  EXPECT_EQ(hash(at(f, 4)), before);
}

TEST_F(Fingerprints, ChangeWithTheCodeTheRuleTheFileAndTheNeighbours) {
  fs::path f = write("src/a.cpp", "int f();\nauto y = a + b;\nint g();\n");
  std::string base = hash(at(f, 2));
  EXPECT_NE(hash(at(f, 2, "EL300")), base);
  fs::path other = write("src/b.cpp", "int f();\nauto y = a + b;\nint g();\n");
  EXPECT_NE(hash(at(other, 2)), base);
  write("src/a.cpp", "int f();\nauto y = a - b;\nint g();\n");
  EXPECT_NE(hash(at(f, 2)), base);
  write("src/a.cpp", "int f2();\nauto y = a + b;\nint g();\n");
  EXPECT_NE(hash(at(f, 2)), base);
}

TEST_F(Fingerprints, TheProjectRootDoesNotMatterOnlyTheRelativePath) {
  fs::path f = write("src/a.cpp", "x;\n");
  std::string h = hash(at(f, 1));
  fs::path moved = root_ / "copy";
  fs::create_directories(moved / "src");
  fs::copy_file(f, moved / "src/a.cpp");
  EXPECT_EQ(Fingerprinter(moved).hash(at(moved / "src/a.cpp", 1)), h);
}

TEST_F(Fingerprints, OccurrencesNumberEqualHashesInOrder) {
  fs::path f = write("src/a.cpp", "a + b;\nc;\na + b;\n");
  CheckResult r;
  r.root = root_;
  Diagnostic first = at(f, 1), same_line = at(f, 1), other = at(f, 3);
  same_line.column = 7;
  r.diagnostics = {first, same_line, other};
  auto fps = fingerprints(r);
  ASSERT_EQ(fps.size(), 3u);
  EXPECT_EQ(fps[0].substr(32), ":1");
  EXPECT_EQ(fps[1].substr(32), ":2");
  EXPECT_EQ(fps[0].substr(0, 32), fps[1].substr(0, 32));
  EXPECT_EQ(fps[2].substr(32), ":1");  // line 3 has other neighbours than line 1
  EXPECT_EQ(std::set<std::string>(fps.begin(), fps.end()).size(), 3u);
}

TEST_F(Fingerprints, AnUnreadableFileStillGetsOne) {
  Diagnostic d = at(root_ / "gone.cpp", 4);
  std::string h = hash(d);
  EXPECT_EQ(h.size(), 32u);
  d.line = 5;
  EXPECT_NE(hash(d), h);
}

}  // namespace
