// Nothing half-written: `check --fix -o report` killed (SIGKILL) after each of its file system write steps
// (EMBERLINT_FAULT_AFTER_WRITES, lint/support/fault_injection.hpp) leaves every file exactly as it was or exactly as
// a complete run leaves it, and only hidden temporaries that the next run removes; a full disk (RLIMIT_FSIZE,
// and a small tmpfs where this test may mount one) fails --fix and -o with a clear error and no partial file.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>

#include "tests/support/spawn.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using emberlint::test::Ended;
using emberlint::test::read_file;
using emberlint::test::snapshot;
using emberlint::test::Spawn;
using emberlint::test::spawn_emberlint;
using emberlint::test::Tree;

namespace {

const fs::path kFixture = fs::path(EMBERLINT_FIXTURES) / "fix";
// write_file_atomically's temporaries: hidden, "<name>.emberlint-" and 6 random characters.
const std::regex kTemporary(R"(\..+\.emberlint-[A-Za-z0-9]{6})");

class Fault : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = emberlint::test::scratch_dir("fault"); }
  void TearDown() override { fs::remove_all(dir_); }

  // The fix fixture with three fixable files in two folders; one of them is group-readable only (0640).
  fs::path project(const std::string& name) {
    const fs::path to = dir_ / name;
    fs::copy(kFixture, to, fs::copy_options::recursive);
    fs::remove(to / "src/operators.cpp.fixed");
    fs::create_directories(to / "src/more");
    fs::copy_file(to / "src/operators.cpp", to / "src/more/again.cpp");
    fs::copy_file(to / "src/operators.cpp", to / "src/zeta.cpp");
    fs::permissions(to / "src/zeta.cpp",
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    return to;
  }

  static Ended run(const fs::path& folder, std::vector<std::string> args,
                   std::map<std::string, std::string> env = {}, std::optional<rlim_t> limit = std::nullopt) {
    args.insert(args.begin(), "check");
    Spawn spawn;
    spawn.args = std::move(args);
    spawn.folder = folder;
    spawn.env = std::move(env);
    spawn.file_size_limit = limit;
    return spawn_emberlint(spawn);
  }

  fs::path dir_;
};

const std::vector<std::string> kFixRun = {"--fix",    "--no-cache", "-j", "1",
                                          "--format", "json",       "-o", "report.json"};

TEST_F(Fault, FixKilledAfterEveryWriteStepLeavesOldOrNewFilesAndTheNextRunFinishes) {
  const fs::path ref_tree = project("reference");
  const Tree original = snapshot(ref_tree);
  const Ended ref = run(ref_tree, kFixRun);
  ASSERT_TRUE(ref.exited) << ref.err;
  const Tree done = snapshot(ref_tree);
  for (const char* f : {"src/operators.cpp", "src/more/again.cpp", "src/zeta.cpp"})
    ASSERT_NE(done.at(f), original.at(f)) << f << " is fixed by a complete run";
  ASSERT_TRUE(done.count("report.json"));
  EXPECT_EQ(fs::status(ref_tree / "src/zeta.cpp").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

  int kills = 0;
  for (int n = 1;; ++n) {
    ASSERT_LT(n, 100) << "the run never finished";
    const fs::path tree = project("killed_" + std::to_string(n));
    const Ended e = run(tree, kFixRun, {{"EMBERLINT_FAULT_AFTER_WRITES", std::to_string(n)}});
    if (e.exited) {  // fewer than n steps: a complete run
      EXPECT_EQ(snapshot(tree), done) << "step " << n;
      break;
    }
    ++kills;
    ASSERT_EQ(e.signal, SIGKILL) << "step " << n << ": " << e.err;
    // Every file is the original or the finished one; besides them only hidden temporaries.
    for (const auto& [path, bytes] : snapshot(tree)) {
      const std::string name = fs::path(path).filename().string();
      if (std::regex_match(name, kTemporary)) continue;
      const bool as_before = original.count(path) && original.at(path) == bytes;
      const bool as_after = done.count(path) && done.at(path) == bytes;
      EXPECT_TRUE(as_before || as_after) << "step " << n << ": " << path << " is half-written";
    }
    // The next run finishes the fixes and removes the temporaries of the killed one.
    const Ended next = run(tree, kFixRun);
    EXPECT_TRUE(next.exited) << next.err;
    Tree after = snapshot(tree), expected = done;
    after.erase("report.json");  // its counts describe what that run fixed
    expected.erase("report.json");
    EXPECT_EQ(after, expected) << "step " << n;
    fs::remove_all(tree);
  }
  // Three files and the report, each a temporary created, filled and renamed: every step was a kill point.
  EXPECT_EQ(kills, 12);
}

// The fixture's files as they were, and the error on stderr naming the file.
void expect_untouched(const Tree& before, const fs::path& tree, const Ended& e) {
  Tree after = snapshot(tree);
  after.erase("filler");
  EXPECT_EQ(after, before) << e.err;
}

// RLIMIT_FSIZE limits every file the child writes, libclang's precompiled preambles in TMPDIR too (which it
// does not survive): --parse-all-bodies parses without them.
TEST_F(Fault, FixOnAFullDiskFailsClearlyAndChangesNothing) {
  const fs::path tree = project("rlimit");
  const Tree before = snapshot(tree);
  // The fixed text is larger than the limit: the temporary's write fails with EFBIG.
  const Ended e = run(tree, {"--fix", "--no-cache", "--parse-all-bodies", "--quiet"}, {}, 64);
  ASSERT_TRUE(e.exited) << e.err;
  EXPECT_EQ(e.exit_code, 3) << e.err;
  EXPECT_NE(e.err.find("src/operators.cpp: cannot write the new text: File too large"), std::string::npos)
      << e.err;
  expect_untouched(before, tree, e);
}

TEST_F(Fault, ReportOnAFullDiskFailsClearlyAndLeavesNoFile) {
  const fs::path tree = project("rlimit");
  const Tree before = snapshot(tree);
  const Ended e =
      run(tree, {"--no-cache", "--parse-all-bodies", "--format", "json", "-o", "report.json"}, {}, 64);
  ASSERT_TRUE(e.exited) << e.err;
  EXPECT_EQ(e.exit_code, 2) << e.err;
  EXPECT_NE(
      e.err.find(
          "-o report.json: cannot write this file: report.json: cannot write the new text: File too large"),
      std::string::npos)
      << e.err;
  expect_untouched(before, tree, e);
  // An existing report is left as it was, not truncated.
  emberlint::test::write_file(tree / "report.json", "the previous report\n");
  EXPECT_EQ(run(tree, {"--no-cache", "--parse-all-bodies", "-o", "report.json"}, {}, 64).exit_code, 2);
  EXPECT_EQ(read_file(tree / "report.json"), "the previous report\n");
}

// A real full disk: a 1 MiB tmpfs filled up, where this test may mount one (root with CAP_SYS_ADMIN).
TEST_F(Fault, FixAndReportOnAFullTmpfs) {
  const fs::path mount_point = dir_ / "tmpfs";
  fs::create_directories(mount_point);
  if (::mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=1m") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  struct Unmount {
    fs::path at;
    ~Unmount() { ::umount2(at.c_str(), MNT_DETACH); }
  } unmount{mount_point};
  fs::copy(project("source"), mount_point / "p", fs::copy_options::recursive);
  const fs::path tree = mount_point / "p";
  const Tree before = snapshot(tree);
  {
    std::ofstream filler(tree / "filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), block.size())) {
    }
  }
  const Ended fix = run(tree, {"--fix", "--no-cache", "--quiet"});
  EXPECT_EQ(fix.exit_code, 3) << fix.err;
  EXPECT_NE(fix.err.find("src/operators.cpp: cannot write the new text: No space left on device"),
            std::string::npos)
      << fix.err;
  expect_untouched(before, tree, fix);
  const Ended report = run(tree, {"--no-cache", "--format", "json", "-o", "report.json"});
  EXPECT_EQ(report.exit_code, 2) << report.err;
  EXPECT_NE(
      report.err.find("-o report.json: cannot write this file: report.json: cannot write the new text: No "
                      "space left on device"),
      std::string::npos)
      << report.err;
  expect_untouched(before, tree, report);
}

}  // namespace
