// Scale: emberlint over a generated code base of 2,000 translation units (EMBERLINT_SCALE_UNITS for another
// size) in ember's frontend/backend shape. bench/generate_tree.py --light writes the tree and the findings it
// promises (expected_findings.json); `check -p build -j 2 --format json --statistics --no-cache` must exit 1
// with exactly those findings (none lost, none doubled), every unit analyzed and none failed, and a peak
// resident set (the emberlint child's ru_maxrss, from wait4) under 1 GiB. Prints the wall time, the time per
// unit and the peak memory. Its ctest has the label `scale`, which the asan-ubsan test preset leaves out.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr long kMaxPeakRssKiB = 1024L * 1024L;  // 1 GiB

// One finding as the manifest and the report both name it.
using Finding = std::tuple<std::string, int, std::string>;  // file, line, code

// The findings of a manifest's "findings" or a report's "diagnostics", sorted, duplicates kept.
std::vector<Finding> findings_of(const nlohmann::json& list) {
  std::vector<Finding> out;
  for (const auto& f : list) out.emplace_back(f.at("file"), f.at("line"), f.at("code"));
  std::sort(out.begin(), out.end());
  return out;
}

// What differs between the expected and the reported findings (as multisets): "lost ..." and "extra ..."
// lines, empty when they are the same. A doubled finding is one extra.
std::string difference(const std::vector<Finding>& expected, const std::vector<Finding>& got) {
  std::vector<Finding> lost, extra;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(lost));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(), std::back_inserter(extra));
  std::string out;
  auto list = [&out](const char* what, const std::vector<Finding>& fs) {
    for (const auto& [file, line, code] : fs)
      out += std::string(what) + " " + code + " " + file + ":" + std::to_string(line) + "\n";
  };
  list("lost", lost);
  list("extra", extra);
  return out;
}

// The emberlint run: exit status, wall time and the child's own peak resident set.
struct Ended {
  bool exited = false;
  int exit_code = -1;
  double seconds = 0;
  long peak_rss_kib = 0;
};

// Runs emberlint with `args` in `folder`, stdout and stderr into files there; waits with wait4 so that the
// resource usage is this child's alone (not the generator's, which RUSAGE_CHILDREN would mix in).
Ended run_emberlint(const fs::path& folder, const std::vector<std::string>& args) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(126);
    const int out = ::open("emberlint.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open("emberlint.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) ::_exit(126);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    std::string exe = EMBERLINT_EXE;
    std::vector<std::string> copy = args;
    std::vector<char*> argv{exe.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  Ended run;
  if (pid < 0) return run;
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) != pid) return run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exited = WIFEXITED(status);
  run.exit_code = run.exited ? WEXITSTATUS(status) : -1;
  run.peak_rss_kib = usage.ru_maxrss;  // kilobytes on Linux
  return run;
}

int scale_units() {
  const char* env = std::getenv("EMBERLINT_SCALE_UNITS");
  const int n = env ? std::atoi(env) : 0;
  return n >= 1 ? n : 2000;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

class ScaleFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("emberlint_scale_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(root_);  // kept for a look when something went wrong
  }
  fs::path root_;
};

TEST(ScaleCompare, LostAndDoubledFindingsAreReported) {
  const std::vector<Finding> expected{{"a.cpp", 4, "EL100"}, {"a.cpp", 9, "EL200"}, {"b.cpp", 2, "EL300"}};
  EXPECT_EQ(difference(expected, expected), "");
  std::vector<Finding> lost{expected[0], expected[2]};
  EXPECT_EQ(difference(expected, lost), "lost EL200 a.cpp:9\n");
  std::vector<Finding> doubled = expected;
  doubled.push_back(expected[1]);
  std::sort(doubled.begin(), doubled.end());
  EXPECT_EQ(difference(expected, doubled), "extra EL200 a.cpp:9\n");
}

TEST_F(ScaleFolder, GeneratedCodeBaseLintsWithExactFindingsAndBoundedMemory) {
  const int units = scale_units();
  const fs::path tree = root_ / "tree";
  const std::string generate = "'" EMBERLINT_PYTHON "' '" EMBERLINT_TREE_GENERATOR "' '" + tree.string() +
                               "' --light --units " + std::to_string(units);
  ASSERT_EQ(std::system(generate.c_str()), 0) << generate;
  const nlohmann::json expected = read_json(tree / "expected_findings.json");
  ASSERT_TRUE(expected.is_object() && expected.contains("findings"))
      << "no expected_findings.json in " << tree;
  ASSERT_EQ(expected["units"], units);

  const Ended run =
      run_emberlint(tree, {"check", "-p", "build", "-j", "2", "--format", "json", "--statistics",
                           "--no-cache", "-o", (root_ / "report.json").string()});
  const double per_unit_ms = 1000.0 * run.seconds / units;
  std::printf("scale: %d units, -j 2, --no-cache: %.1f s wall, %.1f ms per unit, peak RSS %.1f MiB\n", units,
              run.seconds, per_unit_ms, static_cast<double>(run.peak_rss_kib) / 1024.0);
  RecordProperty("units", units);
  RecordProperty("wall_ms", static_cast<int>(run.seconds * 1000));
  RecordProperty("peak_rss_kib", static_cast<int>(run.peak_rss_kib));
  ASSERT_TRUE(run.exited) << "emberlint did not exit normally";
  ASSERT_EQ(run.exit_code, 1) << "findings expected; stderr:\n"
                              << std::ifstream(tree / "emberlint.err").rdbuf();

  const nlohmann::json report = read_json(root_ / "report.json");
  ASSERT_TRUE(report.is_object() && report.contains("diagnostics")) << "no JSON report";
  EXPECT_EQ(report["files_analyzed"], units);
  EXPECT_TRUE(report["failures"].empty())
      << "units that could not be analyzed: " << report["failures"].dump(1);
  for (const auto& [code, count] : expected["counts"].items()) {
    EXPECT_EQ(report["statistics"].value(code, -1), count.get<int>()) << code << " in --statistics";
  }
  EXPECT_EQ(difference(findings_of(expected["findings"]), findings_of(report["diagnostics"])), "");
  EXPECT_GT(run.peak_rss_kib, 0);
  EXPECT_LT(run.peak_rss_kib, kMaxPeakRssKiB) << "peak resident set of emberlint over " << units << " units";
}

}  // namespace
