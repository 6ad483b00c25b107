// Running the emberlint executable from tests: exit code, stdout and stderr, and scratch folders.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace analyze_test {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string out, err;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Runs a shell command in `dir`, capturing its output into files of `scratch`.
inline Outcome run_in(const fs::path& dir, const std::string& command, const fs::path& scratch) {
  fs::create_directories(scratch);
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  std::string cmd =
      "cd '" + dir.string() + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  int status = std::system(cmd.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.out = slurp(out);
  o.err = slurp(err);
  return o;
}

inline std::string emberlint() {
  return std::string("'") + EMBERLINT_EXE + "'";
}

// A fresh scratch folder per test, named after the process and the test.
inline fs::path scratch_dir(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  fs::path dir = fs::temp_directory_path() /
                 ("emberlint_analyze_" + tag + "_" + std::to_string(::getpid()) + "_" + info->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Every regular file below `root` with its bytes, for byte-identical comparisons.
inline std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    std::string rel = fs::relative(e.path(), root).generic_string();
    out[rel + (e.is_directory() ? "/" : "")] = e.is_regular_file() ? slurp(e.path()) : std::string();
  }
  return out;
}

}  // namespace analyze_test
