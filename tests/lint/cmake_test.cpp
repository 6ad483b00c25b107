// Build systems and scale: per-unit mode as CMake's <LANG>_CLANG_TIDY calls it (`check FILE -- COMPILER
// ARGS...`), --shard K/N with `emberlint merge` (JSON and SARIF), and the installed CMake package end to end:
// `cmake --install`, then find_package(Emberlint) + emberlint_add_check() in a small project built by Ninja.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "reports/merge.hpp"
#include "tests/support/test_support.hpp"

namespace fs = std::filesystem;

namespace {

using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::write_file;

// A small project: a frontend that must not include the stand-in Eigen, and its vendor folder.
class BuildIntegration : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = emberlint::test::scratch_dir("cmake");
    write_file(dir_ / ".emberlint.json", R"({
      "layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/eigen/**"]}},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "exclude": ["build/**"],
      // no -isystem vendor, no USE_EIGEN: per-unit mode must use the command's flags instead
      "compile_flags": ["-std=c++20"]
    })");
    write_file(dir_ / "vendor/Eigen/Core",
               "#pragma once\nnamespace Eigen { struct MatrixXd { long rows() const { return 0; } }; }\n");
    // The include exists only where the compile command defines USE_EIGEN.
    write_file(dir_ / "frontend/bad.cpp",
               "#ifdef USE_EIGEN\n#include <Eigen/Core>\n#endif\nint g() { return 1; }\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a shell command in the project folder with a private result cache.
  Outcome shell(const std::string& command) {
    return emberlint::test::run_in(dir_, "XDG_CACHE_HOME='" + (dir_ / ".cache").string() + "' " + command);
  }
  Outcome emberlint(const std::string& args) { return shell("'" EMBERLINT_EXE "' " + args); }

  // Seven units that include a shared header with a finding of its own, and a compile database for them.
  void add_units() {
    write_file(dir_ / "frontend/shared.hpp",
               "#pragma once\n#include <Eigen/Core>\ninline int h() { return 2; }\n");
    nlohmann::json db = nlohmann::json::array();
    for (int i = 1; i <= 7; ++i) {
      std::string file = "frontend/u" + std::to_string(i) + ".cpp";
      write_file(dir_ / file, "#include <Eigen/Core>\n#include \"shared.hpp\"\nint f" + std::to_string(i) +
                                  "() { return h(); }\n");
      db.push_back(
          {{"directory", dir_.string()},
           {"file", file},
           {"arguments", {"g++", "-std=c++20", "-isystem", "vendor", "-c", file, "-o", file + ".o"}}});
    }
    write_file(dir_ / "build/compile_commands.json", db.dump(2));
  }

  // The reports of ShardsPartitionTheUnitsAndMergeToTheUnshardedReport's three shards (s1, s2, s3) and of the
  // whole run (all), in `format`: each says which shard it is; merge takes each shard once and says which are
  // missing.
  void expect_shards_merged_once(const std::string& format) {
    auto path = [&](const std::string& name) { return dir_ / (name + "." + format); };
    auto f = [&](const std::string& name) { return name + "." + format; };
    for (int k = 1; k <= 3; ++k) {
      const nlohmann::json doc = nlohmann::json::parse(read_file(path("s" + std::to_string(k))));
      const nlohmann::json shard =
          format == "json" ? doc.at("shard") : doc.at("runs").at(0).at("properties").at("shard");
      EXPECT_EQ(shard, (nlohmann::json{{"index", k}, {"count", 3}})) << format;
    }
    const nlohmann::json whole = nlohmann::json::parse(read_file(path("all")));
    EXPECT_FALSE(format == "json" ? whole.contains("shard") : whole.at("runs").at(0).contains("properties"));
    fs::copy_file(path("s2"), path("copy"), fs::copy_options::overwrite_existing);
    struct Refused {
      std::string inputs, message;
    };
    for (const Refused& c :
         {Refused{f("s1") + " " + f("s2") + " " + f("s2") + " " + f("s3"), f("s2") + " is named twice"},
          Refused{f("s1") + " " + f("s2") + " " + f("copy") + " " + f("s3"),
                  f("s2") + " and " + f("copy") + " are both shard 2/3: merge each shard once"},
          Refused{
              f("all") + " " + f("s1") + " " + f("s2") + " " + f("s3"),
              f("all") + " is the report of a whole run (no --shard), but " + f("s1") + " is shard 1/3"}}) {
      Outcome r = emberlint("merge " + c.inputs + " -o refused." + format);
      EXPECT_EQ(r.exit_code, 2) << c.inputs << "\n" << r.err;
      EXPECT_NE(r.err.find(c.message), std::string::npos) << c.inputs << "\n" << r.err;
      EXPECT_FALSE(fs::exists(path("refused"))) << c.inputs;
    }
    // A missing shard: the others are merged and written, the gap is said, exit 3 (inputs not analyzed).
    Outcome gap = emberlint("merge " + f("s3") + " " + f("s1") + " -o gap." + format);
    EXPECT_EQ(gap.exit_code, 3) << gap.err;
    EXPECT_NE(gap.err.find("shard 2/3 is missing"), std::string::npos) << gap.err;
    const nlohmann::json merged = nlohmann::json::parse(read_file(path("gap")));
    if (format == "json") {
      EXPECT_EQ(merged.at("missing_shards"), nlohmann::json::array({"2/3"}));
      EXPECT_FALSE(merged.contains("shard"));
    } else {
      const nlohmann::json& invocation = merged.at("runs").at(0).at("invocations").at(0);
      EXPECT_FALSE(invocation.at("executionSuccessful").get<bool>());
      EXPECT_NE(invocation.at("toolExecutionNotifications").dump().find("shard 2/3 is missing"),
                std::string::npos);
      EXPECT_FALSE(merged.at("runs").at(0).contains("properties"));
    }
  }

  fs::path dir_;
};

const std::string kUnitCommand = "-- g++ -std=c++20 -isystem vendor -c frontend/bad.cpp -o x.o -MD -MF x.d";

TEST_F(BuildIntegration, UnitModeLintsTheUnitWithItsCompileCommand) {
  Outcome with = emberlint("check frontend/bad.cpp " + kUnitCommand + " -DUSE_EIGEN");
  EXPECT_EQ(with.exit_code, 1) << with.out << with.err;
  // Clang style, with the absolute path the compiler would print, and no summary line in a build log.
  EXPECT_NE(with.out.find((dir_ / "frontend/bad.cpp").string() + ":2:1: warning: frontend file includes "
                                                                 "'Eigen/Core'"),
            std::string::npos)
      << with.out;
  EXPECT_NE(with.out.find("[EL100 frontend-includes-backend]"), std::string::npos) << with.out;
  EXPECT_EQ(with.out.find("problem"), std::string::npos) << with.out;
  // The outputs and dependency files of the command are not written: nothing is compiled.
  EXPECT_FALSE(fs::exists(dir_ / "x.o"));
  EXPECT_FALSE(fs::exists(dir_ / "x.d"));

  Outcome without = emberlint("check frontend/bad.cpp " + kUnitCommand);
  EXPECT_EQ(without.exit_code, 0) << without.out << without.err;
  EXPECT_EQ(without.out, "");
  // Without `--` the config's flags apply (no USE_EIGEN): clean too, so the command above made the finding.
  EXPECT_EQ(emberlint("check frontend/bad.cpp").exit_code, 0);
}

TEST_F(BuildIntegration, UnitModeTakesClangTidyExtraArgsAsCMakePassesThem) {
  // CMake 3.25 runs `<tidy> <args> --extra-arg-before=--driver-mode=g++ <source> -- <compile command>`.
  Outcome r = emberlint(
      "check --extra-arg-before=--driver-mode=g++ --extra-arg=-DUSE_EIGEN frontend/bad.cpp " + kUnitCommand);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("[EL100 frontend-includes-backend]"), std::string::npos) << r.out;
  // They apply to the config's flags as well, without `--`.
  Outcome flags =
      emberlint("check --extra-arg=-DUSE_EIGEN --extra-arg=-isystem --extra-arg=vendor frontend/bad.cpp");
  EXPECT_EQ(flags.exit_code, 1) << flags.out << flags.err;
}

TEST_F(BuildIntegration, UnitModeSkipsFilesTheConfigExcludes) {
  write_file(dir_ / "build/gen.cpp", "#include <Eigen/Core>\nint gen() { return 0; }\n");
  Outcome r = emberlint("check build/gen.cpp -- g++ -isystem vendor -c build/gen.cpp -o gen.o");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(BuildIntegration, UnitModeUsageErrors) {
  struct Case {
    std::string args, message;
  };
  for (const Case& c : {Case{"check frontend/bad.cpp --", "nothing after `--`"},
                        Case{"check frontend/bad.cpp frontend -- g++ -c x.cpp", "exactly one FILE"},
                        Case{"check -- g++ -c x.cpp", "exactly one FILE"},
                        Case{"check -p build frontend/bad.cpp -- g++ -c x.cpp", "-p exclude each other"},
                        Case{"check frontend -- g++ -c x.cpp", "not a folder"},
                        Case{"check nope.cpp -- g++ -c nope.cpp", "nope.cpp: no such file"}}) {
    Outcome r = emberlint(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
  }
}

TEST_F(BuildIntegration, ShardsPartitionTheUnitsAndMergeToTheUnshardedReport) {
  add_units();
  for (const std::string format : {"json", "sarif"}) {
    Outcome all = emberlint("check -p build --format " + format + " -o all." + format);
    ASSERT_EQ(all.exit_code, 1) << all.out << all.err;
    std::string merge = "merge";
    std::size_t files = 0;
    std::multiset<std::string> units;  // the units with a finding, over all shards
    for (int k = 1; k <= 3; ++k) {
      std::string shard = "s" + std::to_string(k) + "." + format;
      Outcome r =
          emberlint("check -p build --shard " + std::to_string(k) + "/3 --format " + format + " -o " + shard);
      ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
      merge += " " + shard;
      if (format != "json") continue;
      nlohmann::json doc = nlohmann::json::parse(read_file(dir_ / shard));
      EXPECT_GE(doc.at("files_analyzed").get<std::size_t>(), 2u) << shard;
      files += doc.at("files_analyzed").get<std::size_t>();
      for (const auto& d : doc.at("diagnostics")) {
        std::string file = d.at("file");
        if (file.find("/u") != std::string::npos) units.insert(file);
      }
    }
    if (format == "json") {
      EXPECT_EQ(files, 7u);
      EXPECT_EQ(units.size(), 7u);  // every unit in exactly one shard
      EXPECT_EQ(std::set<std::string>(units.begin(), units.end()).size(), 7u);
    }
    Outcome merged = emberlint(merge + " -o merged." + format);
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    std::string expected = read_file(dir_ / ("all." + format));
    EXPECT_EQ(read_file(dir_ / ("merged." + format)), expected) << format;
    // The same through stdout, and with the format named.
    Outcome named = emberlint(merge + " --format " + format);
    EXPECT_EQ(named.out, expected) << named.err;
    expect_shards_merged_once(format);
  }
  // The shared header's finding is reported once (each shard that reaches it reports it).
  nlohmann::json all = nlohmann::json::parse(read_file(dir_ / "all.json"));
  int shared = 0;
  for (const auto& d : all.at("diagnostics")) shared += d.at("file") == "frontend/shared.hpp";
  EXPECT_EQ(shared, 1);
}

// A build system that runs one action per unit (Bazel's aspect, bazel/emberlint.bzl) merges their reports:
// each per-unit report names its unit, so two clean units' reports are not "the same report"; the merged
// report lists the units and has the diagnostics of one run over all of them (the shared header's finding
// once); the same unit's report twice is still refused.
TEST_F(BuildIntegration, PerUnitReportsNameTheirUnitAndMergeToTheWholeRun) {
  add_units();
  write_file(dir_ / "frontend/clean.cpp", "int c() { return 3; }\n");
  std::vector<std::string> files = {"frontend/bad.cpp", "frontend/clean.cpp"};  // both clean here
  for (int i = 1; i <= 7; ++i) files.push_back("frontend/u" + std::to_string(i) + ".cpp");
  for (const std::string format : {"json", "sarif"}) {
    std::string merge = "merge";
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::string report = "unit" + std::to_string(i) + "." + format;
      Outcome r = emberlint("check --exit-zero --format " + format + " -o " + report + " " + files[i] +
                            " -- g++ -std=c++20 -isystem vendor -c " + files[i]);
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
      const nlohmann::json doc = nlohmann::json::parse(read_file(dir_ / report));
      const nlohmann::json unit =
          format == "json" ? doc.at("unit") : doc.at("runs").at(0).at("properties").at("unit");
      const nlohmann::json expected =
          format == "json" ? nlohmann::json(files[i])
                           : nlohmann::json::object({{"uri", files[i]}, {"uriBaseId", "%SRCROOT%"}});
      EXPECT_EQ(unit, expected) << report;
      merge += " " + report;
    }
    Outcome merged = emberlint(merge + " -o merged." + format);
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    const nlohmann::json doc = nlohmann::json::parse(read_file(dir_ / ("merged." + format)));
    if (format == "json") {
      EXPECT_EQ(doc.at("files_analyzed"), files.size());
      std::vector<std::string> sorted = files;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(doc.at("units"), nlohmann::json(sorted));
      EXPECT_FALSE(doc.contains("unit"));
      // The diagnostics of one run over the seven units of the database.
      Outcome all = emberlint("check -p build --format json -o all.json");
      ASSERT_EQ(all.exit_code, 1) << all.err;
      EXPECT_EQ(doc.at("diagnostics"), nlohmann::json::parse(read_file(dir_ / "all.json")).at("diagnostics"));
    } else {
      const nlohmann::json& properties = doc.at("runs").at(0).at("properties");
      EXPECT_EQ(properties.at("units").size(), files.size());
      EXPECT_FALSE(properties.contains("unit"));
    }
    fs::copy_file(dir_ / ("unit3." + format), dir_ / ("again." + format),
                  fs::copy_options::overwrite_existing);
    Outcome twice = emberlint("merge unit3." + format + " again." + format);
    EXPECT_EQ(twice.exit_code, 2) << twice.err;
    EXPECT_NE(twice.err.find("are the same report"), std::string::npos) << twice.err;
  }
}

// Headers with code that no unit includes are checked once over all shards, never once per shard: the
// shard whose unit includes a header checks it, the others are dealt out round robin.
TEST_F(BuildIntegration, ShardsCheckEachUnreadHeaderOnce) {
  add_units();
  for (int i = 1; i <= 5; ++i) {
    write_file(dir_ / ("frontend/alone" + std::to_string(i) + ".hpp"),
               "#pragma once\n#include <Eigen/Core>\ninline long a" + std::to_string(i) +
                   "() { return Eigen::MatrixXd().rows(); }\n");
  }
  Outcome all = emberlint("check -p build --format json -o all.json");
  ASSERT_EQ(all.exit_code, 1) << all.out << all.err;
  auto alone_findings = [](const nlohmann::json& doc) {
    std::multiset<std::string> files;
    for (const auto& d : doc.at("diagnostics")) {
      std::string file = d.at("file");
      if (file.find("alone") != std::string::npos) files.insert(file);
    }
    return files;
  };
  const std::multiset<std::string> expected =
      alone_findings(nlohmann::json::parse(read_file(dir_ / "all.json")));
  ASSERT_EQ(std::set<std::string>(expected.begin(), expected.end()).size(), 5u);
  std::multiset<std::string> over_shards;
  std::vector<std::size_t> per_shard;
  for (int k = 1; k <= 3; ++k) {
    std::string shard = "s" + std::to_string(k) + ".json";
    Outcome r = emberlint("check -p build --shard " + std::to_string(k) + "/3 --format json -o " + shard);
    ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
    auto files = alone_findings(nlohmann::json::parse(read_file(dir_ / shard)));
    per_shard.push_back(std::set<std::string>(files.begin(), files.end()).size());
    over_shards.insert(files.begin(), files.end());
  }
  EXPECT_EQ(over_shards, expected);  // each header's findings in exactly one shard
  EXPECT_EQ(per_shard, (std::vector<std::size_t>{2, 2, 1}));
}

// A backend's sources that the run's database does not compile (another architecture's) are checked with the
// flags the backend states for them, and a backend's own database stands for the run's on its files.
TEST_F(BuildIntegration, BackendFlagsAndDatabasesReachSourcesTheRunsDatabaseLacks) {
  add_units();
  // The arm source reaches Eigen (the eigen backend's library) only when built for arm: EL103.
  write_file(
      dir_ / "backends/arm/kernel.cpp",
      "#ifdef ARM_BUILD\n#include <Eigen/Core>\nlong k() { return Eigen::MatrixXd().rows(); }\n#endif\n");
  auto config = [&](const std::string& arm) {
    write_file(dir_ / ".emberlint.json", R"({
      "layers": {"frontend": ["frontend/**"],
                 "backends": {"eigen": ["backends/eigen/**"], "arm": )" +
                                             arm + R"(}},
      "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},
      "exclude": ["build/**", "build-arm/**"],
      "compile_flags": ["-std=c++20", "-isystem", "vendor"]
    })");
  };
  auto arm_findings = [&](const std::string& args) {
    Outcome r = emberlint("check --no-cache --format json " + args);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.out << r.err;
    std::set<std::string> codes;
    if (r.exit_code > 1) return codes;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    for (const auto& d : doc.at("diagnostics")) {
      if (d.at("file") == "backends/arm/kernel.cpp") codes.insert(d.at("code").get<std::string>());
    }
    return codes;
  };
  config(R"(["backends/arm/**"])");
  EXPECT_TRUE(arm_findings("-p build").empty());  // not in the database: not a unit of the run
  EXPECT_TRUE(arm_findings("").empty());          // the config's flags: no ARM_BUILD
  config(
      R"({"paths": ["backends/arm/**"], "compile_flags": ["-std=c++20", "-isystem", "vendor", "-DARM_BUILD"]})");
  EXPECT_EQ(arm_findings("-p build"), std::set<std::string>{"EL103"});
  EXPECT_EQ(arm_findings("-p build backends"), std::set<std::string>{"EL103"});
  // The arm build's own database.
  nlohmann::json db = nlohmann::json::array();
  db.push_back(
      {{"directory", dir_.string()},
       {"file", "backends/arm/kernel.cpp"},
       {"arguments",
        {"g++", "-std=c++20", "-isystem", "vendor", "-DARM_BUILD", "-c", "backends/arm/kernel.cpp"}}});
  write_file(dir_ / "build-arm/compile_commands.json", db.dump());
  config(R"({"paths": ["backends/arm/**"], "compile_database": "build-arm"})");
  EXPECT_EQ(arm_findings("-p build"), std::set<std::string>{"EL103"});
  EXPECT_EQ(arm_findings(""), std::set<std::string>{"EL103"});  // without -p too
  config(R"({"paths": ["backends/arm/**"], "compile_database": "build-x86"})");
  Outcome bad = emberlint("check --no-cache -p build");
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("layers.backends.arm.compile_database: "), std::string::npos) << bad.err;
}

// An empty database checks nothing, and says so (and which file it read), rather than a bare "No problems".
TEST_F(BuildIntegration, AnEmptyCompileDatabaseSaysSo) {
  write_file(dir_ / "build/compile_commands.json", "[]\n");
  for (const std::string p : {"build", "build/compile_commands.json"}) {
    Outcome r = emberlint("check -p " + p);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(
        r.err.find("warning: the compile database build/compile_commands.json has no entries, so no file "
                   "was checked"),
        std::string::npos)
        << p << "\n"
        << r.err;
  }
  add_units();
  Outcome r = emberlint("check -p build");
  EXPECT_EQ(r.err.find("has no entries"), std::string::npos) << r.err;
}

TEST_F(BuildIntegration, ShardSpecErrors) {
  for (const std::string spec : {"0/3", "4/3", "3", "a/b", "1/0", "1/3x", "-1/3"}) {
    Outcome r = emberlint("check --shard " + spec + " frontend");
    EXPECT_EQ(r.exit_code, 2) << spec << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("expected K/N"), std::string::npos) << spec << "\n" << r.err;
  }
  EXPECT_EQ(emberlint("check --shard 1/1 frontend").exit_code, 0);
}

TEST_F(BuildIntegration, MergeRejectsWhatItCannotMerge) {
  Outcome json = emberlint("check --format json -o a.json frontend");
  Outcome sarif = emberlint("check --format sarif -o a.sarif frontend");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  ASSERT_EQ(sarif.exit_code, 0) << sarif.err;
  std::string text = read_file(dir_ / "a.json");
  write_file(dir_ / "broken.json", text.substr(0, text.size() / 2));
  write_file(dir_ / "tidy.json", R"({"tool": "clang-tidy", "version": "14"})");
  write_file(dir_ / "codeql.sarif",
             R"({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "CodeQL"}}}]})");
  write_file(dir_ / "other.json", R"({"ember": true})");
  std::string newer = text;
  newer.replace(newer.find("\"version\": \"") + 12, 1, "9");
  write_file(dir_ / "newer.json", newer);
  std::string bad_line = text;
  bad_line.replace(bad_line.find("\"files_analyzed\": ") + 18, 1, "\"x\"");
  write_file(dir_ / "bad_field.json", bad_line);
  struct Case {
    std::string args, message;
  };
  for (const Case& c :
       {Case{"a.json missing.json", "missing.json: cannot read this file"},
        Case{"a.json frontend", "frontend: a folder"},
        Case{"a.json broken.json", "broken.json: not valid JSON"},
        Case{"a.json tidy.json", "tidy.json: not an emberlint report (its tool is 'clang-tidy')"},
        Case{"a.sarif codeql.sarif", "codeql.sarif: a SARIF log of 'CodeQL'"},
        Case{"other.json", "neither an emberlint JSON report"},
        Case{"a.json a.sarif", "merge reports of one format"},
        Case{"a.json newer.json", "newer.json: written by emberlint 9"},
        Case{"a.json bad_field.json", "bad_field.json: files_analyzed: expected a non-negative"},
        Case{"--format sarif a.json", "--format sarif, but a.json is a JSON report"},
        Case{"", "reports is required"}}) {
    Outcome r = emberlint("merge " + c.args + " -o out.json");
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out.json")) << c.args;
  }
}

// merge_reports on its own: sums, deduplicates, sorts as the unsharded run (paths compared as paths), counts
// statistics again, and refuses members the shards disagree on.
TEST(Merge, JsonSumsDeduplicatesAndSortsLikeTheRunner) {
  auto diag = [](const std::string& file, int line, const std::string& code) {
    return nlohmann::json{{"code", code},          {"name", "n"},
                          {"severity", "warning"}, {"file", file},
                          {"line", line},          {"column", 1},
                          {"end_line", line},      {"end_column", 2},
                          {"message", "m"},        {"fix", nlohmann::json::array()}};
  };
  auto report = [](std::size_t files, nlohmann::json diags, nlohmann::json failures) {
    return nlohmann::json{{"tool", "emberlint"},     {"version", "0.1.0"},
                          {"files_analyzed", files}, {"diagnostics", diags},
                          {"failures", failures},    {"statistics", nlohmann::json::object()}}
        .dump();
  };
  using nlohmann::json;
  std::string a = report(2, json::array({diag("a-c.cpp", 3, "EL100"), diag("a/b.hpp", 1, "EL101")}),
                         json::array({json{{"file", "z.cpp"}, {"message", "error: x"}}}));
  std::string b =
      report(3, json::array({diag("a/b.hpp", 1, "EL101"), diag("a/b.cpp", 9, "EL100")}), json::array());
  nlohmann::json merged = nlohmann::json::parse(emberlint::merge_reports({{"a", a}, {"b", b}}, "").text);
  EXPECT_EQ(merged.at("files_analyzed"), 5);
  std::vector<std::string> order;
  for (const auto& d : merged.at("diagnostics")) order.push_back(d.at("file"));
  // As paths, "a/..." sorts before "a-c.cpp" (the folder "a" < "a-c.cpp"), unlike as strings.
  EXPECT_EQ(order, (std::vector<std::string>{"a/b.cpp", "a/b.hpp", "a-c.cpp"}));
  EXPECT_EQ(merged.at("failures").size(), 1u);
  EXPECT_EQ(merged.at("statistics"), (nlohmann::json{{"EL100", 2}, {"EL101", 1}}));

  nlohmann::json other = nlohmann::json::parse(b);
  other["baseline"] = {{"matched", 1}};
  nlohmann::json first = nlohmann::json::parse(a);
  first["baseline"] = {{"matched", 2}};
  EXPECT_THROW(emberlint::merge_reports({{"a", first.dump()}, {"b", other.dump()}}, ""),
               emberlint::MergeError);
}

// merge_reports on shards: K/N from the reports (JSON "shard", SARIF runs[].properties.shard), each shard
// once, shards of one split, the same whole-run report not twice, and what is missing.
TEST(Merge, ShardsOfOneRunEachOnce) {
  using nlohmann::json;
  auto report = [](std::optional<std::pair<int, int>> shard) {
    json doc{{"tool", "emberlint"},
             {"version", "0.1.0"},
             {"files_analyzed", 1},
             {"diagnostics", json::array()},
             {"failures", json::array()}};
    if (shard) doc["shard"] = {{"index", shard->first}, {"count", shard->second}};
    return doc.dump();
  };
  auto sarif = [](std::pair<int, int> shard) {
    json run{{"tool", {{"driver", {{"name", "emberlint"}, {"version", "0.1.0"}}}}},
             {"results", json::array()},
             {"properties", {{"shard", {{"index", shard.first}, {"count", shard.second}}}}}};
    return json{{"version", "2.1.0"}, {"runs", json::array({run})}}.dump();
  };
  auto refused = [](const std::vector<emberlint::MergeInput>& inputs) {
    try {
      emberlint::merge_reports(inputs, "");
    } catch (const emberlint::MergeError& e) {
      return std::string(e.what());
    }
    return std::string("(merged)");
  };
  EXPECT_EQ(refused({{"a", report({{1, 2}})}, {"b", report({{2, 3}})}}),
            "b is shard 2/3, but a is shard 1/2: merge the shards of one run");
  EXPECT_EQ(refused({{"a", report({{1, 2}})}, {"b", report({{1, 2}})}}),
            "a and b are both shard 1/2: merge each shard once");
  EXPECT_EQ(refused({{"a", report(std::nullopt)}, {"b", report(std::nullopt)}}),
            "a and b are the same report: merge each report once");
  EXPECT_EQ(refused({{"a", report({{3, 2}})}}), "a: shard: 3/2, expected K/N with 1 <= K <= N and N >= 2");
  EXPECT_EQ(refused({{"a", sarif({1, 2})}, {"b", sarif({1, 2})}}),
            "a and b are both shard 1/2: merge each shard once");
  const emberlint::MergeResult gaps =
      emberlint::merge_reports({{"b", report({{4, 5}})}, {"a", report({{2, 5}})}}, "");
  EXPECT_EQ(gaps.missing_shards, (std::vector<std::string>{"1/5", "3/5", "5/5"}));
  EXPECT_EQ(json::parse(gaps.text).at("files_analyzed"), 2);
  const emberlint::MergeResult sarif_gaps = emberlint::merge_reports({{"a", sarif({2, 2})}}, "");
  EXPECT_EQ(sarif_gaps.missing_shards, std::vector<std::string>{"1/2"});
  const emberlint::MergeResult whole =
      emberlint::merge_reports({{"a", report({{1, 2}})}, {"b", report({{2, 2}})}}, "");
  EXPECT_TRUE(whole.missing_shards.empty());
  EXPECT_FALSE(json::parse(whole.text).contains("shard"));
  EXPECT_FALSE(json::parse(whole.text).contains("missing_shards"));
}

// The CMake package: installed from this build, used by a project that Ninja builds.
TEST_F(BuildIntegration, CMakePackageRunsEmberlintPerUnitInTheBuild) {
  if (std::string(EMBERLINT_NINJA).empty()) GTEST_SKIP() << "ninja is not installed";
  const fs::path prefix = dir_ / "prefix";
  Outcome install =
      shell("'" EMBERLINT_CMAKE "' --install '" EMBERLINT_BUILD_DIR "' --component emberlint --prefix '" +
            prefix.string() + "'");
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  EXPECT_TRUE(fs::is_regular_file(prefix / "bin/emberlint"));
  EXPECT_NE(
      read_file(prefix / "share/doc/emberlint/rules/EL100.md").find("# EL100 frontend-includes-backend"),
      std::string::npos);
  EXPECT_TRUE(fs::is_regular_file(prefix / "share/doc/emberlint/rules/EL001.md"));
  EXPECT_TRUE(fs::is_regular_file(prefix / "lib/cmake/Emberlint/EmberlintConfigVersion.cmake"));

  const fs::path app = dir_ / "app";
  write_file(app / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.20)
project(app CXX)
find_package(Emberlint 0.1 CONFIG REQUIRED)
if(NOT TARGET Emberlint::emberlint)
  message(FATAL_ERROR "no Emberlint::emberlint")
endif()
add_executable(app frontend/main.cpp)
target_include_directories(app SYSTEM PRIVATE vendor)
emberlint_add_check(app)
# Its own config turns EL100 off, whatever the nearest .emberlint.json says.
add_library(lenient STATIC frontend/lenient.cpp)
target_include_directories(lenient SYSTEM PRIVATE vendor)
emberlint_add_check(lenient CONFIG lenient.json ARGS --no-cache)
)");
  const std::string layers =
      R"("layers": {"frontend": ["frontend/**"], "backends": {"eigen": ["backends/**"]}},
    "libraries": {"Eigen": {"backend": "eigen", "headers": ["Eigen/**"], "namespaces": ["Eigen"]}},)";
  write_file(app / ".emberlint.json", "{" + layers + R"( "rules": {"EL100": {"severity": "error"}}})");
  write_file(app / "lenient.json", "{" + layers + R"( "rules": {"EL100": {"severity": "off"}}})");
  write_file(app / "vendor/Eigen/Core", "#pragma once\nnamespace Eigen { struct MatrixXd {}; }\n");
  write_file(app / "frontend/main.cpp", "int main() { return 0; }\n");
  write_file(app / "frontend/lenient.cpp", "#include <Eigen/Core>\nint lenient() { return 0; }\n");

  const std::string build = "'" EMBERLINT_NINJA "' -C '" + (app / "build").string() + "' ";
  Outcome configure = shell(
      "'" EMBERLINT_CMAKE "' -S '" + app.string() + "' -B '" + (app / "build").string() +
      "' -G Ninja -DCMAKE_MAKE_PROGRAM='" EMBERLINT_NINJA "' -DCMAKE_PREFIX_PATH='" + prefix.string() + "'");
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  Outcome clean = shell(build);
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  // emberlint ran beside the compiler (verbose build lines name it).
  Outcome verbose = shell("touch '" + (app / "frontend/main.cpp").string() + "' && " + build + "-v app");
  EXPECT_NE(verbose.out.find((prefix / "bin/emberlint").string() + ";check"), std::string::npos)
      << verbose.out;

  write_file(app / "frontend/main.cpp", "#include <Eigen/Core>\nint main() { return 0; }\n");
  Outcome failing = shell(build + "app");
  EXPECT_NE(failing.exit_code, 0) << failing.out << failing.err;
  std::string log = failing.out + failing.err;
  EXPECT_NE(
      log.find((app / "frontend/main.cpp").string() + ":1:1: error: frontend file includes 'Eigen/Core'"),
      std::string::npos)
      << log;
  EXPECT_NE(log.find("[EL100 frontend-includes-backend]"), std::string::npos) << log;
}

}  // namespace
