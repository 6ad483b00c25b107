// The result cache, parallel runs and the progress line, end to end through the emberlint executable: a warm
// run reuses every unit and prints the same bytes; a changed header re-analyzes exactly its dependents;
// configs and compile flags invalidate; damaged entries are misses that get rewritten; --no-cache, `emberlint
// clean` and an unusable cache folder; -j 1 and -j 4 agree byte for byte; the progress line shows on a
// terminal only.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "lint/run/cache.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::write_file;

namespace {

// Every test of this binary that runs the emberlint executable without --cache-dir caches under a temporary
// XDG_CACHE_HOME, never in the user's cache.
class TemporaryCacheHome : public ::testing::Environment {
 public:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("emberlint_cache_home_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    ::setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  }
  void TearDown() override { fs::remove_all(dir_); }

 private:
  fs::path dir_;
};
[[maybe_unused]] ::testing::Environment* const kCacheHome =
    ::testing::AddGlobalTestEnvironment(new TemporaryCacheHome);

struct Counts {
  std::size_t hits = 0, misses = 0;
};

// A project of seven units: a.hpp is included by two of them, b.hpp by one, with EL100 findings.
class Cache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = emberlint::test::scratch_dir("cache");
    cache_ = dir_ / "cache";
    write_file(dir_ / ".emberlint.json", R"({
      "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "exclude": ["cache/**"]
    })");
    write_file(dir_ / "vendor/Eigen/Core",
               "#pragma once\nnamespace Eigen { struct MatrixXd { long rows() const { return 0; } }; }\n");
    write_file(dir_ / "frontend/include/a.hpp", "#pragma once\ninline int a() { return 1; }\n");
    write_file(dir_ / "frontend/include/b.hpp", "#pragma once\ninline int b() { return 2; }\n");
    write_file(dir_ / "frontend/a1.cpp", "#include \"a.hpp\"\nint a1() { return a(); }\n");
    write_file(dir_ / "frontend/a2.cpp", "#include \"a.hpp\"\nint a2() { return a() + 1; }\n");
    write_file(dir_ / "frontend/b1.cpp", "#include \"b.hpp\"\nint b1() { return b(); }\n");
    write_file(dir_ / "frontend/plain.cpp", "int plain(int n) { return n * 2; }\n");
    write_file(dir_ / "frontend/bad.cpp", "#include <Eigen/Core>\nint bad() { return 3; }\n");
    write_file(dir_ / "frontend/bad2.cpp",
               "#include <Eigen/Core>\n#include \"b.hpp\"\nint bad2() { return b(); }\n");
    write_file(dir_ / "backends/eigen/ops.cpp",
               "#include <Eigen/Core>\nlong f() { return Eigen::MatrixXd().rows(); }\n");
    write_database({});
    age();
  }
  void TearDown() override { fs::remove_all(dir_); }

  static constexpr std::size_t kUnits = 7;
  // Cache entries: the units and the two headers with inline bodies (a.hpp, b.hpp), each parsed on its own.
  static constexpr std::size_t kEntries = kUnits + 2;

  // compile_commands.json for every .cpp; `extra` adds arguments to the unit of that file name.
  void write_database(const std::map<std::string, std::string>& extra) {
    nlohmann::json db = nlohmann::json::array();
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      if (e.path().extension() != ".cpp") continue;
      std::vector<std::string> args = {"c++", "-std=c++20", "-isystem", "vendor", "-Ifrontend/include"};
      if (auto it = extra.find(e.path().filename().string()); it != extra.end()) args.push_back(it->second);
      args.insert(args.end(), {"-c", e.path().string()});
      db.push_back({{"directory", dir_.string()}, {"file", e.path().string()}, {"arguments", args}});
    }
    write_file(dir_ / "build/compile_commands.json", db.dump(2));
  }

  // Moves every file's mtime an hour back: a file modified just before a run is not cached by that run
  // (it may change while it is parsed), and the tests count on what is cached.
  void age() {
    const auto past = fs::file_time_type::clock::now() - std::chrono::hours(1);
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      if (e.is_regular_file() && !e.path().string().starts_with(cache_.string()))
        fs::last_write_time(e, past);
    }
  }

  Outcome run(const std::string& args, const std::string& env = "") {
    return emberlint::test::run_in(dir_, env + " '" EMBERLINT_EXE "' " + args);
  }

  // A check of the project with the test's cache folder.
  Outcome check(const std::string& more = "") {
    return run("check -p build --cache-dir '" + cache_.string() + "' " + more);
  }

  // The cache's hits and misses of one JSON run.
  Counts counts(const std::string& more = "") {
    Outcome r = check("--format json --statistics " + more);
    auto j = nlohmann::json::parse(r.out);
    Counts c;
    c.hits = j.at("statistics").at("cache").at("hits");
    c.misses = j.at("statistics").at("cache").at("misses");
    return c;
  }

  std::vector<fs::path> entries() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(cache_)) {
      if (e.path().extension() == ".entry") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_, cache_;
};

TEST_F(Cache, WarmRunPrintsTheSameBytesAndAnalyzesNothing) {
  Outcome cold = check();
  EXPECT_EQ(cold.exit_code, 1) << cold.out << cold.err;
  EXPECT_NE(cold.out.find("[EL100 frontend-includes-backend]"), std::string::npos) << cold.out;
  EXPECT_EQ(entries().size(), kEntries);
  Outcome warm = check();
  EXPECT_EQ(warm.exit_code, cold.exit_code);
  EXPECT_EQ(warm.out, cold.out);
  EXPECT_EQ(warm.out, run("check -p build --no-cache").out);
  Counts c = counts();
  EXPECT_EQ(c.hits, kEntries);
  EXPECT_EQ(c.misses, 0u);
}

TEST_F(Cache, StatisticsCountHitsAndMisses) {
  Outcome cold = check("--statistics");
  EXPECT_NE(cold.out.find("cache: 0 hits, 9 misses\n"), std::string::npos) << cold.out;
  Outcome warm = check("--statistics");
  EXPECT_NE(warm.out.find("cache: 9 hits, 0 misses\n"), std::string::npos) << warm.out;
  Outcome none = run("check -p build --no-cache --statistics");
  EXPECT_EQ(none.out.find("cache:"), std::string::npos) << none.out;
}

TEST_F(Cache, ChangedHeaderReanalyzesExactlyItsDependents) {
  check();
  // a.hpp now includes a backend library: EL100 in the header, seen through a1.cpp and a2.cpp only, and its
  // own parse (its inline body) is a miss too.
  write_file(dir_ / "frontend/include/a.hpp",
             "#pragma once\n#include <Eigen/Core>\ninline int a() { return 1; }\n");
  age();
  Outcome r = check("--format json --statistics");
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("statistics").at("cache").at("hits"), kEntries - 3);
  EXPECT_EQ(j.at("statistics").at("cache").at("misses"), 2 + 1);
  bool in_header = false;
  for (const auto& d : j.at("diagnostics")) in_header |= d.at("file") == "frontend/include/a.hpp";
  EXPECT_TRUE(in_header) << r.out;
  EXPECT_EQ(check().out, run("check -p build --no-cache").out);

  // b.hpp is included by b1.cpp and bad2.cpp, and parsed on its own.
  write_file(dir_ / "frontend/include/b.hpp", "#pragma once\ninline int b() { return 20; }\n");
  age();
  Counts c = counts();
  EXPECT_EQ(c.misses, 3u);
  EXPECT_EQ(c.hits, kEntries - 3);
}

TEST_F(Cache, TouchKeepsEntriesAndSameSizeEditsAreSeen) {
  check();
  // Touched to another time, same content: the content hash keeps every entry valid.
  const auto other = fs::file_time_type::clock::now() - std::chrono::minutes(10);
  for (const auto& e : fs::recursive_directory_iterator(dir_ / "frontend")) {
    if (e.is_regular_file()) fs::last_write_time(e, other);
  }
  Counts touched = counts();
  EXPECT_EQ(touched.hits, kEntries);
  EXPECT_EQ(touched.misses, 0u);

  // Same-size edits. The first has an mtime no run can trust, one not safely before the run's start (here an
  // hour ahead, as a clock-skewed share shows it; an edit within the last 2 s is another): the entry keeps no
  // mtime. The second keeps that very mtime (as on a file system with coarse timestamps): the content tells
  // the difference. No part of this depends on how soon a run starts, however busy the machine.
  const fs::path plain = dir_ / "frontend/plain.cpp";
  const auto moment = fs::file_time_type::clock::now() + std::chrono::hours(1);
  write_file(plain, "int plain(int n) { return n * 3; }\n");
  fs::last_write_time(plain, moment);
  EXPECT_EQ(counts("frontend/plain.cpp").misses, 1u);
  write_file(plain, "int plain(int n) { return n * 4; }\n");
  fs::last_write_time(plain, moment);
  Counts edited = counts();
  EXPECT_EQ(edited.misses, 1u);
  EXPECT_EQ(edited.hits, kEntries - 1);
}

TEST_F(Cache, ConfigChangesInvalidateEveryUnitTheyGovern) {
  Outcome cold = check();
  EXPECT_EQ(cold.exit_code, 1);
  std::string config = read_file(dir_ / ".emberlint.json");
  std::string off = config;
  off.insert(off.rfind('}'), R"(, "rules": {"EL100": "off"})");
  write_file(dir_ / ".emberlint.json", off);
  age();
  Counts c = counts();
  EXPECT_EQ(c.misses, kEntries);
  EXPECT_EQ(check().exit_code, 0);
  EXPECT_EQ(check().out, run("check -p build --no-cache").out);
}

TEST_F(Cache, CompileFlagsInvalidateTheirUnit) {
  check();
  write_database({{"plain.cpp", "-DPLAIN=1"}});
  age();
  Counts c = counts();
  EXPECT_EQ(c.misses, 1u);
  EXPECT_EQ(c.hits, kEntries - 1);
  // The selected rules are part of the key too.
  Counts selected = counts("--select EL100");
  EXPECT_EQ(selected.misses, kEntries);
}

// The units of one command load a shared precompiled prefix (here of vendor/Eigen/Core, which three units
// include): a unit's result depends on what it read through the prefix, and only on that.
TEST_F(Cache, AUnitThatLoadsAPrefixDependsOnTheHeadersItReadsThroughIt) {
  age();
  Outcome cold = check("--format json --statistics");
  auto j = nlohmann::json::parse(cold.out);
  EXPECT_EQ(j.at("statistics").at("parses").at("prefixes"), 1) << cold.out;
  EXPECT_EQ(j.at("statistics").at("parses").at("prefixed_units"), kUnits) << cold.out;
  write_file(
      dir_ / "vendor/Eigen/Core",
      "#pragma once\n// edited\nnamespace Eigen { struct MatrixXd { long rows() const { return 0; } }; }\n");
  age();
  Counts c = counts();
  EXPECT_EQ(c.misses, 3u) << "bad.cpp, bad2.cpp and backends/eigen/ops.cpp include <Eigen/Core>";
  EXPECT_EQ(c.hits, kEntries - 3);
}

TEST_F(Cache, DamagedEntriesAreMissesAndGetRewritten) {
  Outcome cold = check();
  std::vector<fs::path> all = entries();
  ASSERT_EQ(all.size(), kEntries);
  std::string truncated = read_file(all[0]);
  write_file(all[0], truncated.substr(0, truncated.size() / 2));
  std::string flipped = read_file(all[1]);
  flipped[flipped.size() - 3] ^= 0x5a;
  write_file(all[1], flipped);
  write_file(all[2], "");
  Outcome damaged = check("--statistics");
  EXPECT_NE(damaged.out.find("cache: 6 hits, 3 misses\n"), std::string::npos) << damaged.out;
  EXPECT_EQ(check().out, cold.out);
  Counts c = counts();
  EXPECT_EQ(c.hits, kEntries);
  EXPECT_EQ(read_file(all[0]), truncated);  // rewritten in full
}

TEST_F(Cache, PartialUnitsAreCachedAndAMissingFileThatAppearsInvalidatesThem) {
  write_file(dir_ / "frontend/plain.cpp", "int plain(int n) { return n * 2 }\n");  // a syntax error
  age();
  EXPECT_EQ(check().exit_code, 3);
  Outcome again = check("--statistics");
  EXPECT_EQ(again.exit_code, 3);
  EXPECT_NE(again.out.find("cache: 9 hits, 0 misses\n"), std::string::npos) << again.out;
  write_file(dir_ / "frontend/plain.cpp", "int plain(int n) { return n * 2; }\n");
  age();
  Outcome fixed = check("--format json");
  EXPECT_EQ(fixed.exit_code, 1) << fixed.out;
  EXPECT_TRUE(nlohmann::json::parse(fixed.out).at("failures").empty()) << fixed.out;

  // A header that does not exist yet: the unit is cached with the folders where the header could appear,
  // and the header, once written, is found.
  write_file(dir_ / "frontend/plain.cpp", "#include \"later.hpp\"\nint plain(int n) { return n * 2; }\n");
  age();
  EXPECT_EQ(check().exit_code, 3);
  EXPECT_EQ(counts().misses, 0u);
  write_file(dir_ / "frontend/include/later.hpp", "#pragma once\n");
  age();
  Outcome cured = check("--format json");
  EXPECT_EQ(cured.exit_code, 1) << cured.out;
  EXPECT_TRUE(nlohmann::json::parse(cured.out).at("failures").empty()) << cured.out;
}

TEST_F(Cache, NoCacheWritesNothing) {
  const fs::path home = dir_ / "xdg";
  Outcome r = run("check -p build --no-cache", "XDG_CACHE_HOME='" + home.string() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_FALSE(fs::exists(home));
  EXPECT_EQ(run("check -p build --no-cache --cache-dir x").exit_code, 2);  // contradictory
}

TEST_F(Cache, DefaultFolderFollowsXdgCacheHomeAndCleanRemovesIt) {
  const fs::path home = dir_ / "xdg";
  const std::string env = "XDG_CACHE_HOME='" + home.string() + "'";
  run("check -p build", env);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(home / "emberlint")) files += e.is_regular_file();
  EXPECT_EQ(files, kEntries + 1);  // the entries and CACHEDIR.TAG
  Outcome clean = run("clean", env);
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_NE(clean.out.find("9 entries"), std::string::npos) << clean.out;
  EXPECT_FALSE(fs::exists(home / "emberlint"));
  EXPECT_EQ(run("clean", env).exit_code, 0);  // nothing to remove

  check();
  write_file(cache_ / "notes.txt", "mine\n");
  Outcome foreign = run("clean --cache-dir '" + cache_.string() + "'");
  EXPECT_EQ(foreign.exit_code, 2);
  EXPECT_NE(foreign.err.find("did not write"), std::string::npos) << foreign.err;
  EXPECT_TRUE(fs::exists(cache_ / "notes.txt"));
  EXPECT_TRUE(entries().empty());
}

TEST_F(Cache, UnusableCacheFolderStillLintsAndSaysSoOnce) {
  write_file(dir_ / "blocker", "a file where the cache folder would be\n");
  Outcome r = run("check -p build --cache-dir blocker/cache");
  Outcome plain = run("check -p build --no-cache");
  EXPECT_EQ(r.exit_code, plain.exit_code);
  EXPECT_EQ(r.out, plain.out);
  EXPECT_NE(r.err.find("running without the result cache"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(Cache, ParallelRunsPrintTheSameBytes) {
  Outcome one = run("check -p build --no-cache -j 1 --format json");
  Outcome four = run("check -p build --no-cache -j 4 --format json");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_EQ(one.out, four.out);
  EXPECT_EQ(run("check -p build --no-cache -j 1").out, run("check -p build --no-cache -j 4").out);
  EXPECT_EQ(check("-j 4").out, run("check -p build --no-cache -j 1").out);
  EXPECT_EQ(check("-j 1").out, check("-j 4").out);  // both from the cache
}

TEST_F(Cache, NoProgressWhenStderrIsNotATerminal) {
  Outcome r = run("check -p build --no-cache -j 2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "");
}

TEST_F(Cache, ProgressLineOnATerminalIsRewrittenAndCleared) {
  // stderr (and stdout) on a pseudo-terminal.
  int master = -1;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (::chdir(dir_.c_str()) != 0) ::_exit(127);
    ::execl(EMBERLINT_EXE, EMBERLINT_EXE, "check", "-p", "build", "--no-cache", "-j", "2", "--color", "never",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::string seen;
  char buffer[4096];
  for (ssize_t n; (n = ::read(master, buffer, sizeof buffer)) > 0;)
    seen.append(buffer, static_cast<std::size_t>(n));
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 1) << seen;
  for (std::size_t i = 1; i <= kUnits; ++i) {
    EXPECT_NE(seen.find("\r\x1b[K[" + std::to_string(i) + "/7] "), std::string::npos) << i << ": " << seen;
  }
  EXPECT_NE(seen.find("frontend/a1.cpp"), std::string::npos);
  // Cleared before the report: the first diagnostic starts on a clean line.
  std::size_t cleared = seen.rfind("\r\x1b[K");
  ASSERT_NE(cleared, std::string::npos);
  EXPECT_EQ(seen.find("[7/7]"), seen.rfind("[7/7]"));
  EXPECT_EQ(seen.compare(cleared + 4, 9, "frontend/"), 0) << seen.substr(cleared);
}

TEST(Hash128, IsStableStreamingAndSeparatesFields) {
  using emberlint::Hash128;
  // MurmurHash3 x64-128's published values: entries written on one machine are found on another.
  EXPECT_EQ(Hash128().hex(), "00000000000000000000000000000000");
  EXPECT_EQ(Hash128().add("The quick brown fox jumps over the lazy dog").hex(),
            "6c1b07bc7bbc4be347939ac4a93c437a");
  std::string text;
  for (int i = 0; i < 1000; ++i) text += static_cast<char>(i * 7);
  Hash128 whole, pieces;
  whole.add(text);
  for (std::size_t at = 0; at < text.size(); at += 13) pieces.add(std::string_view(text).substr(at, 13));
  EXPECT_EQ(whole.hex(), pieces.hex());
  EXPECT_NE(Hash128().field("ab").field("c").hex(), Hash128().field("a").field("bc").hex());
  EXPECT_NE(Hash128().add(std::string(8, '\0')).hex(), Hash128().add(std::string(9, '\0')).hex());
}

}  // namespace
