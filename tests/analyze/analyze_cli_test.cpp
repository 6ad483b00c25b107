// `emberlint analyze` on a class-shaped fixture with one cell of every kind: the matrix and the findings
// against hand-written expectations, in every format, and the errors a user can make (exit code 2).
#include <chrono>
#include <nlohmann/json.hpp>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;   // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;

const fs::path kClassShape = fs::path(ANALYZE_FIXTURES) / "class_shape";

// op -> backend -> status, written by hand from the fixture's sources.
const std::map<std::string, std::map<std::string, std::string>> kExpected = {
    {"load", {{"alpha", "native"}, {"beta", "fallback"}, {"gamma", "native"}}},
    {"save", {{"alpha", "native"}, {"beta", "missing"}, {"gamma", "native"}}},
    {"add", {{"alpha", "native"}, {"beta", "fallback"}, {"gamma", "native"}}},
    {"scale", {{"alpha", "native"}, {"beta", "stub"}, {"gamma", "fallback"}}},
    {"sum", {{"alpha", "native"}, {"beta", "fallback"}, {"gamma", "stub"}}},
};

class AnalyzeCli : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = scratch_dir("cli"); }
  void TearDown() override { fs::remove_all(scratch_); }
  Outcome analyze(const std::string& args, const fs::path& where = kClassShape) {
    return run_in(where, emberlint() + " analyze " + args, scratch_);
  }
  fs::path scratch_;
};

TEST_F(AnalyzeCli, JsonMatrixMatchesTheHandWrittenExpectation) {
  Outcome o = analyze("--format json");
  ASSERT_EQ(o.exit_code, 1) << o.err;
  json doc = json::parse(o.out);
  EXPECT_EQ(doc.at("model"), "interface_class");
  EXPECT_EQ(doc.at("shape"), "class");
  EXPECT_EQ(doc.at("interface"), "demo::Backend");
  EXPECT_EQ(doc.at("categories"), json({"io", "math"}));
  ASSERT_EQ(doc.at("ops").size(), kExpected.size());
  std::vector<std::string> order;
  for (const auto& op : doc.at("ops")) {
    order.push_back(op.at("id"));
    for (const auto& [backend, status] : kExpected.at(op.at("id").get<std::string>())) {
      EXPECT_EQ(op.at("cells").at(backend).at("status"), status) << op.at("id") << " on " << backend;
    }
  }
  EXPECT_EQ(order,
            (std::vector<std::string>{"load", "save", "add", "scale", "sum"}));  // by category, then name
  // Every implemented cell knows where it is and what it looks like.
  const json& beta_scale = doc.at("ops").at(3).at("cells").at("beta");
  EXPECT_EQ(beta_scale.at("location").at("file"), "backends/beta/beta_backend.cpp");
  EXPECT_EQ(beta_scale.at("location").at("line"), 23);
  EXPECT_EQ(without_scope(beta_scale.at("signature"), "demo"),
            "void scale(const Tensor &x, double factor, Tensor &out)");
  EXPECT_EQ(doc.at("ops").at(0).at("cells").at("beta").at("reason"), "delegates: calls demo::host::load");
  EXPECT_EQ(doc.at("ops").at(2).at("cells").at("beta").at("reason"),
            "composite of frontend ops: calls demo::ops::add");
  EXPECT_EQ(doc.at("ops").at(3).at("cells").at("gamma").at("reason"), "composite of ops: calls add");
  EXPECT_EQ(doc.at("ops").at(4).at("cells").at("beta").at("reason"), "marked `emberlint-fallback:`");
  EXPECT_EQ(doc.at("ops").at(4).at("cells").at("alpha").at("mismatches").size(), 1u);
  EXPECT_EQ(doc.at("ops").at(1).at("cells").at("beta").at("location").at("line"),
            8);  // the class that lacks the override
  ASSERT_EQ(doc.at("unexposed").size(), 1u);
  EXPECT_EQ(doc.at("unexposed").at(0).at("name"), "warm_up");
  EXPECT_EQ(doc.at("backends").at(1).at("counts"),
            json({{"native", 0}, {"fallback", 3}, {"stub", 1}, {"missing", 1}, {"unknown", 0}}));
}

// A folder shared by two backends (MLX's backend/gpu/ of Metal and CUDA): the class it defines implements
// both, each backend's cells its own (before, the second backend was all `missing`).
TEST_F(AnalyzeCli, AClassInAFolderSharedByTwoBackendsImplementsBoth) {
  const fs::path dir = scratch_ / "shared";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  write_file(dir / ".emberlint.json", R"({
    "layers": {"frontend": ["include/**"],
               "backends": {"metal": ["backends/metal/**", "backends/gpu/**"],
                            "cuda": ["backends/cuda/**", "backends/gpu/**"]}},
    "ops_interface": {"shape": "class", "class": "demo::Backend", "headers": ["include/demo/*_ops.hpp"]},
    "exclude": ["backends/alpha/**", "backends/beta/**", "backends/gamma/**"],
    "compile_flags": ["-std=c++20", "-Iinclude"]
  })");
  write_file(dir / "backends/gpu/gpu_backend.cpp", R"(#include "demo/backend.hpp"
namespace demo::gpu {
class GpuBackend final : public Backend {
 public:
  const char* name() const override { return "gpu"; }
  void add(const Tensor& a, const Tensor& b, Tensor& out) override { out.value = a.value + b.value; }
  void scale(const Tensor& x, double factor, Tensor& out) override { out.value = x.value * factor; }
  void sum(const Tensor& x, int, Tensor& out, bool = false) override { out.value = x.value; }
  void load(Tensor& out, const char*) override { out.value = 3; }
  void save(const Tensor&, const char*) override {}
};
}  // namespace demo::gpu
)");
  Outcome o = analyze("--format json", dir);
  ASSERT_EQ(o.exit_code, 0) << o.err << o.out;
  json doc = json::parse(o.out);
  ASSERT_EQ(doc.at("ops").size(), 5u);
  for (const auto& op : doc.at("ops")) {
    for (const char* backend : {"metal", "cuda"}) {
      EXPECT_EQ(op.at("cells").at(backend).at("status"), "native") << op.at("id") << " on " << backend;
      EXPECT_EQ(op.at("cells").at(backend).at("location").at("file"), "backends/gpu/gpu_backend.cpp");
    }
  }
}

// A backend's class that derives from a reference implementation outside the backend's folders (a frontend
// class implementing the ops generically) inherits the ops it does not override: those cells run the
// reference's code, fallback (stub where it only throws), not missing.
TEST_F(AnalyzeCli, OpsInheritedFromAReferenceImplementationAreFallbacks) {
  const fs::path dir = scratch_ / "inherited";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  write_file(dir / ".emberlint.json", R"({
    "layers": {"frontend": ["include/**"], "backends": {"delta": ["backends/delta/**"]}},
    "ops_interface": {"shape": "class", "class": "demo::Backend", "headers": ["include/demo/*_ops.hpp"]},
    "exclude": ["backends/alpha/**", "backends/beta/**", "backends/gamma/**"],
    "compile_flags": ["-std=c++20", "-Iinclude"]
  })");
  write_file(dir / "include/demo/reference_backend.hpp", R"(#pragma once
#include <stdexcept>

#include "demo/backend.hpp"
namespace demo {
class ReferenceBackend : public Backend {
 public:
  void add(const Tensor& a, const Tensor& b, Tensor& out) override { out.value = a.value + b.value; }
  void scale(const Tensor& x, double factor, Tensor& out) override { out.value = x.value * factor; }
  void sum(const Tensor& x, int, Tensor& out, bool = false) override { out.value = x.value; }
  void load(Tensor&, const char*) override { throw std::logic_error("reference: load"); }
  virtual void trace() {}
};
}  // namespace demo
)");
  write_file(dir / "backends/delta/delta_backend.cpp", R"(#include "demo/reference_backend.hpp"
namespace demo::delta {
class DeltaBackend final : public ReferenceBackend {
 public:
  const char* name() const override { return "delta"; }
  void add(const Tensor& a, const Tensor& b, Tensor& out) override;
};
void DeltaBackend::add(const Tensor& a, const Tensor& b, Tensor& out) {
  out.value = a.value + b.value;
}
}  // namespace demo::delta
)");
  Outcome o = analyze("--format json", dir);
  ASSERT_EQ(o.exit_code, 1) << o.err << o.out;  // save: the interface's own default, missing (EL400)
  json doc = json::parse(o.out);
  std::map<std::string, json> cells;
  for (const auto& op : doc.at("ops")) cells[op.at("id")] = op.at("cells").at("delta");
  EXPECT_EQ(cells.at("add").at("status"), "native");
  EXPECT_EQ(cells.at("add").at("location").at("file"), "backends/delta/delta_backend.cpp");
  for (const char* op : {"scale", "sum"}) {
    EXPECT_EQ(cells.at(op).at("status"), "fallback") << op;
    EXPECT_EQ(cells.at(op).at("reason"),
              "inherited from demo::ReferenceBackend, outside the backend's folders")
        << op;
  }
  EXPECT_EQ(cells.at("load").at("status"), "stub");
  EXPECT_EQ(cells.at("save").at("status"), "missing");
  EXPECT_TRUE(doc.at("unexposed").empty()) << "a virtual the base adds is no op: " << doc.at("unexposed");
}

TEST_F(AnalyzeCli, FindingsAreEL400ToEL403InCheckSchema) {
  Outcome o = analyze("--format json");
  json doc = json::parse(o.out);
  std::vector<std::string> got;
  for (const auto& d : doc.at("diagnostics")) {
    got.push_back(d.at("code").get<std::string>() + " " + d.at("file").get<std::string>() + ":" +
                  std::to_string(d.at("line").get<int>()));
    EXPECT_TRUE(d.contains("column") && d.contains("end_line") && d.contains("severity") &&
                d.contains("fix"));
  }
  // Sorted by file and line; EL401 points at the declaration that spells the default.
  EXPECT_EQ(got, (std::vector<std::string>{
                     "EL401 backends/alpha/alpha_backend.cpp:10", "EL402 backends/alpha/alpha_backend.cpp:13",
                     "EL400 backends/beta/beta_backend.cpp:8", "EL403 backends/beta/beta_backend.cpp:23",
                     "EL403 backends/gamma/gamma_backend.cpp:27"}));
}

TEST_F(AnalyzeCli, TextFormatPrintsFindingsLikeCheck) {
  Outcome o = analyze("--format text");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(
      o.out.find("backends/beta/beta_backend.cpp:23:19: warning: backend 'beta' implements op 'scale' as a "
                 "stub: it throws \"beta: scale is not implemented\" [EL403 stub-op]"),
      std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("5 problems"), std::string::npos);
}

TEST_F(AnalyzeCli, TableGroupsRowsByCategoryWithoutColorWhenPiped) {
  Outcome o = analyze("");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.out.find("\033["), std::string::npos);
  auto io = o.out.find("\nio\n"), math = o.out.find("\nmath\n");
  ASSERT_NE(io, std::string::npos) << o.out;
  ASSERT_NE(math, std::string::npos);
  EXPECT_LT(io, math);
  EXPECT_NE(o.out.find("  sum       native*   fallback  stub"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("beta (demo::beta::BetaBackend): 0 native, 3 fallback, 1 stub, 1 missing"),
            std::string::npos);
  Outcome colored = analyze("--color always");
  EXPECT_NE(colored.out.find("\033[31mmissing"), std::string::npos);
}

TEST_F(AnalyzeCli, MarkdownAndCsvCarryEveryCell) {
  Outcome md = analyze("--format markdown");
  EXPECT_NE(md.out.find("## io\n"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find(
                "| `scale` | native [backends/alpha/alpha\\_backend.cpp:22] | stub "
                "[backends/beta/beta\\_backend.cpp:23] | fallback [backends/gamma/gamma\\_backend.cpp:22] |"),
            std::string::npos)
      << md.out;
  EXPECT_NE(md.out.find("| beta | `demo::beta::BetaBackend` | 0 | 3 | 1 | 1 | 0 | 60% |"), std::string::npos);
  Outcome csv = analyze("--format csv");
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "kind,category,op,backend,status,file,line,signature,signature_differs,reason,model\r");
  std::size_t cells = 0;
  std::map<std::string, std::string> status;
  while (std::getline(lines, line)) {
    if (line.rfind("cell,", 0) != 0) continue;
    ++cells;
    std::vector<std::string> f;
    std::stringstream s(line);
    for (std::string part; std::getline(s, part, ',') && f.size() < 5;) f.push_back(part);
    status[f[2] + "/" + f[3]] = f[4];
  }
  EXPECT_EQ(cells, 15u);
  for (const auto& [op, row] : kExpected) {
    for (const auto& [backend, st] : row) EXPECT_EQ(status[op + "/" + backend], st) << op << "/" << backend;
  }
}

// One run, several reports: each -o in the format of its extension, each the same bytes as a run in that
// format alone; a folder gets one report per format; an extension that names no format is a usage error.
TEST_F(AnalyzeCli, OneRunWritesSeveralReportsByExtension) {
  const fs::path html = scratch_ / "inv.html", json_file = scratch_ / "inv.json", csv = scratch_ / "inv.csv";
  Outcome o = analyze("-o " + html.string() + " -o " + json_file.string() + " -o " + csv.string());
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_EQ(o.out, "") << "every report went to its file";
  EXPECT_EQ(read_file(json_file), analyze("--format json").out);
  EXPECT_EQ(read_file(csv), analyze("--format csv").out);
  EXPECT_EQ(read_file(html), analyze("--format html").out);
  EXPECT_NE(o.err.find("wrote " + json_file.string() + " (json, 5 ops x 3 backends"), std::string::npos)
      << o.err;

  Outcome folder = analyze("-o " + (scratch_ / "out").string() + "/");
  EXPECT_EQ(folder.exit_code, 1) << folder.err;
  for (const char* name : {"inventory.txt", "inventory.json", "inventory.html", "inventory.csv",
                           "inventory.md", "inventory.sarif"})
    EXPECT_TRUE(fs::is_regular_file(scratch_ / "out" / name)) << name << "\n" << folder.err;
  EXPECT_EQ(read_file(scratch_ / "out" / "inventory.md"), analyze("--format markdown").out);

  Outcome unknown = analyze("-o " + json_file.string() + " -o " + (scratch_ / "inv.weird").string());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("inv.weird: with several -o"), std::string::npos) << unknown.err;
  Outcome clash = analyze("--format csv -o " + json_file.string() + " -o " + html.string());
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_NE(clash.err.find("--format says csv"), std::string::npos) << clash.err;
  Outcome twice = analyze("-o " + json_file.string() + " -o " + json_file.string());
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("named twice"), std::string::npos) << twice.err;
  // One -o keeps its old meaning: --format wins, and a file without a known extension gets the table.
  Outcome one = analyze("--format json -o " + (scratch_ / "one.txt").string());
  EXPECT_EQ(read_file(scratch_ / "one.txt"), analyze("--format json").out);
}

TEST_F(AnalyzeCli, OutputIsTheSameWhateverTheJobs) {
  Outcome one = analyze("--format json -j 1"), two = analyze("--format json -j 3");
  EXPECT_EQ(one.out, two.out);
}

TEST_F(AnalyzeCli, SelectIgnoreAndExitZero) {
  Outcome o = analyze("--format json --select EL403");
  json doc = json::parse(o.out);
  EXPECT_EQ(doc.at("diagnostics").size(), 2u);
  EXPECT_EQ(analyze("--ignore EL4").exit_code, 0);
  EXPECT_EQ(analyze("--exit-zero").exit_code, 0);
  EXPECT_EQ(analyze("--select EL999x").exit_code, 2);
}

TEST_F(AnalyzeCli, RulesListAndExplainTheInventoryRules) {
  Outcome rules = run_in(kClassShape, emberlint() + " rules", scratch_);
  for (const char* code :
       {"EL400  missing-op", "EL401  signature-mismatch", "EL402  unexposed-op", "EL403  stub-op"})
    EXPECT_NE(rules.out.find(code), std::string::npos) << code;
  Outcome rule = run_in(kClassShape, emberlint() + " rule el403", scratch_);
  EXPECT_EQ(rule.exit_code, 0);
  EXPECT_NE(rule.out.find("## Why is this bad?"), std::string::npos);
}

TEST_F(AnalyzeCli, ConfigurationErrorsExitTwoAndSayWhere) {
  auto project = [&](const std::string& ops_interface) {
    fs::path dir = scratch_ / "project";
    fs::remove_all(dir);
    fs::copy(kClassShape, dir, fs::copy_options::recursive);
    std::string cfg = R"({"layers": {"backends": {"alpha": ["backends/alpha/**"]}}, )" + ops_interface +
                      R"(, "compile_flags": ["-std=c++20", "-Iinclude"]})";
    write_file(dir / ".emberlint.json", cfg);
    return dir;
  };
  struct Case {
    std::string section, message;
  };
  for (
      const Case& c : std::vector<Case>{
          {R"("ops_interface": {"shape": "mesh", "headers": []})",
           "ops_interface.shape: unknown shape 'mesh'"},
          {R"("ops_interface": {"shape": "class", "headers": ["x"]})", "ops_interface.class: missing"},
          {R"("ops_interface": {"shape": "class", "class": "A", "headers": ["x"], "colour": 1})",
           "ops_interface.colour: unknown key"},
          {R"("ops_interface": {"shape": "class", "class": "A", "headers": ["x"], "implementations": {"zeta": "Z"}})",
           "ops_interface.implementations.zeta: 'zeta' is not a backend"},
          {R"("ops_interface": {"shape": "functions", "headers": 3})", "ops_interface.namespace: missing"},
      }) {
    fs::path dir = project(c.section);
    Outcome o = run_in(dir, emberlint() + " analyze", scratch_);
    EXPECT_EQ(o.exit_code, 2) << c.section;
    EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(".emberlint.json"), std::string::npos) << o.err;
  }
  EXPECT_EQ(analyze("--format xml").exit_code, 2);
  EXPECT_EQ(analyze("--apply").exit_code, 2);                  // --apply needs --migrate
  EXPECT_EQ(analyze("--migrate --dry-run").exit_code, 2);      // --migrate needs --backend
  EXPECT_EQ(analyze("--migrate --backend all").exit_code, 2);  // and --dry-run or --apply
  EXPECT_EQ(analyze("no/such/folder").exit_code, 2);
}

// A config without "ops_interface" states no inventory: analyze says so, writes no report and exits 0, as
// after an `init` that found no model; --migrate needs the interface and exits 2. The section inherited from
// a parent config counts.
TEST_F(AnalyzeCli, NoOpsInterfaceIsSaidAndExitsZero) {
  fs::path dir = scratch_ / "no_interface";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  write_file(
      dir / ".emberlint.json",
      R"({"layers": {"backends": {"alpha": ["backends/alpha/**"]}}, "compile_flags": ["-std=c++20"]})");
  Outcome o = run_in(dir, emberlint() + " analyze -o inventory.json", scratch_);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("nothing to inventory, no report written: "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(".emberlint.json: no \"ops_interface\" section"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("docs/inventory.md#the-models"), std::string::npos) << o.err;
  EXPECT_FALSE(fs::exists(dir / "inventory.json"));
  Outcome m = run_in(dir, emberlint() + " analyze --migrate --backend all --dry-run", scratch_);
  EXPECT_EQ(m.exit_code, 2) << m.err;
  EXPECT_NE(m.err.find("no \"ops_interface\" section"), std::string::npos) << m.err;
  // A sub-folder's inheriting config without the section uses its parent's: the matrix is there.
  fs::path sub = scratch_ / "inherits";
  fs::copy(kClassShape, sub, fs::copy_options::recursive);
  write_file(sub / "backends/.emberlint.json", R"({"inherit": true})");
  Outcome inherited = run_in(sub / "backends", emberlint() + " analyze --format json", scratch_);
  EXPECT_NE(inherited.exit_code, 2) << inherited.err;
  EXPECT_EQ(inherited.err.find("nothing to inventory"), std::string::npos) << inherited.err;
  EXPECT_NE(inherited.out.find("\"model\""), std::string::npos) << inherited.out;
}

TEST_F(AnalyzeCli, UnparsableBackendSourceExitsThreeAndStillReports) {
  fs::path dir = scratch_ / "broken";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  write_file(dir / "backends/gamma/broken.cpp", "void f() { this is not C++; }\n");
  Outcome o = run_in(dir, emberlint() + " analyze --format json", scratch_);
  EXPECT_EQ(o.exit_code, 3) << o.err;
  json doc = json::parse(o.out);
  ASSERT_EQ(doc.at("failures").size(), 1u);
  EXPECT_EQ(doc.at("failures").at(0).at("file"), "backends/gamma/broken.cpp");
  EXPECT_EQ(doc.at("ops").size(), 5u);
}

// The result cache: a second run of an unchanged tree parses nothing and gives the same report (failures
// included, exit 3 again); a changed source, a new source and a changed config each parse again.
TEST_F(AnalyzeCli, AWarmRunReadsTheInventoryFromTheCache) {
  fs::path dir = scratch_ / "cached";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  write_file(dir / "backends/gamma/broken.cpp", "void f() { this is not C++; }\n");
  // The cache keeps no result computed from a file modified within 20 ms of the parse (it may still be
  // changing): the fixture's files are dated an hour back, as an edited tree's would be by the next run.
  auto age = [&] {
    for (const auto& e : fs::recursive_directory_iterator(dir))
      fs::last_write_time(e.path(), fs::file_time_type::clock::now() - std::chrono::hours(1));
  };
  age();
  const std::string run = emberlint() + " analyze --format json --cache-dir " + (scratch_ / "cache").string();
  Outcome cold = run_in(dir, run, scratch_);
  EXPECT_EQ(cold.exit_code, 3) << cold.err;
  Outcome warm = run_in(dir, run + " -o " + (scratch_ / "warm.json").string(), scratch_);
  EXPECT_EQ(warm.exit_code, 3) << warm.err;
  EXPECT_NE(warm.err.find(", from the cache)"), std::string::npos) << warm.err;
  EXPECT_EQ(read_file(scratch_ / "warm.json"), cold.out);

  // The stub becomes native: the changed file is parsed again and the cell follows it.
  std::string beta = read_file(dir / "backends/beta/beta_backend.cpp");
  const std::string stub = "  throw std::runtime_error(\"beta: scale is not implemented\");\n";
  ASSERT_NE(beta.find(stub), std::string::npos);
  beta.replace(beta.find(stub), stub.size(), "  out.value = x.value * 2;\n");
  const std::string head = "scale(const Tensor&, double, Tensor&)";
  ASSERT_NE(beta.find(head), std::string::npos);
  beta.replace(beta.find(head), head.size(), "scale(const Tensor& x, double, Tensor& out)");
  write_file(dir / "backends/beta/beta_backend.cpp", beta);
  Outcome changed = run_in(dir, run + " -o " + (scratch_ / "changed.json").string(), scratch_);
  EXPECT_EQ(changed.err.find("from the cache"), std::string::npos) << changed.err;
  json doc = json::parse(read_file(scratch_ / "changed.json"));
  for (const auto& op : doc.at("ops")) {
    if (op.at("id") == "scale") {
      EXPECT_EQ(op.at("cells").at("beta").at("status"), "native") << op.dump();
    }
  }
  // A new source of a backend is a new unit: no entry holds.
  write_file(dir / "backends/alpha/extra.cpp", "int extra() { return 1; }\n");
  age();
  Outcome added = run_in(dir, run + " -o " + (scratch_ / "added.json").string(), scratch_);
  EXPECT_EQ(added.err.find("from the cache"), std::string::npos) << added.err;
  Outcome again = run_in(dir, run + " -o " + (scratch_ / "again.json").string(), scratch_);
  EXPECT_NE(again.err.find("from the cache"), std::string::npos) << again.err;
  EXPECT_EQ(read_file(scratch_ / "again.json"), read_file(scratch_ / "added.json"));
  // --no-cache parses, and agrees.
  Outcome fresh = run_in(dir, emberlint() + " analyze --format json --no-cache", scratch_);
  EXPECT_EQ(fresh.out, read_file(scratch_ / "added.json"));
}

// A unit libclang refuses outright (here a language it does not know) fails the same way while its file is
// unchanged: the run is cached like any other (ggml's arch/*/cpu-feats.cpp kept every warm run cold).
TEST_F(AnalyzeCli, ARefusedUnitIsCachedUntilItsFileChanges) {
  fs::path dir = scratch_ / "refused";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  const fs::path alpha = dir / "backends/alpha/alpha_backend.cpp";
  json db = json::array({{{"directory", dir.string()},
                          {"file", alpha.string()},
                          {"arguments", {"c++", "-x", "no-such-language", "-c", alpha.string()}}}});
  write_file(dir / "build/compile_commands.json", db.dump());
  for (const auto& e : fs::recursive_directory_iterator(dir))
    fs::last_write_time(e.path(), fs::file_time_type::clock::now() - std::chrono::hours(1));
  const std::string run = emberlint() + " analyze -p build --cache-dir " + (scratch_ / "cache").string() +
                          " --format json -o " + (scratch_ / "out.json").string();
  Outcome cold = run_in(dir, run, scratch_);
  EXPECT_EQ(cold.exit_code, 3) << cold.err;
  EXPECT_NE(read_file(scratch_ / "out.json").find("libclang could not parse this file"), std::string::npos);
  Outcome warm = run_in(dir, run, scratch_);
  EXPECT_EQ(warm.exit_code, 3);
  EXPECT_NE(warm.err.find("from the cache"), std::string::npos) << warm.err;
  write_file(alpha, read_file(alpha) + "\n// edited\n");
  Outcome edited = run_in(dir, run, scratch_);
  EXPECT_EQ(edited.err.find("from the cache"), std::string::npos) << edited.err;
}

// A backend whose SDK is not installed: its unit fails with the cause missing-sdk-header; the config's
// expected_parse_errors makes that expected (exit 1 for the findings, not 3), as for `check`.
TEST_F(AnalyzeCli, ExpectedParseErrorsKeepAnalyzeGreenAndStrict) {
  fs::path dir = scratch_ / "sdk";
  fs::copy(kClassShape, dir, fs::copy_options::recursive);
  write_file(dir / "backends/gamma/device.cpp", "#include <cuda_runtime.h>\nvoid gamma_device() {}\n");
  Outcome strict = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  EXPECT_EQ(strict.exit_code, 3) << strict.err;
  json failure = json::parse(strict.out).at("failures").at(0);
  EXPECT_EQ(failure.at("file"), "backends/gamma/device.cpp");
  EXPECT_EQ(failure.at("cause"), "missing-sdk-header");
  EXPECT_EQ(failure.at("expected"), false);

  std::string cfg = read_file(dir / ".emberlint.json");
  cfg.replace(cfg.rfind('}'), 1,
              R"(, "expected_parse_errors": {"backends/gamma/**": ["missing-sdk-header"]}})");
  write_file(dir / ".emberlint.json", cfg);
  Outcome expected = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  EXPECT_EQ(expected.exit_code, 1) << "findings only\n" << expected.err;
  EXPECT_EQ(json::parse(expected.out).at("failures").at(0).at("expected"), true);
}

}  // namespace
}  // namespace analyze_test
