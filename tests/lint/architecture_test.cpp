// The layering of the source tree (issue 16, "One pipeline"): lint/ owns every libclang call
// (lint/libclang/clang.hpp, lint/parse/parse.hpp and the cursor wrapper lint/libclang/cursor.hpp), and no
// folder includes a higher one (lint/ < analyze/ < rules/ < reports/ < lsp/ < cli/). Each failure names the
// file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The repository root: the fixtures are in its tests/lint/fixtures.
const fs::path kRoot = fs::path(EMBERLINT_FIXTURES).parent_path().parent_path().parent_path();

// Every .cpp and .hpp under a folder of the repository (or that one file), sorted.
std::vector<fs::path> sources_under(const std::string& folder) {
  std::vector<fs::path> out;
  if (fs::is_regular_file(kRoot / folder)) return {kRoot / folder};
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
    const std::string ext = entry.path().extension().string();
    if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp")) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "folder/file.cpp:12: <the line>" for each line of the folders' sources that matches `pattern`.
std::vector<std::string> matches(const std::vector<std::string>& folders, const std::regex& pattern) {
  std::vector<std::string> out;
  for (const auto& folder : folders) {
    for (const auto& file : sources_under(folder)) {
      const std::string relative = file.lexically_relative(kRoot).generic_string();
      std::ifstream in(file);
      std::string line;
      for (unsigned number = 1; std::getline(in, line); ++number) {
        if (std::regex_search(line, pattern))
          out.push_back(relative + ":" + std::to_string(number) + ": " + line);
      }
    }
  }
  return out;
}

std::string listed(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

TEST(Architecture, TheSourceTreeIsFound) {
  for (const char* folder : {"lint", "analyze", "rules", "reports", "lsp", "cli"}) {
    EXPECT_TRUE(fs::is_directory(kRoot / folder)) << (kRoot / folder);
  }
  EXPECT_FALSE(sources_under("analyze").empty());
}

// libclang is called only in lint/: analyze/, rules/, lsp/ and cli/ use lint/libclang/cursor.hpp's functions.
TEST(Architecture, NoLibclangCallAboveLint) {
  const std::regex call(R"((^|[^A-Za-z0-9_])clang_[A-Za-z0-9_]+)");
  const auto found = matches({"analyze", "rules", "lsp", "cli"}, call);
  EXPECT_TRUE(found.empty())
      << "libclang called outside lint/ (add a function to lint/libclang/cursor.hpp):\n"
      << listed(found);
}

// Data flows one way: lint/ (compile database, parse, facts, the check pipeline) < analyze/ (inventory
// models) < rules/ (the rules over facts and inventories, and the catalog of them) < reports/ (renderers) <
// lsp/ (the language server over the check pipeline) < cli/ (the composition root that hands the rules down).
// A folder includes only its own and lower ones.
TEST(Architecture, NoFolderIncludesAHigherOne) {
  const std::vector<std::string> order = {"lint", "analyze", "rules", "reports", "lsp", "cli"};
  for (std::size_t i = 0; i + 1 < order.size(); ++i) {
    std::string higher;
    for (std::size_t j = i + 1; j < order.size(); ++j) higher += (higher.empty() ? "" : "|") + order[j];
    const std::regex include(R"(^\s*#\s*include\s*"()" + higher + ")/");
    const auto found = matches({order[i]}, include);
    EXPECT_TRUE(found.empty()) << order[i] << "/ includes a higher folder:\n" << listed(found);
  }
}

// Inside lint/, the stages follow the data, each in its folder (lint/README.md): support/ < libclang/ <
// compile/ < project/ < parse/ < findings/ < run/ < init/. The files at lint/'s top (diagnostic.hpp,
// facts.hpp, severity.hpp, version.hpp) are the vocabulary every stage shares and include only each other.
TEST(Architecture, LintStagesIncludeOnlyLowerOnes) {
  const std::vector<std::string> order = {"support", "libclang", "compile", "project",
                                          "parse",   "findings", "run",     "init"};
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::string higher;
    for (std::size_t j = i + 1; j < order.size(); ++j) higher += (higher.empty() ? "" : "|") + order[j];
    if (higher.empty()) continue;
    const std::regex include(R"(^\s*#\s*include\s*"lint/()" + higher + ")/");
    const auto found = matches({"lint/" + order[i]}, include);
    EXPECT_TRUE(found.empty()) << "lint/" << order[i] << "/ includes a later stage:\n" << listed(found);
  }
  std::vector<std::string> top_level;
  for (const auto& entry : fs::directory_iterator(kRoot / "lint")) {
    if (entry.is_regular_file() && entry.path().extension() == ".hpp")
      top_level.push_back(entry.path().filename());
  }
  const std::regex stage_include(R"(^\s*#\s*include\s*"lint/[a-z_]+/)");
  for (const auto& name : top_level) {
    const auto found = matches({"lint/" + name}, stage_include);
    EXPECT_TRUE(found.empty()) << "lint/" << name << " includes a stage folder:\n" << listed(found);
  }
}

// lint/ keeps its stages in folders: a handful of shared headers at its top, every other file in a stage.
TEST(Architecture, LintTopLevelIsSmall) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kRoot / "lint")) {
    if (entry.is_regular_file()) files.push_back(entry.path().filename());
  }
  std::sort(files.begin(), files.end());
  std::string names;
  for (const auto& f : files) names += f + " ";
  EXPECT_LE(files.size(), 12u) << names;
  for (const char* stage :
       {"support", "libclang", "compile", "project", "parse", "findings", "run", "init"}) {
    EXPECT_TRUE(fs::exists(kRoot / "lint" / stage / "README.md")) << stage;
  }
}

// Issue 36: no emberlint source file over about 800 lines; a longer one is split along its seams.
TEST(Architecture, NoEmberlintSourceOverAbout800Lines) {
  for (const char* folder : {"lint", "analyze", "rules", "reports", "lsp", "cli"}) {
    for (const auto& file : sources_under(folder)) {
      std::ifstream in(file);
      std::size_t lines = 0;
      for (std::string line; std::getline(in, line);) ++lines;
      EXPECT_LE(lines, 800u) << file.lexically_relative(kRoot).generic_string()
                             << ": split it along its seams (lint/README.md, issue 36)";
    }
  }
}

// The test command under load (issue 38): no test has a wall-clock limit that a busy machine could break.
// ctest TIMEOUT properties, libFuzzer's per-input -timeout in the corpus replays, Python subprocess timeouts
// and shell `timeout` in the test scripts: a loaded machine makes a test slower, never failed.
TEST(TestCommand, NoWallClockLimitThatLoadCouldBreak) {
  std::vector<std::string> found;
  const std::regex cmake_limit(R"(\bTIMEOUT\b|-timeout=[1-9])"),
      script_limit(R"(timeout\s*=\s*\d|^\s*timeout\s+\d|[^-\w]timeout\s+\d+\s)");
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    if (it->is_directory() && (name == "build" || name.rfind('.', 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string relative = p.lexically_relative(kRoot).generic_string();
    const bool cmake = name == "CMakeLists.txt" || p.extension() == ".cmake";
    const bool script =
        (p.extension() == ".py" || p.extension() == ".sh") && relative.rfind("tests/", 0) == 0;
    if (!it->is_regular_file() || (!cmake && !script) || relative.find("/fixtures/") != std::string::npos)
      continue;
    std::ifstream in(p);
    std::size_t number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      const std::string code = line.substr(0, line.find('#'));
      if (std::regex_search(code, cmake ? cmake_limit : script_limit))
        found.push_back(relative + ":" + std::to_string(number) + ": " + line);
    }
  }
  std::string all;
  for (const auto& f : found) all += f + "\n";
  EXPECT_TRUE(found.empty()) << all;
}

}  // namespace
