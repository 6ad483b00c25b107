// An applied migration of examples/legacy is all or nothing, even when the process is killed. The
// reference is a complete `analyze --migrate --backend all --apply` of the emberlint executable. The same
// change (every file the reference creates, changes or deletes) is then applied in a forked child that
// kills itself after its N-th write step (EMBERLINT_FAULT_AFTER_WRITES=N), for every N: after each kill,
// every file is the original or the migrated one, and the recovery the next run does leaves the tree exactly
// original (killed before the commit) or exactly migrated (after it); a recovery killed midway is finished
// by the next. Last, the executable itself is killed at the commit and completed by the next
// `emberlint analyze`.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <functional>
#include <regex>

#include "analyze/migrate.hpp"
#include "tests/support/spawn.hpp"
#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;  // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using emberlint::analyze::Migration;

const fs::path kLegacy = fs::path(EMBER_SOURCE_DIR) / "examples" / "legacy";
// The journal, the migration's temporaries, and those of an interrupted atomic write.
const std::regex kScratch(R"(\.emberlint-migration\.json|\..+\.emberlint-(migrating|[A-Za-z0-9]{6}))");

// The change from `before` to `after` as a Migration of the tree at `root`.
Migration migration_between(const Tree& before, const Tree& after, const fs::path& root) {
  Migration m;
  m.root = root;
  for (const auto& [path, bytes] : after) {
    if (path.back() == '/') continue;
    auto it = before.find(path);
    if (it == before.end() || it->second != bytes) m.files[root / path] = bytes;
  }
  for (const auto& [path, bytes] : before) {
    if (after.count(path)) continue;
    if (path.back() != '/') {
      m.files[root / path] = std::nullopt;
    } else if (after.count(fs::path(path.substr(0, path.size() - 1)).parent_path().generic_string() + "/") ||
               fs::path(path.substr(0, path.size() - 1)).parent_path().empty()) {
      m.folders_to_remove.push_back(root /
                                    path.substr(0, path.size() - 1));  // outermost removed folders only
    }
  }
  return m;
}

// Runs `body` in a forked child with EMBERLINT_FAULT_AFTER_WRITES=n: true if the child was killed by it,
// false if it ended (exit code 0 expected).
bool killed_at(long n, const std::function<void()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("EMBERLINT_FAULT_AFTER_WRITES", std::to_string(n).c_str(), 1);
    try {
      body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s\n", e.what());
      ::_exit(3);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    EXPECT_EQ(WTERMSIG(status), SIGKILL) << "step " << n;
    return true;
  }
  EXPECT_EQ(WEXITSTATUS(status), 0) << "step " << n;
  return false;
}

class MigrationFault : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = scratch_dir("fault");
    original_tree_ = copy("original");
    // A changed file with unusual permissions: the migrated one keeps them.
    fs::permissions(original_tree_ / "src/ops/math.cpp", fs::perms::owner_all | fs::perms::group_read);
    original_ = snapshot(original_tree_);
  }
  void TearDown() override { fs::remove_all(scratch_); }

  fs::path copy(const std::string& name) {
    const fs::path to = scratch_ / name;
    fs::copy(original_tree_.empty() ? kLegacy : original_tree_, to, fs::copy_options::recursive);
    fs::remove_all(to / "build");
    return to;
  }

  // Every file of `tree` is the original or the migrated one; besides them only the journal and temporaries.
  void expect_no_half_written(const fs::path& tree, const Tree& migrated, const std::string& when) {
    for (const auto& [path, bytes] : snapshot(tree)) {
      if (std::regex_match(fs::path(path).filename().string(), kScratch)) continue;
      bool as_before = original_.count(path) && original_.at(path) == bytes;
      bool as_after = migrated.count(path) && migrated.at(path) == bytes;
      EXPECT_TRUE(as_before || as_after) << when << ": " << path << " is neither original nor migrated";
    }
  }

  fs::path scratch_, original_tree_;
  Tree original_;
};

TEST_F(MigrationFault, KilledAtEveryWriteStepTheTreeEndsOriginalOrMigrated) {
  const fs::path reference = copy("reference");
  Outcome ref = run_in(reference, emberlint() + " analyze --migrate --backend all --apply", scratch_ / "ref");
  ASSERT_EQ(ref.exit_code, 1) << ref.err;  // the migrated tree still lacks opencl ops (EL400)
  const Tree migrated = snapshot(reference);
  ASSERT_NE(migrated, original_);
  EXPECT_EQ(fs::status(reference / "src/ops/math.cpp").permissions(),
            fs::perms::owner_all | fs::perms::group_read);

  long commit_step = 0, steps = 0;
  for (long n = 1;; ++n) {
    ASSERT_LT(n, 1000) << "the apply never finished";
    const fs::path tree = copy("killed_" + std::to_string(n));
    const Migration m = migration_between(original_, migrated, tree);
    if (!killed_at(n, [&] { emberlint::analyze::apply_migration(m); })) {
      EXPECT_EQ(snapshot(tree), migrated);
      steps = n - 1;
      break;
    }
    const std::string when = "killed after step " + std::to_string(n);
    expect_no_half_written(tree, migrated, when);
    const std::string note = emberlint::analyze::recover_migration(tree);  // what the next run does first
    const Tree recovered = snapshot(tree);
    if (recovered == migrated) {
      if (commit_step == 0) commit_step = n;
      if (!note.empty()) {  // empty: killed after its last step, the journal's removal
        EXPECT_NE(note.find("completed an interrupted migration"), std::string::npos) << when << ": " << note;
      }
    } else {
      EXPECT_EQ(recovered, original_) << when;
      EXPECT_EQ(commit_step, 0) << when << ": original again after a kill that was completed";
    }
    fs::remove_all(tree);
  }
  // Both outcomes were seen: a journal, folders, temporaries before the commit; renames and deletions after.
  EXPECT_GT(commit_step, 1);
  EXPECT_LT(commit_step, steps);

  // A recovery killed midway is completed by the next one.
  for (long k = 1;; ++k) {
    ASSERT_LT(k, 1000);
    const fs::path tree = copy("recovery_" + std::to_string(k));
    const Migration m = migration_between(original_, migrated, tree);
    ASSERT_TRUE(killed_at(commit_step, [&] { emberlint::analyze::apply_migration(m); }));
    const bool killed = killed_at(k, [&] { emberlint::analyze::recover_migration(tree); });
    expect_no_half_written(tree, migrated, "recovery killed after step " + std::to_string(k));
    emberlint::analyze::recover_migration(tree);
    EXPECT_EQ(snapshot(tree), migrated) << "recovery killed after step " << k;
    fs::remove_all(tree);
    if (!killed) break;
  }

  // The executable, killed right after the commit and right before it; the next `emberlint analyze` finishes
  // or undoes the apply and says so.
  struct Kill {
    long step;
    const Tree* expected;
    const char* says;
  };
  for (const Kill& k : {Kill{commit_step, &migrated, "completed an interrupted migration"},
                        Kill{commit_step - 1, &original_, "undid an interrupted migration"}}) {
    const fs::path tree = copy("cli_" + std::to_string(k.step));
    emberlint::test::Spawn apply;
    // --no-cache: a result cache entry is a write too, and the steps counted here are the migration's.
    apply.args = {"analyze", "--migrate", "--backend", "all", "--apply", "--no-cache"};
    apply.folder = tree;
    apply.env = {{"EMBERLINT_FAULT_AFTER_WRITES", std::to_string(k.step)}};
    const emberlint::test::Ended e = emberlint::test::spawn_emberlint(apply);
    ASSERT_EQ(e.signal, SIGKILL) << e.err;
    Outcome next = run_in(tree, emberlint() + " analyze --format json", scratch_ / "next");
    EXPECT_NE(next.err.find(k.says), std::string::npos) << next.err;
    EXPECT_EQ(snapshot(tree), *k.expected) << "killed after step " << k.step;
  }
}

TEST_F(MigrationFault, AnUnreadableJournalIsAnErrorThatSaysWhatToDo) {
  write_file(original_tree_ / ".emberlint-migration.json", "{\"journal\": \"migration\", \"state\": ");
  Outcome o = run_in(original_tree_, emberlint() + " analyze", scratch_ / "out");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find(".emberlint-migration.json: not a valid migration journal"), std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("restore the tree from version control, then delete the journal"), std::string::npos)
      << o.err;
}

}  // namespace
}  // namespace analyze_test
