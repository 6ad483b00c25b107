// Helpers shared by emberlint's end-to-end tests: a fresh folder per test, whole-file reads and writes, and
// shell commands run in a folder with their exit code and output captured.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace emberlint::test {

struct CommandResult {
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

// An empty folder in the temporary directory, unique to this process and the running test.
inline std::filesystem::path fresh_test_folder(const std::string& prefix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (prefix + std::to_string(::getpid()) + "_" + info->test_suite_name() + "_" + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Runs `command` with /bin/sh in `folder`; its output goes through files in that folder (then removed).
inline CommandResult run_in(const std::filesystem::path& folder, const std::string& command) {
  const std::filesystem::path out = folder / ".test_stdout", err = folder / ".test_stderr";
  std::string line =
      "cd '" + folder.string() + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  int status = std::system(line.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace emberlint::test
