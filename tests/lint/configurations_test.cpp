// Configurations (issue 34): a C API compiled once per backend, a shared folder compiled into both, and an
// interop header, in tests/lint/fixtures/configs (tessel, a shape of our own). The test writes the compile
// database a build would: each API and shared source once with -DTS_HOST and the host folder on -I, once with
// -DTS_CL and the cl folder. `check -p` must report exactly the lines marked `expect: CODES
// [CONFIGURATIONS]`, each with the configurations it holds in; variants of the config show what each part of
// the feature changes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "lint/compile/configurations.hpp"
#include "lint/run/runner.hpp"
#include "lint/run/units.hpp"
#include "reports/merge.hpp"
#include "reports/report.hpp"
#include "rules/registry.hpp"
#include "tests/support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace emberlint;
using emberlint::test::read_file;
using emberlint::test::scratch_dir;
using emberlint::test::write_file;
using nlohmann::json;

const fs::path kTessel = fs::path(EMBERLINT_FIXTURES) / "configs";

// file, line, code, configurations ("cl, host")
using Finding = std::tuple<std::string, unsigned, std::string, std::string>;

std::string show(const std::set<Finding>& findings) {
  std::string s;
  for (const auto& [f, l, c, k] : findings)
    s += "  " + f + ":" + std::to_string(l) + " " + c + " [" + k + "]\n";
  return s;
}

class Configurations : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = scratch_dir("configs");
    root_ = scratch_ / "tessel";
    fs::copy(kTessel, root_, fs::copy_options::recursive);
    write_database();
  }
  void TearDown() override { fs::remove_all(scratch_); }

  // The commands a build of tessel writes: the API and the shared sources per backend, each backend's own
  // sources with its flags, and src/api/sum.cpp a second time in the host build with an unrelated flag.
  void write_database(bool with_cl = true) {
    json db = json::array();
    auto add = [&](const std::string& file, const std::string& backend, const std::string& extra = "") {
      const std::string lib = backend == "host" ? "vendor/blas" : "vendor/opencl";
      const std::string macro = backend == "host" ? "TS_HOST" : "TS_CL";
      db.push_back(
          {{"directory", root_.string()},
           {"file", file},
           {"command", "c++ -std=c++17 -D" + macro + extra + " -Iinclude -Isrc/backend -Isrc/backend/" +
                           backend + " -I" + lib + " -c " + file}});
    };
    for (const std::string backend : {"host", "cl"}) {
      if (backend == "cl" && !with_cl) continue;
      for (const char* f : {"src/api/sum.cpp", "src/api/scale.cpp", "src/api/norm.cpp", "src/api/fill.cpp",
                            "src/backend/common/array_info.cpp"})
        add(f, backend);
      add("src/backend/" + backend + "/sum.cpp", backend);
    }
    add("src/api/sum.cpp", "host", " -DNDEBUG");
    write_file(root_ / "build" / "compile_commands.json", db.dump(2));
  }

  // The config with `edit` applied to its JSON (comments dropped).
  void edit_config(const std::function<void(json&)>& edit) {
    json c = json::parse(read_file(root_ / ".emberlint.json"), nullptr, true, /*ignore_comments=*/true);
    edit(c);
    write_file(root_ / ".emberlint.json", c.dump(2));
  }

  CheckResult check() {
    CheckOptions o;
    o.paths = {root_};
    o.build_dir = root_ / "build";
    o.jobs = 2;
    return run_check(o, rule_catalog());
  }

  std::set<Finding> findings(const CheckResult& r) {
    std::set<Finding> out;
    for (const Diagnostic& d : r.diagnostics)
      out.insert({display_path(r, d.file), d.line, d.code, join_configurations(d.configurations)});
    return out;
  }

  // The `expect: CODE... [CONFIGURATIONS]` markers of the tree.
  std::set<Finding> expected() {
    std::set<Finding> out;
    // After "expect:", groups of codes each followed by its configurations: "EL102 [host] EL102 [cl]".
    const std::regex group(R"(((?:EL\d+\s*)+)\[([^\]]*)\])");
    for (const auto& e : fs::recursive_directory_iterator(root_)) {
      if (!e.is_regular_file()) continue;
      std::istringstream in(read_file(e.path()));
      std::string line;
      for (unsigned n = 1; std::getline(in, line); ++n) {
        const std::size_t at = line.find("expect:");
        if (at == std::string::npos) continue;
        const std::string rest = line.substr(at);
        for (std::sregex_iterator m(rest.begin(), rest.end(), group), end; m != end; ++m) {
          std::istringstream codes((*m)[1].str());
          for (std::string c; codes >> c;)
            out.insert({e.path().lexically_relative(root_).generic_string(), n, c, (*m)[2].str()});
        }
      }
    }
    return out;
  }

  fs::path scratch_, root_;
};

TEST_F(Configurations, ReportsExactlyThePlantedFindingsEachWithItsConfigurations) {
  const CheckResult r = check();
  EXPECT_TRUE(r.failures.empty()) << r.failures.front().message;
  EXPECT_TRUE(r.partial.empty()) << r.partial.front().message;
  const std::set<Finding> want = expected(), got = findings(r);
  ASSERT_EQ(want.size(), 9u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
  // Each API and shared source once per configuration, each backend's own once: six units each.
  EXPECT_EQ(r.configuration_units, (std::map<std::string, std::size_t>{{"cl", 6}, {"host", 6}}));
  EXPECT_EQ(r.files_analyzed, 12u);
}

TEST_F(Configurations, CommandsOfOneConfigurationThatDifferInOtherFlagsAreOneUnitWithANote) {
  const CheckResult r = check();
  std::string notes;
  for (const auto& n : r.notes) notes += n + "\n";
  EXPECT_NE(notes.find("1 file has several compile commands in one configuration"), std::string::npos)
      << notes;
  EXPECT_NE(notes.find("src/api/sum.cpp (2 in 'host')"), std::string::npos) << notes;
}

TEST_F(Configurations, WithoutConfigurationsAFileIsCheckedOnceAndTheRunSaysSo) {
  edit_config([](json& c) { c.erase("configurations"); });
  const CheckResult r = check();
  std::string notes;
  for (const auto& n : r.notes) notes += n + "\n";
  EXPECT_NE(notes.find("5 files are compiled by several commands, each checked with its first only"),
            std::string::npos)
      << notes;
  // The cl build's own finding under #ifdef TS_CL is never parsed, and the selected backend's interface is
  // reported as a leak.
  const std::set<Finding> got = findings(r);
  EXPECT_EQ(got.count({"src/api/norm.cpp", 15, "EL101", ""}), 0u) << show(got);
  EXPECT_EQ(got.count({"src/api/norm.cpp", 12, "EL101", ""}), 1u) << show(got);
  EXPECT_EQ(got.count({"src/api/sum.cpp", 4, "EL100", ""}), 1u) << show(got);
  EXPECT_TRUE(r.configuration_units.empty());
}

TEST_F(Configurations, TheSelectedBackendsInterfaceIsNoLeakButItsLibraryIs) {
  const std::set<Finding> got = findings(check());
  for (const auto& [file, line, code, configurations] : got) {
    // sum.cpp reaches only the selected backend ("sum.hpp" through -I, ts::detail through the alias).
    EXPECT_NE(file, "src/api/sum.cpp") << show(got);
  }
  // A header of the selected backend spelled by its path into the backend is still a finding.
  EXPECT_EQ(got.count({"src/api/scale.cpp", 2, "EL100", "cl, host"}), 1u) << show(got);
}

TEST_F(Configurations, ABackendsTypedefBroughtInByAUsingDeclarationIsItsInterface) {
  // src/api/fill.cpp: `using ts::detail::cfloat;`, where the cl build's cfloat is an alias of OpenCL's
  // cl_float2, a typedef of an anonymous union. libclang refers its uses to the union itself; they are the
  // selected backend's alias all the same, and so is the union's copy assignment. cl_float2 named by its own
  // name is still OpenCL's.
  const CheckResult r = check();
  std::set<Finding> in_fill;
  for (const Finding& f : findings(r)) {
    if (std::get<0>(f) == "src/api/fill.cpp") in_fill.insert(f);
  }
  EXPECT_EQ(in_fill, (std::set<Finding>{{"src/api/fill.cpp", 29, "EL102", "cl"},
                                        {"src/api/fill.cpp", 30, "EL101", "cl"}}))
      << show(in_fill);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.file.filename() == "fill.cpp" && d.code == "EL101") {
      // The direct uses only: line 30 and line 31's cast, not the alias's in ts_fill_complex, nor the
      // union's copy assignment that `last = value` calls there.
      EXPECT_NE(d.message.find("'cl_float2' of library OpenCL"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("2 uses in this file; also line 31"), std::string::npos) << d.message;
    }
  }
}

TEST_F(Configurations, SharedCodeIsNoBackendsAndIsJudgedInEachConfiguration) {
  // Listed under each backend (as older configs did), the shared folder's helpers are backend symbols for
  // the API and its use of the selected backend is charged to the other.
  edit_config([](json& c) {
    c["layers"].erase("shared");
    c["layers"]["backends"]["host"] = {"src/backend/host/**", "src/backend/common/**"};
    c["layers"]["backends"]["cl"]["paths"] = {"src/backend/cl/**", "src/backend/common/**"};
  });
  std::set<Finding> got = findings(check());
  bool helper = false, charged = false;
  for (const auto& [file, line, code, configurations] : got) {
    helper = helper || (file.rfind("src/api/", 0) == 0 && code == "EL101");
    charged = charged || (file.rfind("src/backend/common/", 0) == 0 && code == "EL103");
  }
  EXPECT_TRUE(helper && charged) << show(got);

  // As the shared layer: nothing in it, and what it does reach of a specific backend is its own finding.
  SetUp();
  write_file(root_ / "src/backend/common/leak.hpp",
             "#pragma once\n#include \"cl/device_only.hpp\"\n"
             "inline int devices() { return ts::cl::device_count(); }\n");
  write_file(root_ / "src/backend/common/array_info.cpp",
             read_file(root_ / "src/backend/common/array_info.cpp") + "#include \"leak.hpp\"\n");
  const CheckResult r = check();
  got = findings(r);
  EXPECT_EQ(got.count({"src/backend/common/leak.hpp", 2, "EL100", "cl, host"}), 1u) << show(got);
  EXPECT_EQ(got.count({"src/backend/common/leak.hpp", 3, "EL101", "host"}), 1u) << show(got);
  for (const Diagnostic& d : r.diagnostics) {
    if (d.file.filename() == "leak.hpp" && d.code == "EL100") {
      EXPECT_NE(d.message.find("shared file includes"), std::string::npos) << d.message;
    }
  }
}

TEST_F(Configurations, AnInteropHeaderIsTheBackendsPublicApi) {
  edit_config([](json& c) { c["layers"]["backends"]["cl"].erase("interop"); });
  const std::set<Finding> got = findings(check());
  // In the frontend, the interop header's include of the device library and its type are findings.
  EXPECT_EQ(got.count({"include/tessel/tessel_cl.h", 4, "EL100", "cl"}), 1u) << show(got);
  EXPECT_EQ(got.count({"include/tessel/tessel_cl.h", 9, "EL101", "cl"}), 1u) << show(got);
}

TEST_F(Configurations, AConfigurationTheDatabaseLacksIsAWarningNamingThoseItHas) {
  edit_config([](json& c) {
    c["configurations"]["metal"] = {{"defines", {"TS_METAL"}}, {"include", {"src/backend/metal"}}};
  });
  const CheckResult r = check();
  std::string warnings;
  for (const auto& w : r.warnings) warnings += w + "\n";
  EXPECT_NE(warnings.find("configurations.metal (-DTS_METAL and -I src/backend/metal) selects no command of "
                          "the compile database; its commands are in: cl (6 units), host (6 units)"),
            std::string::npos)
      << warnings;
  EXPECT_EQ(r.configuration_units.at("metal"), 0u);
}

TEST_F(Configurations, AConfigurationNeedsASelectorAndABackendThatExists) {
  // The configuration error of a config with `gpu` as given (empty when the config loads).
  auto error_of = [&](const json& gpu) {
    edit_config([&](json& c) { c["configurations"]["gpu"] = gpu; });
    try {
      check();
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string e = error_of({{"backend", "gpu"}, {"defines", {"TS_GPU"}}});
  EXPECT_NE(e.find("configurations.gpu.backend: 'gpu' is not a backend"), std::string::npos) << e;
  e = error_of({{"backend", "cl"}});
  EXPECT_NE(e.find("configurations.gpu: a configuration needs 'defines' or 'include'"), std::string::npos)
      << e;
  e = error_of({{"defines", {"-DTS_GPU"}}});
  EXPECT_NE(e.find("configurations.gpu.defines: expected a macro name or NAME=VALUE (without -D)"),
            std::string::npos)
      << e;
}

TEST_F(Configurations, ReportsSayWhereEachFindingHolds) {
  const CheckResult r = check();
  std::ostringstream text, js, sarif;
  render_text(text, r, TextOptions{});
  EXPECT_NE(text.str().find("(configurations cl, host) [EL100 frontend-includes-backend]"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("in 12 files (2 configurations: cl 6 units, host 6 units)"), std::string::npos)
      << text.str();
  render_json(js, r, /*statistics=*/true);
  const json doc = json::parse(js.str());
  bool both = false;
  for (const json& d : doc.at("diagnostics")) both = both || d.at("configurations") == json({"cl", "host"});
  EXPECT_TRUE(both) << js.str();
  EXPECT_EQ(doc.at("statistics").at("configurations"), json({{"cl", 6}, {"host", 6}}));
  EXPECT_EQ(doc.at("statistics").at("units_in_no_configuration"), 0);
  render_sarif(sarif, r);
  EXPECT_NE(sarif.str().find("\"configurations\""), std::string::npos);

  // The CI formats: each annotation, JUnit failure line and Markdown row names the configurations.
  std::ostringstream github, junit, markdown;
  render_github(github, r);
  // One annotation per finding, its message ending with where it holds.
  auto annotation = [&](const std::string& start) {
    const std::size_t at = github.str().find(start);
    return at == std::string::npos ? std::string()
                                   : github.str().substr(at, github.str().find('\n', at) - at);
  };
  const std::string scale = annotation("::warning file=src/api/scale.cpp,line=2,");
  EXPECT_TRUE(scale.ends_with("(configurations cl, host)")) << github.str();
  EXPECT_TRUE(annotation("::warning file=src/api/norm.cpp,line=6,").ends_with("(configuration host)"))
      << github.str();
  render_junit(junit, r, JunitOptions{});
  EXPECT_NE(junit.str().find("src/api/scale.cpp:2:1: warning: "), std::string::npos) << junit.str();
  EXPECT_NE(junit.str().find("(configurations cl, host)\n"), std::string::npos) << junit.str();
  EXPECT_NE(junit.str().find("<property name=\"configurations\" value=\"2 configurations: cl 6 units, host 6 "
                             "units\"/>"),
            std::string::npos)
      << junit.str();
  render_markdown(markdown, r, MarkdownOptions{});
  EXPECT_NE(
      markdown.str().find("| location | code | severity | configurations | message |\n|---|---|---|---|---|"),
      std::string::npos)
      << markdown.str();
  EXPECT_NE(
      markdown.str().find("| src/api/scale.cpp:2 | EL100 frontend-includes-backend | warning | cl, host | "),
      std::string::npos)
      << markdown.str();
  EXPECT_NE(markdown.str().find("in 12 files (2 configurations: cl 6 units, host 6 units)."),
            std::string::npos)
      << markdown.str();
}

TEST_F(Configurations, MergedShardsSayWhereEachFindingHoldsAsTheWholeRunDoes) {
  // A report of the run (the whole one, or shard K of 2) in a format; then the findings of a JSON report
  // or a SARIF log, each with its configurations.
  auto report = [&](const std::string& format, unsigned shard) {
    CheckOptions o;
    o.paths = {root_};
    o.build_dir = root_ / "build";
    o.jobs = 2;
    if (shard > 0) o.shard = Shard{shard, 2};
    const CheckResult r = run_check(o, rule_catalog());
    std::ostringstream out;
    if (format == "json") {
      render_json(out, r, /*statistics=*/false);
    } else {
      render_sarif(out, r);
    }
    return out.str();
  };
  auto held = [](const std::string& text) {
    std::set<Finding> out;
    const json doc = json::parse(text);
    if (doc.contains("diagnostics")) {
      for (const json& d : doc.at("diagnostics")) {
        out.insert({d.at("file"), d.at("line"), d.at("code"),
                    join_configurations(d.value("configurations", std::vector<std::string>{}))});
      }
      return out;
    }
    for (const json& res : doc.at("runs").at(0).at("results")) {
      const json& at = res.at("locations").at(0).at("physicalLocation");
      const json bag = res.value("properties", json::object());
      EXPECT_TRUE(bag.is_object()) << res.dump();
      out.insert({at.at("artifactLocation").at("uri"), at.at("region").at("startLine"), res.at("ruleId"),
                  join_configurations(bag.value("configurations", std::vector<std::string>{}))});
    }
    return out;
  };
  for (const std::string format : {"json", "sarif"}) {
    const std::string whole = report(format, 0), first = report(format, 1), second = report(format, 2);
    // Each shard checks one of scale.cpp's two units (round robin over the sorted units): its finding of
    // both configurations is found once in each shard, in one configuration.
    const Finding both{"src/api/scale.cpp", 2, "EL100", "cl, host"};
    ASSERT_EQ(held(whole).count(both), 1u) << format << "\n" << show(held(whole));
    ASSERT_EQ(held(first).count(both), 0u) << format << "\n" << show(held(first));
    ASSERT_EQ(held(second).count(both), 0u) << format << "\n" << show(held(second));
    const std::string merged = merge_reports({{"1", first}, {"2", second}}, "").text;
    EXPECT_EQ(held(merged), held(whole)) << format << " merged:\n"
                                         << show(held(merged)) << "whole run:\n"
                                         << show(held(whole));
  }
}

TEST_F(Configurations, InitProposesTheConfigurationsTheSharedLayerAndTheInteropHeader) {
  fs::remove(root_ / ".emberlint.json");
  const emberlint::test::Outcome init =
      emberlint::test::run_in(root_, emberlint::test::emberlint() + " init -p build", scratch_);
  ASSERT_EQ(init.exit_code, 0) << init.err;
  const json c = json::parse(read_file(root_ / ".emberlint.json"), nullptr, true, /*ignore_comments=*/true);
  EXPECT_EQ(
      c.at("configurations"),
      json::parse(R"({"host": {"backend": "host", "defines": ["TS_HOST"], "include": ["src/backend/host"]},
                            "cl": {"backend": "cl", "defines": ["TS_CL"], "include": ["src/backend/cl"]}})"))
      << c.dump(2);
  EXPECT_EQ(c.at("layers").at("shared"), json({"src/backend/common/**"})) << c.dump(2);
  EXPECT_EQ(c.at("layers").at("backends").at("cl").at("interop"), json({"include/tessel/tessel_cl.h"}))
      << c.dump(2);
  // init, then check: exactly the planted findings, each in its configurations.
  const std::set<Finding> want = expected(), got = findings(check());
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// quill (tests/lint/fixtures/init/quill): each backend folder is compiled with a macro named after it and the
// root on -I, not with a folder of its own; common/unified/ is compiled into the one backend configured here
// and reaches the selected backend through `#if defined(QUILL_COMPILING_PAR)` includes.
class MacroSelected : public Configurations {
 protected:
  void SetUp() override {
    scratch_ = scratch_dir("macro-selected");
    root_ = scratch_ / "quill";
    fs::copy(fs::path(EMBERLINT_FIXTURES) / "init" / "quill", root_, fs::copy_options::recursive);
    json db = json::array();
    auto add = [&](const std::string& file, const std::string& flags) {
      db.push_back({{"directory", root_.string()},
                    {"file", file},
                    {"command", "c++ -std=c++17 -DNDEBUG " + flags + " -I. -Icore/include -c " + file}});
    };
    add("core/vector.cpp", "-Dquill_EXPORTS");
    const std::string par = "-DQUILL_COMPILING_PAR -DQUILL_DEVICE=par -Dquill_par_EXPORTS";
    for (const char* f : {"par/pool.cpp", "par/scale_kernels.cpp", "common/unified/fill_kernels.cpp"})
      add(f, par);
    add("ref/scale_kernels.cpp", "-DQUILL_COMPILING_REF -DQUILL_DEVICE=ref -Dquill_ref_EXPORTS");
    add("devices/par/device.cpp", "");
    add("devices/ref/device.cpp", "");
    write_file(root_ / "build" / "compile_commands.json", db.dump(2));
  }
};

TEST_F(MacroSelected, InitFindsBackendsByTheirMacroAndTheSharedFolderAndCheckReportsOnlyThePlanted) {
  const emberlint::test::Outcome init =
      emberlint::test::run_in(root_, emberlint::test::emberlint() + " init -p build", scratch_);
  ASSERT_EQ(init.exit_code, 0) << init.err;
  const json c = json::parse(read_file(root_ / ".emberlint.json"), nullptr, true, /*ignore_comments=*/true);
  // The macro each backend's commands define and that names it selects the configuration; -Dquill_par_EXPORTS
  // names a CMake target and -DNDEBUG is everyone's.
  EXPECT_EQ(c.at("configurations"),
            json::parse(R"({"par": {"backend": "par", "defines": ["QUILL_COMPILING_PAR"]},
                            "ref": {"backend": "ref", "defines": ["QUILL_COMPILING_REF"]}})"))
      << c.dump(2);
  const json& layers = c.at("layers");
  // common/par_cuda/ serves par and cuda (named after them): theirs; the rest of common/ is every backend's.
  EXPECT_EQ(layers.at("shared"), json({"common/unified/**"})) << c.dump(2);
  EXPECT_EQ(layers.at("backends").at("par"), json({"par/**", "common/par_cuda/**", "devices/par/**"}))
      << c.dump(2);
  EXPECT_EQ(layers.at("backends").at("cuda"), json({"cuda/**", "common/par_cuda/**"})) << c.dump(2);
  // row_ref.hpp ends in a backend's name but is no family of entry headers: ref has no `public`.
  EXPECT_EQ(layers.at("backends").at("ref"), json({"ref/**", "devices/ref/**"})) << c.dump(2);
  const std::set<Finding> want = expected(), got = findings(check());
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

TEST(ScalarExtractorDefinition, AProxysDefinitionByAnInstantiationMacroIsNoUse) {
  const fs::path dir = scratch_dir("configs");
  write_file(dir / ".emberlint.json",
             R"({"layers": {"frontend": ["**"]}, "tensor_types": ["af::array"],
                 "scalar_extractors": ["af::array::scalar"], "compile_flags": ["-std=c++17"]})");
  write_file(dir / "array.cpp", R"(namespace af {
struct array {
  template <typename T> T scalar() const;
  struct array_proxy {
    template <typename T> T scalar() const;
  };
};
#define INSTANTIATE(T) \
  template <> T array::array_proxy::scalar() const { array out; return out.scalar<T>(); }
INSTANTIATE(float)
INSTANTIATE(double)
}  // namespace af
float host_value(const af::array& a) { return a.scalar<float>(); }
)");
  CheckOptions o;
  o.paths = {dir};
  o.select = {"EL301"};
  const CheckResult r = run_check(o, rule_catalog());
  fs::remove_all(dir);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics.front().line, 13u);  // the use in host_value, not the proxy's definitions
}

TEST(ConfigurationOf, TheSpecWithTheMostSelectorsThatACommandMeets) {
  CompileCommand c;
  c.directory = "/b";
  c.arguments = {"-DTS_CL", "-DLEVEL=2", "-I", "src/cl", "-isystem/opt/x", "-UGONE", "-DGONE"};
  ConfigurationSpec any_cl{"cl", "", {"TS_CL"}, {}};
  ConfigurationSpec cl_folder{"cl_folder", "", {"TS_CL"}, {Glob("src/cl", "/b")}};
  ConfigurationSpec level{"level3", "", {"LEVEL=3"}, {}};
  EXPECT_EQ(configuration_of(c, {any_cl, cl_folder, level})->name, "cl_folder");
  EXPECT_EQ(configuration_of(c, {level}), nullptr);
  EXPECT_EQ(command_defines(c),
            (std::set<std::string>{"GONE", "GONE=1", "LEVEL", "LEVEL=2", "TS_CL", "TS_CL=1"}));
  EXPECT_EQ(command_include_folders(c), (std::vector<fs::path>{"/b/src/cl", "/opt/x"}));
  c.arguments.push_back("-UTS_CL");
  EXPECT_EQ(configuration_of(c, {any_cl, cl_folder}), nullptr);
}

TEST(ConfigurationMerge, OneFindingOfSeveralConfigurationsHoldsInEach) {
  Diagnostic a;
  a.file = "/p/x.cpp";
  a.line = 3;
  a.code = "EL101";
  a.message = "m";
  std::vector<Diagnostic> ds{a, a, a};
  ds[0].configurations = {"host"};
  ds[1].configurations = {"cl"};
  ds[2].line = 4;
  ds[2].configurations = {"cl"};
  merge_configurations(ds);
  ASSERT_EQ(ds.size(), 2u);
  EXPECT_EQ(ds[0].configurations, (std::vector<std::string>{"cl", "host"}));
  EXPECT_EQ(ds[1].configurations, (std::vector<std::string>{"cl"}));
}

}  // namespace
