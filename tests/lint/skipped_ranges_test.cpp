// lint/parse's for_each_skipped_range: the ranges a disabled #if removed, of the files the caller wants only.
// A unit with a preamble (or a shared prefix) holds the skipped ranges of every header in it; the text of a
// file is read only when it is wanted, and whether it is wanted is asked once per file.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "lint/compile/compile_db.hpp"
#include "lint/parse/parse.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using namespace emberlint;

namespace {

TEST(SkippedRanges, OnlyTheWantedFilesRangesAreReadAndEachFileIsAskedOnce) {
  const fs::path dir = fs::canonical(test::scratch_dir("skipped_ranges"));
  test::write_file(dir / "lib/lib.hpp",
                   "#pragma once\n#if 0\nint lib_disabled_one;\n#endif\n#ifdef NEVER\nint lib_disabled_two;\n"
                   "#endif\ninline int lib() { return 1; }\n");
  test::write_file(dir / "own/own.hpp",
                   "#pragma once\n#if 0\nint own_disabled_one;\n#endif\nint own();\n#if defined(NEVER)\n"
                   "int own_disabled_two;\n#endif\n");
  test::write_file(dir / "main.cpp",
                   "#include \"lib/lib.hpp\"\n#include \"own/own.hpp\"\n#if 0\nint main_disabled;\n#endif\n"
                   "int main() { return lib() + own(); }\n");
  CompileCommand command;
  command.file = dir / "main.cpp";
  command.directory = dir;
  command.arguments = {"-std=c++20", "-I."};
  UnitParse how;
  how.skip_preamble_bodies = true;  // as analyze parses: both headers are in the unit's preamble
  clang::Index index;
  ParsedUnit parsed = parse_unit(index, command, find_resource_dir(), how);
  ASSERT_TRUE(parsed);

  std::map<fs::path, int> asked;
  std::map<fs::path, std::string> removed;
  for_each_skipped_range(
      parsed.tu.get(), dir,
      [&](const fs::path& p) {
        ++asked[p];
        return p.filename() != "lib.hpp";
      },
      [&](const fs::path& p, std::string_view text) { removed[p].append(text).push_back('|'); });

  // Every file with a skipped range is asked about, once, with its full path.
  EXPECT_EQ(asked, (std::map<fs::path, int>{
                       {dir / "lib/lib.hpp", 1}, {dir / "own/own.hpp", 1}, {dir / "main.cpp", 1}}));
  ASSERT_EQ(removed.size(), 2u);
  EXPECT_EQ(removed.count(dir / "lib/lib.hpp"), 0u);  // not wanted: its text never handed over
  const std::string& own = removed[dir / "own/own.hpp"];
  EXPECT_NE(own.find("own_disabled_one"), std::string::npos);
  EXPECT_NE(own.find("own_disabled_two"), std::string::npos);
  EXPECT_EQ(own.find("int own();"), std::string::npos);  // the enabled code is no skipped range
  EXPECT_NE(removed[dir / "main.cpp"].find("main_disabled"), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
