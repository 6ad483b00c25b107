// Helpers shared by emberlint's test binaries (tests/lint and tests/analyze): a fresh folder per test,
// whole-file reads and writes, a byte snapshot of a tree, and shell commands run in a folder with their exit
// code and output captured. The including target defines EMBERLINT_EXE, the emberlint executable's path.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

namespace emberlint::test {

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes `text`, creating the folders on the way.
inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// An empty folder "emberlint_<tag>_<pid>_<suite>_<test>" in the temporary directory: unique to this process
// and the running test.
inline std::filesystem::path scratch_dir(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("emberlint_" + tag + "_" + std::to_string(::getpid()) + "_" +
                                                info->test_suite_name() + "_" + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Runs `command` with /bin/sh in `folder`. Its output goes through two files in `scratch` (default:
// `folder`), removed afterwards.
inline Outcome run_in(const std::filesystem::path& folder, const std::string& command,
                      const std::filesystem::path& scratch = {}) {
  const std::filesystem::path files = scratch.empty() ? folder : scratch;
  std::filesystem::create_directories(files);
  const std::filesystem::path out = files / ".test_stdout", err = files / ".test_stderr";
  std::string line =
      "cd '" + folder.string() + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  int status = std::system(line.c_str());
  Outcome r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

// The emberlint executable, quoted for a shell command.
// TEXT without the qualifier `NS::`: a type or signature as libclang spells it differs by version (libclang
// 16 and later spell a type as the source wrote it, `Tensor`; older ones with its scope, `demo::Tensor`), so
// tests of spelled signatures compare both sides without the scopes the fixture writes either way.
inline std::string without_scope(std::string text, const std::string& ns) {
  const std::string qualifier = ns + "::";
  for (std::size_t at = text.find(qualifier); at != std::string::npos; at = text.find(qualifier, at))
    text.erase(at, qualifier.size());
  return text;
}

inline std::string emberlint() {
  return std::string("'") + EMBERLINT_EXE + "'";
}

// relative path -> bytes ("dir/" -> "" for a folder)
using Tree = std::map<std::string, std::string>;

// Every file and folder below `root` with its bytes, for byte-identical comparisons.
inline Tree snapshot(const std::filesystem::path& root) {
  Tree out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    const std::string rel = std::filesystem::relative(e.path(), root).generic_string();
    out[rel + (e.is_directory() ? "/" : "")] = e.is_regular_file() ? read_file(e.path()) : std::string();
  }
  return out;
}

}  // namespace emberlint::test
