// Backend roles (ops_interface.roles) and composite fallbacks (ops_interface.fallback_methods) on a shape of
// our own, tests/analyze/shapes/backend_roles/: a backend of stubs by design gives no EL403 and one summary
// line, a backend whose declined ops run elsewhere has fallback cells, and an op the frontend computes as a
// composite where a backend declines it is fallback there, not missing.
#include <nlohmann/json.hpp>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;   // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;
using Matrix = std::map<std::string, std::map<std::string, std::string>>;  // op -> backend -> status

const fs::path kShape = fs::path(ANALYZE_FIXTURES).parent_path() / "shapes" / "backend_roles";

class BackendRoles : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = scratch_dir("roles"); }
  void TearDown() override { fs::remove_all(scratch_); }
  // A copy of the shape whose config has `from` replaced by `to`.
  fs::path edited(const std::string& from, const std::string& to) {
    fs::path dir = scratch_ / ("edited" + std::to_string(++edits_));
    fs::copy(kShape, dir, fs::copy_options::recursive);
    std::string cfg = read_file(dir / ".emberlint.json");
    std::size_t at = cfg.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) cfg.replace(at, from.size(), to);
    write_file(dir / ".emberlint.json", cfg);
    return dir;
  }
  json report(const fs::path& dir) {
    Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
    EXPECT_EQ(o.exit_code, 1) << o.err;
    return json::parse(o.out);
  }
  fs::path scratch_;
  int edits_ = 0;
};

Matrix matrix_of(const json& doc) {
  Matrix m;
  for (const auto& op : doc.at("ops")) {
    for (const auto& [backend, cell] : op.at("cells").items())
      m[op.at("id").get<std::string>()][backend] = cell.at("status").get<std::string>();
  }
  return m;
}

const json& cell(const json& doc, const std::string& op, const std::string& backend) {
  for (const auto& o : doc.at("ops")) {
    if (o.at("id") == op) return o.at("cells").at(backend);
  }
  throw std::runtime_error("no op " + op);
}

// "EL400 accel Sort": every finding of the report, sorted.
std::vector<std::string> findings(const json& doc) {
  std::vector<std::string> out;
  for (const auto& d : doc.at("diagnostics"))
    out.push_back(d.at("code").get<std::string>() + " " + d.at("file").get<std::string>() + ":" +
                  std::to_string(d.at("line").get<int>()));
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(BackendRoles, MatrixIsExact) {
  json doc = report(kShape);
  // cpu: LayerNorm's run_cpu is the header's inline throw, and LayerNorm is a Composite (prefers_composite):
  // fallback. gpu: Mul only throws (a stub); Attention throws but is a Composite (fallback). no_gpu: stubs by
  // design, its Composites fallback like everywhere. accel: declines Mul (fallback by its role), has no
  // Sort (missing: a role turns what a backend declines into fallback, not what it lacks).
  const Matrix expected = {
      {"Add", {{"cpu", "native"}, {"gpu", "native"}, {"no_gpu", "stub"}, {"accel", "native"}}},
      {"Attention", {{"cpu", "native"}, {"gpu", "fallback"}, {"no_gpu", "fallback"}, {"accel", "fallback"}}},
      {"LayerNorm", {{"cpu", "fallback"}, {"gpu", "native"}, {"no_gpu", "fallback"}, {"accel", "fallback"}}},
      {"Mul", {{"cpu", "native"}, {"gpu", "stub"}, {"no_gpu", "stub"}, {"accel", "fallback"}}},
      {"Sort", {{"cpu", "native"}, {"gpu", "native"}, {"no_gpu", "stub"}, {"accel", "missing"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  EXPECT_EQ(cell(doc, "LayerNorm", "cpu").at("reason"),
            "the caller computes a composite where quill::Composite::prefers_composite says so (it has no "
            "method; ops_interface.fallback_methods)");
  EXPECT_EQ(cell(doc, "Attention", "gpu").at("reason"),
            "the caller computes a composite where quill::Composite::prefers_composite says so (its method "
            "only throws; ops_interface.fallback_methods)");
  EXPECT_EQ(cell(doc, "Mul", "accel").at("reason"),
            "declines the op (it throws \"Mul: not supported by accel\"); the caller runs it elsewhere "
            "(ops_interface.roles.accel: \"fallback\")");
  EXPECT_EQ(cell(doc, "Mul", "accel").at("location").at("file"), "backends/accel/ops.cpp");
  // One EL403 (gpu's Mul) and one EL400 (accel's Sort): nothing for no_gpu's three stubs.
  EXPECT_EQ(findings(doc),
            (std::vector<std::string>{"EL400 include/quill/ops.hpp:46", "EL403 backends/gpu/ops.cpp:11"}));
  std::map<std::string, std::string> roles;
  for (const auto& b : doc.at("backends")) roles[b.at("name")] = b.at("role");
  EXPECT_EQ(roles, (std::map<std::string, std::string>{
                       {"accel", "fallback"}, {"cpu", ""}, {"gpu", ""}, {"no_gpu", "stubs"}}));
  EXPECT_EQ(
      doc.at("roles"),
      json({"accel: falls back by design (ops_interface.roles): the ops it declines run elsewhere "
            "(fallback); 1 native, 3 fallback, 1 missing",
            "no_gpu: stubs by design (ops_interface.roles): 3 stub cells, not reported as EL403; 0 native, "
            "2 fallback, 0 missing"}));
}

TEST_F(BackendRoles, TheSummaryLineIsInTheTableAndTheMarkdown) {
  Outcome table = run_in(kShape, emberlint() + " analyze --no-cache", scratch_);
  EXPECT_EQ(table.exit_code, 1) << table.err;
  EXPECT_NE(table.out.find("\n  no_gpu: stubs by design (ops_interface.roles): 3 stub cells, not reported as "
                           "EL403; 0 native, 2 fallback, 0 missing\n"),
            std::string::npos)
      << table.out;
  Outcome md = run_in(kShape, emberlint() + " analyze --no-cache --format markdown", scratch_);
  EXPECT_NE(md.out.find("> accel: falls back by design"), std::string::npos) << md.out;
}

// The Markdown summary table and the HTML page name each backend's role beside it (and only there), and the
// page lists the summary lines.
TEST_F(BackendRoles, TheMarkdownAndHtmlReportsShowEachBackendsRole) {
  Outcome md = run_in(kShape, emberlint() + " analyze --no-cache --format markdown", scratch_);
  EXPECT_EQ(md.exit_code, 1) << md.err;
  EXPECT_NE(md.out.find("\n| no_gpu (role: stubs) | `run_gpu` | 0 | 2 | 3 | 0 | 0 | 40% |\n"),
            std::string::npos)
      << md.out;
  EXPECT_NE(md.out.find("\n| accel (role: fallback) | `run_gpu` | 1 | 3 | 0 | 1 | 0 | 80% |\n"),
            std::string::npos)
      << md.out;
  EXPECT_NE(md.out.find("\n| gpu | `run_gpu` |"), std::string::npos) << md.out;
  EXPECT_EQ(md.out.find("| gpu (role:"), std::string::npos) << md.out;

  const fs::path html = scratch_ / "inventory.html";
  Outcome page =
      run_in(kShape, emberlint() + " analyze --no-cache --format html -o '" + html.string() + "'", scratch_);
  EXPECT_EQ(page.exit_code, 1) << page.err;
  const std::string text = read_file(html);
  // The coverage bars' labels and the matrix's column headers: two badges per backend with a role.
  auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<b>no_gpu</b> <span class=\"role\" data-role=\"stubs\""), 1u) << text;
  EXPECT_EQ(count("<b>accel</b> <span class=\"role\" data-role=\"fallback\""), 1u) << text;
  EXPECT_EQ(count("<th>no_gpu <span class=\"role\" data-role=\"stubs\""), 1u) << text;
  EXPECT_EQ(count("data-role="), 4u) << text;
  EXPECT_NE(
      text.find("<li>no_gpu: stubs by design (ops_interface.roles): 3 stub cells, not reported as EL403; "
                "0 native, 2 fallback, 0 missing</li>"),
      std::string::npos)
      << text;
}

// Without the keys the same code is the flood the roles exist to avoid: no_gpu's five stubs are EL403 and
// the composites are stubs and missing.
TEST_F(BackendRoles, WithoutTheKeysTheCellsAreStubsAndMissing) {
  const fs::path dir = edited(R"("roles": {"no_gpu": "stubs", "accel": "fallback"},
    "fallback_methods": ["prefers_composite"])",
                              R"("roles": {})");
  json doc = report(dir);
  EXPECT_EQ(cell(doc, "LayerNorm", "cpu").at("status"), "missing");
  EXPECT_EQ(cell(doc, "Attention", "gpu").at("status"), "stub");
  EXPECT_EQ(cell(doc, "Mul", "accel").at("status"), "stub");
  std::size_t el403 = 0;
  for (const auto& f : findings(doc)) el403 += f.rfind("EL403", 0) == 0;
  EXPECT_EQ(el403, 8u);  // gpu's Mul and Attention, no_gpu's five, accel's Mul
  EXPECT_EQ(doc.at("roles"), json::array());
}

TEST_F(BackendRoles, WrongRolesAndMethodsNameTheConfigPath) {
  Outcome role =
      run_in(edited(R"("no_gpu": "stubs")", R"("no_gpu": "stub")"), emberlint() + " analyze", scratch_);
  EXPECT_EQ(role.exit_code, 2);
  EXPECT_NE(role.err.find(
                "ops_interface.roles.no_gpu: unknown role 'stub'; expected one of \"stubs\", \"fallback\""),
            std::string::npos)
      << role.err;
  Outcome backend =
      run_in(edited(R"("no_gpu": "stubs")", R"("nogpu": "stubs")"), emberlint() + " analyze", scratch_);
  EXPECT_EQ(backend.exit_code, 2);
  EXPECT_NE(backend.err.find("ops_interface.roles.nogpu: 'nogpu' is not a backend in layers.backends"),
            std::string::npos)
      << backend.err;
  Outcome method = run_in(edited(R"(["prefers_composite"])", R"(["prefer_composite"])"),
                          emberlint() + " analyze --no-cache", scratch_);
  EXPECT_EQ(method.exit_code, 2);
  EXPECT_NE(
      method.err.find("ops_interface.fallback_methods[0]: no class declares a method 'prefer_composite'; "
                      "nearest: prefers_composite"),
      std::string::npos)
      << method.err;
}

}  // namespace
}  // namespace analyze_test
