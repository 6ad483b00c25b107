// Tests of baselines (lint/run/baseline.hpp): the file format and its errors, deterministic atomic writing,
// multiset matching and scope, and `emberlint check --baseline/--write-baseline/--prune-baseline` end to end
// on a copy of fixtures/fix (lines moved, a new finding, a fixed one, pruning, --fix, partial runs).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "lint/run/baseline.hpp"
#include "lint/run/runner.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;
using namespace emberlint;
using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::run_in;
using emberlint::test::scratch_dir;
using emberlint::test::write_file;

namespace {

// A fingerprint with the hash made of one repeated digit.
std::string print(char digit, int n) {
  return std::string(32, digit) + ":" + std::to_string(n);
}

BaselineEntry entry(const std::string& fingerprint, const std::string& file = "src/a.cpp", unsigned line = 1,
                    const std::string& code = "EL200") {
  return {fingerprint, code, file, line, "message of " + fingerprint};
}

std::string parse_error(const std::string& text) {
  try {
    parse_baseline(text, "b.json");
  } catch (const BaselineError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<std::string> leftovers(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".emberlint-") != std::string::npos) out.push_back(e.path());
  }
  return out;
}

// ---- the file format ----

TEST(BaselineFormat, WrittenTextIsSortedOneFindingPerLineAndReadsBack) {
  Baseline b{"0.1.0",
             {entry(print('b', 1), "src/b.cpp", 3), entry(print('a', 2), "src/a.cpp", 9),
              entry(print('c', 1), "src/a.cpp", 9), entry(print('a', 10), "src/a.cpp", 9),
              entry(print('d', 1), "src/a.cpp", 2, "EL100")}};
  const std::string text = baseline_json(b);
  std::reverse(b.entries.begin(), b.entries.end());
  EXPECT_EQ(baseline_json(b), text) << "the order of the entries given does not matter";
  EXPECT_EQ(text.rfind("{\n  \"tool\": \"emberlint\",\n  \"version\": \"0.1.0\",\n  \"findings\": [\n", 0),
            0u)
      << text;
  // By file, line, code, then hash and the occurrence number as a number (2 before 10).
  std::vector<std::string> order = {print('d', 1), print('a', 2), print('a', 10), print('c', 1),
                                    print('b', 1)};
  std::size_t at = 0;
  for (const auto& fp : order) {
    std::size_t found = text.find("{\"fingerprint\": \"" + fp + "\"", at);
    ASSERT_NE(found, std::string::npos) << fp << " out of order in\n" << text;
    at = found;
  }
  Baseline back = parse_baseline(text, "b.json");
  EXPECT_EQ(back.version, "0.1.0");
  ASSERT_EQ(back.entries.size(), 5u);
  EXPECT_EQ(back.entries[0].fingerprint, print('d', 1));
  EXPECT_EQ(back.entries[0].code, "EL100");
  EXPECT_EQ(back.entries[0].file, "src/a.cpp");
  EXPECT_EQ(back.entries[0].line, 2u);
  EXPECT_EQ(back.entries[0].message, "message of " + print('d', 1));
  EXPECT_EQ(baseline_json(back), text);
  EXPECT_EQ(baseline_json(Baseline{"0.1.0", {}}),
            "{\n  \"tool\": \"emberlint\",\n  \"version\": \"0.1.0\",\n  \"findings\": []\n}\n");
}

TEST(BaselineFormat, MessagesWithQuotesAndInvalidUtf8StayValidJson) {
  BaselineEntry e = entry(print('e', 1));
  e.message = "operator \"+\" on \xff tensor\\";
  Baseline back = parse_baseline(baseline_json(Baseline{"0.1.0", {e}}), "b.json");
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries[0].message, "operator \"+\" on \xEF\xBF\xBD tensor\\");
}

struct Malformed {
  const char* text;
  const char* error;  // what the message must contain after "b.json"
};

TEST(BaselineFormat, MalformedInputsNameTheFileAndTheJsonPath) {
  const std::string fp = print('a', 1);
  auto doc = [](const std::string& findings) {
    return R"({"tool": "emberlint", "version": "0.1.0", "findings": [)" + findings + "]}";
  };
  auto one = [&](const std::string& inner) { return doc("{" + inner + "}"); };
  const std::string good = R"("fingerprint": ")" + fp + R"(", "code": "EL200", "file": "src/a.cpp")";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "b.json:1:1: not a baseline: invalid JSON"},
      {"{\"tool\": \"emberlint\",\n \"version\": }", "b.json:2:13: not a baseline: invalid JSON"},
      {doc("") + " x", "b.json:1:"},
      {"[]", "b.json: $: expected an object, found array"},
      {R"({"tool": "emberlint", "version": "0.1.0"})", "b.json: $: missing key 'findings'"},
      {R"({"tool": "emberlint", "version": "0.1.0", "findings": [], "extra": 1})",
       "b.json: $: unknown key 'extra'; expected: tool, version, findings"},
      {R"({"tool": "eslint", "version": "0.1.0", "findings": []})", "b.json: tool: expected \"emberlint\""},
      {R"({"tool": "emberlint", "version": 1, "findings": []})",
       "b.json: version: expected a string, found number"},
      {R"({"tool": "emberlint", "version": "0.1.0", "findings": {}})",
       "b.json: findings: expected an array, found object"},
      {doc("1"), "b.json: findings[0]: expected an object, found number"},
      {one(good + R"(, "line": 1)"), "b.json: findings[0]: missing key 'message'"},
      {one(good + R"(, "line": 1, "message": "", "column": 3)"), "b.json: findings[0]: unknown key 'column'"},
      {one(R"("fingerprint": "xyz", "code": "EL200", "file": "a", "line": 1, "message": "")"),
       "b.json: findings[0].fingerprint: expected \"<32 lowercase hex digits>:<n>\", found \"xyz\""},
      {one(R"("fingerprint": ")" + std::string(32, 'A') +
           R"(:1", "code": "EL200", "file": "a", "line": 1, "message": "")"),
       "b.json: findings[0].fingerprint: expected"},
      {one(R"("fingerprint": ")" + std::string(32, 'a') +
           R"(:0", "code": "EL200", "file": "a", "line": 1, "message": "")"),
       "b.json: findings[0].fingerprint: expected"},
      {one(R"("fingerprint": ")" + fp + R"(", "code": 200, "file": "a", "line": 1, "message": "")"),
       "b.json: findings[0].code: expected a string, found number"},
      {one(R"("fingerprint": ")" + fp + R"(", "code": "EL200", "file": "", "line": 1, "message": "")"),
       "b.json: findings[0].file: expected a non-empty string"},
      {one(good + R"(, "line": -1, "message": "")"), "b.json: findings[0].line: expected a line number"},
      {one(good + R"(, "line": "3", "message": "")"), "b.json: findings[0].line: expected a line number"},
      {one(good + R"(, "line": 1.5, "message": "")"), "b.json: findings[0].line: expected a line number"},
      {one(good + R"(, "line": 1, "message": null)"),
       "b.json: findings[0].message: expected a string, found null"},
      {doc("{" + good + R"(, "line": 1, "message": ""}, {)" + good + R"(, "line": 7, "message": ""})"),
       "b.json: findings[1].fingerprint: duplicate of findings[0]"},
  };
  for (const auto& [text, error] : cases) {
    std::string e = parse_error(text);
    EXPECT_NE(e.find(error), std::string::npos) << "input: " << text << "\nerror: " << e;
  }
  EXPECT_EQ(parse_error(one(good + R"(, "line": 0, "message": "")")), "no error");
}

TEST(BaselineFormat, ReadNamesAMissingFileAndAFolder) {
  fs::path dir = scratch_dir("read");
  try {
    read_baseline(dir / "none.json");
    ADD_FAILURE() << "no error";
  } catch (const BaselineError& e) {
    EXPECT_NE(std::string(e.what()).find((dir / "none.json").string() + ": no such baseline file"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_baseline("[1e400]", "b.json"), BaselineError);  // beyond a double: fuzz_baseline
  EXPECT_THROW(read_baseline(dir), BaselineError);
  fs::remove_all(dir);
}

TEST(BaselineFormat, WritingIsAtomicKeepsPermissionsAndReportsAMissingFolder) {
  fs::path dir = scratch_dir("write");
  const fs::path file = dir / "b.json";
  write_baseline(file, Baseline{"0.1.0", {entry(print('a', 1))}});
  EXPECT_EQ(parse_baseline(read_file(file), "b.json").entries.size(), 1u);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(static_cast<mode_t>(fs::status(file).permissions() & fs::perms::all), 0666 & ~mask);
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_baseline(file, Baseline{"0.1.0", {}});
  EXPECT_TRUE(parse_baseline(read_file(file), "b.json").entries.empty());
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_TRUE(leftovers(dir).empty());
  EXPECT_THROW(write_baseline(dir / "no/such/folder/b.json", Baseline{"0.1.0", {}}), BaselineError);
  fs::remove_all(dir);
}

// ---- matching and scope ----

TEST(BaselineMatching, IsAMultisetOnTheHash) {
  const std::vector<bool> all(8, true);
  // Two identical findings, one entry: the second finding is new.
  BaselineMatch m = match_baseline({entry(print('a', 1))}, {print('a', 1), print('a', 2)}, all);
  EXPECT_EQ(m.matched, 1u);
  EXPECT_EQ(m.fresh, std::vector<std::size_t>{1});
  EXPECT_TRUE(m.stale.empty());
  // Three entries, one finding left: the entries with the higher occurrence numbers are stale.
  m = match_baseline({entry(print('a', 3)), entry(print('a', 1)), entry(print('a', 2))}, {print('a', 1)},
                     all);
  EXPECT_EQ(m.matched, 1u);
  EXPECT_TRUE(m.fresh.empty());
  EXPECT_EQ(m.stale, (std::vector<std::size_t>{0, 2}));
  // A different hash is new; the entry that matches nothing is stale.
  m = match_baseline({entry(print('a', 1))}, {print('b', 1)}, all);
  EXPECT_EQ(m.fresh, std::vector<std::size_t>{0});
  EXPECT_EQ(m.stale, std::vector<std::size_t>{0});
  // Out of scope: never stale.
  m = match_baseline({entry(print('a', 1)), entry(print('c', 1))}, {}, {false, true});
  EXPECT_EQ(m.stale, std::vector<std::size_t>{1});
}

class BaselineRun : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::canonical(scratch_dir("run"));
    write_file(root_ / "src/a.cpp", "int a;\nint b;\nint c;\n");
    write_file(root_ / "src/b.cpp", "int d;\n");
    result_.root = root_;
    result_.checked_rules[root_ / "src/a.cpp"] = {"EL200", "EL300"};
  }
  void TearDown() override { fs::remove_all(root_); }

  Diagnostic finding(unsigned line) {
    Diagnostic d;
    d.code = "EL200";
    d.name = "tensor-operator";
    d.file = root_ / "src/a.cpp";
    d.line = line;
    d.message = "operator on line " + std::to_string(line);
    return d;
  }

  fs::path root_;
  CheckResult result_;
};

TEST_F(BaselineRun, ScopeIsWhatTheRunCheckedAndFilesGoneUnderItsPaths) {
  EXPECT_TRUE(in_scope(result_, {}, entry(print('a', 1), "src/a.cpp")));
  EXPECT_FALSE(in_scope(result_, {}, entry(print('a', 1), "src/a.cpp", 1, "EL100"))) << "rule not active";
  EXPECT_FALSE(in_scope(result_, {}, entry(print('a', 1), "src/b.cpp"))) << "exists, not checked";
  EXPECT_TRUE(in_scope(result_, {}, entry(print('a', 1), "src/gone.cpp"))) << "deleted under the root";
  EXPECT_TRUE(in_scope(result_, {root_ / "src"}, entry(print('a', 1), "src/gone.cpp")));
  EXPECT_FALSE(in_scope(result_, {root_ / "other"}, entry(print('a', 1), "src/gone.cpp")));
  EXPECT_FALSE(in_scope(result_, {root_ / "src/a.cpp"}, entry(print('a', 1), "src/gone.cpp")));
}

TEST_F(BaselineRun, WriteKeepsOutOfScopeEntriesAndPruneOnlyShrinks) {
  const fs::path file = root_ / "b.json";
  const BaselineEntry other = entry(print('f', 1), "src/b.cpp", 1);  // src/b.cpp is not checked
  const BaselineEntry gone = entry(print('9', 1), "src/gone.cpp", 4);
  write_baseline(file, Baseline{"0.0.1", {other, gone}});
  result_.diagnostics = {finding(1), finding(3)};
  BaselineOptions write{{}, file, false, {}};
  check_baseline_options(write);
  apply_baseline(result_, write);
  EXPECT_TRUE(result_.diagnostics.empty());
  ASSERT_TRUE(result_.baseline && result_.baseline->written);
  EXPECT_EQ(*result_.baseline->written, 3u);
  Baseline b = read_baseline(file);
  ASSERT_EQ(b.entries.size(), 3u) << read_file(file);
  EXPECT_EQ(b.entries[0].file, "src/a.cpp");
  EXPECT_EQ(b.entries[0].line, 1u);
  EXPECT_EQ(b.entries[1].line, 3u);
  EXPECT_EQ(b.entries[2].fingerprint, other.fingerprint) << "kept; the deleted file's entry is dropped";

  // Line 3 fixed, a new finding on line 2: one new, one stale; pruning removes the stale one only.
  result_.diagnostics = {finding(1), finding(2)};
  result_.baseline.reset();
  BaselineOptions use{file, {}, false, {}};
  apply_baseline(result_, use);
  ASSERT_EQ(result_.diagnostics.size(), 1u);
  EXPECT_EQ(result_.diagnostics[0].line, 2u);
  ASSERT_EQ(result_.baseline->stale.size(), 1u);
  EXPECT_EQ(result_.baseline->stale[0].line, 3u);
  EXPECT_EQ(result_.baseline->matched, 1u);
  EXPECT_EQ(read_baseline(file).entries.size(), 3u) << "--baseline alone changes nothing";

  result_.diagnostics = {finding(1), finding(2)};
  use.prune = true;
  apply_baseline(result_, use);
  EXPECT_EQ(result_.baseline->pruned, 1u);
  EXPECT_TRUE(result_.baseline->stale.empty());
  EXPECT_EQ(result_.diagnostics.size(), 1u) << "the new finding is still reported";
  b = read_baseline(file);
  ASSERT_EQ(b.entries.size(), 2u) << "the new finding is not added";
  EXPECT_EQ(b.entries[0].line, 1u);
  EXPECT_EQ(b.entries[1].fingerprint, other.fingerprint);
  EXPECT_TRUE(leftovers(root_).empty());
}

TEST_F(BaselineRun, OptionsAreCheckedBeforeTheRun) {
  auto error = [](const BaselineOptions& o) {
    try {
      check_baseline_options(o);
    } catch (const BaselineError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const fs::path file = root_ / "b.json";
  write_file(file, "{}");
  EXPECT_NE(error({file, file, false, {}}).find("--baseline and --write-baseline cannot be combined"),
            std::string::npos);
  EXPECT_NE(error({{}, {}, true, {}}).find("--prune-baseline needs --baseline"), std::string::npos);
  EXPECT_NE(error({file, {}, false, {}}).find(file.string() + ": $: missing key"), std::string::npos);
  EXPECT_NE(error({{}, file, false, {}}).find("(delete the file to write a new baseline)"),
            std::string::npos);
  EXPECT_NE(error({{}, root_ / "none/b.json", false, {}}).find("no such folder"), std::string::npos);
  EXPECT_EQ(error({{}, root_ / "new.json", false, {}}), "no error");
}

// ---- emberlint check end to end, on a copy of fixtures/fix ----

class BaselineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = scratch_dir("cli");
    fs::copy(fs::path(EMBERLINT_FIXTURES) / "fix", dir_ / "p", fs::copy_options::recursive);
    fs::remove(dir_ / "p/src/operators.cpp.fixed");
    source_ = dir_ / "p/src/operators.cpp";
  }
  void TearDown() override { fs::remove_all(dir_); }

  Outcome run(const std::string& args) {
    return run_in(dir_ / "p", test::emberlint() + " check " + args, dir_ / "scratch");
  }
  nlohmann::json json_run(const std::string& args, int expected_exit) {
    Outcome r = run("--format json " + args);
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    return nlohmann::json::parse(r.out);
  }
  Baseline baseline() { return read_baseline(dir_ / "p/base.json"); }
  void append(const std::string& text) { write_file(source_, read_file(source_) + text); }
  void replace(const std::string& from, const std::string& to) {
    std::string text = read_file(source_);
    std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    write_file(source_, text.replace(at, from.size(), to));
  }
  // Writes the baseline and returns how many findings a plain run has.
  std::size_t write_baseline_of_all() {
    std::size_t findings = json_run("", 1).at("diagnostics").size();
    Outcome w = run("--write-baseline base.json");
    EXPECT_EQ(w.exit_code, 0) << w.out << w.err;
    EXPECT_NE(w.out.find("Wrote " + std::to_string(findings) + " findings to base.json."), std::string::npos)
        << w.out;
    EXPECT_EQ(baseline().entries.size(), findings);
    return findings;
  }

  fs::path dir_, source_;
};

TEST_F(BaselineCli, AWrittenBaselineHidesEverythingAndSurvivesInsertedLines) {
  const std::size_t findings = write_baseline_of_all();
  ASSERT_GT(findings, 20u);
  nlohmann::json j = json_run("--baseline base.json", 0);
  EXPECT_TRUE(j.at("diagnostics").empty()) << j.dump(2);
  EXPECT_EQ(j.at("baseline").at("matched"), findings);
  EXPECT_TRUE(j.at("stale_baseline").empty());

  // Lines inserted above every finding: all still matched.
  write_file(source_, "// a new header comment\n\n#include <vector>\n" + read_file(source_));
  Outcome moved = run("--baseline base.json");
  EXPECT_EQ(moved.exit_code, 0) << moved.out;
  EXPECT_NE(moved.out.find(std::to_string(findings) + " known problems hidden by base.json.\nNo problems"),
            std::string::npos)
      << moved.out;
}

TEST_F(BaselineCli, OnlyANewOffendingLineIsReported) {
  write_baseline_of_all();
  append("\nember::Tensor added(const ember::Tensor& a) { return a * a; }\n");
  nlohmann::json j = json_run("--baseline base.json", 1);
  ASSERT_EQ(j.at("diagnostics").size(), 1u) << j.dump(2);
  EXPECT_EQ(j.at("diagnostics").at(0).at("code"), "EL200");
  const std::string text = read_file(source_);
  EXPECT_EQ(j.at("diagnostics").at(0).at("line"), std::count(text.begin(), text.end(), '\n'));
  EXPECT_TRUE(j.at("stale_baseline").empty());
}

TEST_F(BaselineCli, AFixedFindingIsStaleFailsTheRunUntilPruned) {
  const std::size_t findings = write_baseline_of_all();
  const fs::path file = dir_ / "p/base.json";
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  const std::string before = read_file(file);
  replace("  return a + a;\n", "  return ember::ops::add(a, a);\n");  // in_function(), alone in its context

  Outcome r = run("--baseline base.json");
  EXPECT_EQ(r.exit_code, 1) << "a stale entry fails the run without any new finding\n" << r.out;
  EXPECT_NE(r.out.find("base.json: stale baseline entry EL200 src/operators.cpp:50: operator '+' applied to "
                       "tensor type 'ember::Tensor': use add() (run with --prune-baseline)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 stale entry in base.json"), std::string::npos) << r.out;
  nlohmann::json j = json_run("--baseline base.json", 1);
  EXPECT_TRUE(j.at("diagnostics").empty());
  ASSERT_EQ(j.at("stale_baseline").size(), 1u);
  EXPECT_EQ(j.at("stale_baseline").at(0).at("file"), "src/operators.cpp");
  EXPECT_EQ(j.at("stale_baseline").at(0).at("line"), 50);
  EXPECT_EQ(run("--baseline base.json --exit-zero").exit_code, 0);
  EXPECT_EQ(read_file(file), before) << "--baseline alone never writes";

  Outcome pruned = run("--baseline base.json --prune-baseline");
  EXPECT_EQ(pruned.exit_code, 0) << pruned.out << pruned.err;
  EXPECT_NE(pruned.out.find("Pruned 1 stale entry from base.json."), std::string::npos) << pruned.out;
  Baseline b = baseline();
  EXPECT_EQ(b.entries.size(), findings - 1);
  EXPECT_LT(read_file(file).size(), before.size());
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_TRUE(leftovers(dir_ / "p").empty());
  EXPECT_EQ(run("--baseline base.json").exit_code, 0);
}

TEST_F(BaselineCli, IdenticalFindingsNeedOneEntryEach) {
  // The middle three lines have the same text and neighbours: one hash, occurrences 1 to 3.
  std::string lines;
  for (int i = 0; i < 5; ++i) lines += "  r = r - a;\n";
  append("\nember::Tensor twins(ember::Tensor r, const ember::Tensor& a) {\n" + lines + "  return r;\n}\n");
  write_baseline_of_all();
  replace("  r = r - a;\n  r = r - a;\n", "  r = r - a;\n");  // four left: one identical entry too many
  nlohmann::json j = json_run("--baseline base.json", 1);
  EXPECT_TRUE(j.at("diagnostics").empty()) << j.dump(2);
  ASSERT_EQ(j.at("stale_baseline").size(), 1u) << j.dump(2);
  EXPECT_EQ(j.at("stale_baseline").at(0).at("fingerprint").get<std::string>().substr(33), "3");
  replace("  r = r - a;\n", "  r = r - a;\n  r = r - a;\n  r = r - a;\n");  // six: one more than recorded
  j = json_run("--baseline base.json", 1);
  EXPECT_EQ(j.at("diagnostics").size(), 1u) << j.dump(2);
  EXPECT_TRUE(j.at("stale_baseline").empty());
}

TEST_F(BaselineCli, FixesComeFirstThenTheBaselineSeesTheFixedCode) {
  write_baseline_of_all();
  // Every fixable finding is fixed (baselined or not), the five without a fix (three the rule offers none
  // for, two the reparse withdraws) stay baselined, and the entries of what was fixed are stale, here pruned
  // in the same run.
  nlohmann::json j = json_run("--fix --baseline base.json --prune-baseline", 0);
  EXPECT_TRUE(j.at("diagnostics").empty()) << j.dump(2);
  EXPECT_EQ(j.at("baseline").at("matched"), 5);
  EXPECT_EQ(j.at("baseline").at("pruned"), j.at("fixed"));
  EXPECT_EQ(baseline().entries.size(), 5u);
  EXPECT_EQ(run("--baseline base.json").exit_code, 0);
}

TEST_F(BaselineCli, WriteAfterFixRecordsWhatRemains) {
  nlohmann::json j = json_run("--fix --write-baseline base.json", 0);
  EXPECT_GT(j.at("fixed").get<int>(), 20);
  EXPECT_EQ(j.at("baseline").at("written"), 5);
  EXPECT_EQ(baseline().entries.size(), 5u);
  EXPECT_EQ(run("--baseline base.json").exit_code, 0);
}

TEST_F(BaselineCli, APartialRunJudgesOnlyWhatItChecked) {
  write_file(dir_ / "p/src/second.cpp",
             "#include <ember/tensor.hpp>\nember::Tensor second(const ember::Tensor& a) { return a + a; }\n");
  write_baseline_of_all();
  const std::size_t all = baseline().entries.size();
  // Another rule only, or one file only: the other entries are not stale, and are kept when pruning or
  // writing.
  EXPECT_EQ(run("--baseline base.json --select EL201").exit_code, 0);
  replace("  return a + a;\n", "  return ember::ops::add(a, a);\n");
  Outcome one = run("--baseline base.json --prune-baseline src/operators.cpp");
  EXPECT_EQ(one.exit_code, 0) << one.out << one.err;
  EXPECT_EQ(baseline().entries.size(), all - 1);
  EXPECT_EQ(run("--write-baseline base.json src/operators.cpp").exit_code, 0);
  EXPECT_EQ(baseline().entries.size(), all - 1);
  // A deleted file: its entries are stale.
  fs::remove(dir_ / "p/src/second.cpp");
  nlohmann::json j = json_run("--baseline base.json", 1);
  ASSERT_EQ(j.at("stale_baseline").size(), 1u);
  EXPECT_EQ(j.at("stale_baseline").at(0).at("file"), "src/second.cpp");
}

TEST_F(BaselineCli, BadBaselineOptionsExitTwoBeforeAnythingRuns) {
  write_file(dir_ / "p/base.json", "{\"tool\": \"emberlint\", \"version\": \"0.1.0\", \"findings\": [1]}");
  const std::string before = read_file(source_);
  Outcome bad = run("--fix --baseline base.json");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("base.json: findings[0]: expected an object, found number"), std::string::npos)
      << bad.err;
  EXPECT_TRUE(bad.out.empty()) << bad.out;
  EXPECT_EQ(read_file(source_), before) << "nothing fixed";

  Outcome missing = run("--baseline none.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("none.json: no such baseline file"), std::string::npos) << missing.err;
  Outcome both = run("--baseline base.json --write-baseline other.json");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("cannot be combined"), std::string::npos) << both.err;
  Outcome prune = run("--prune-baseline");
  EXPECT_EQ(prune.exit_code, 2);
  EXPECT_NE(prune.err.find("--prune-baseline needs --baseline"), std::string::npos) << prune.err;
  Outcome overwrite = run("--write-baseline base.json");
  EXPECT_EQ(overwrite.exit_code, 2);
  EXPECT_NE(overwrite.err.find("delete the file to write a new baseline"), std::string::npos)
      << overwrite.err;
}

}  // namespace
