// The inventory models on small code bases of our own, one per shape (tests/analyze/shapes/<model>/): each
// matrix is checked cell by cell from the JSON report against expectations written by hand from the sources,
// every report format names the model, and a config that names what the code does not have is exit 2.
#include <nlohmann/json.hpp>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;   // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;
using Matrix = std::map<std::string, std::map<std::string, std::string>>;  // op -> backend -> status

const fs::path kShapes = fs::path(ANALYZE_FIXTURES).parent_path() / "shapes";

class Shapes : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = scratch_dir("shapes"); }
  void TearDown() override { fs::remove_all(scratch_); }
  Outcome analyze(const std::string& shape, const std::string& args) {
    return run_in(kShapes / shape, emberlint() + " analyze " + args, scratch_);
  }
  json report(const std::string& shape) {
    Outcome o = analyze(shape, "--format json");
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.err;
    return json::parse(o.out);
  }
  // A copy of a shape whose config has `from` replaced by `to`.
  fs::path edited(const std::string& shape, const std::string& from, const std::string& to) {
    fs::path dir = scratch_ / (shape + "_edited" + std::to_string(++edits_));
    fs::copy(kShapes / shape, dir, fs::copy_options::recursive);
    std::string cfg = read_file(dir / ".emberlint.json");
    std::size_t at = cfg.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) cfg.replace(at, from.size(), to);
    write_file(dir / ".emberlint.json", cfg);
    return dir;
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

std::vector<std::string> ids(const json& doc) {
  std::vector<std::string> out;
  for (const auto& o : doc.at("ops")) out.push_back(o.at("id"));
  return out;
}

// ---- enum_dispatch ---------------------------------------------------------------------------------------

TEST_F(Shapes, EnumDispatchMatrixIsExact) {
  json doc = report("enum_dispatch");
  EXPECT_EQ(doc.at("model"), "enum_dispatch");
  EXPECT_EQ(doc.at("interface"), "tiny_op");
  EXPECT_EQ(doc.at("categories"), json({"tiny"}));
  // The sentinels TINY_OP_NONE and TINY_OP_COUNT are excluded; the rest in declaration order.
  EXPECT_EQ(ids(doc), (std::vector<std::string>{"TINY_OP_ADD", "TINY_OP_SUB", "TINY_OP_MUL", "TINY_OP_DIV",
                                                "TINY_OP_RELU", "TINY_OP_SOFTMAX"}));
  const Matrix expected = {
      // host: a case per op, sub and mul in one fall-through group, softmax only aborts.
      // accel: add and mul dispatched; div dispatched but its predicate says false; sub and the others
      // have no case (the default aborts). remote: relu has a case, the rest only reach a working default.
      // planned: a backend folder without a source.
      {"TINY_OP_ADD",
       {{"host", "native"}, {"accel", "native"}, {"remote", "unknown"}, {"planned", "unknown"}}},
      {"TINY_OP_SUB",
       {{"host", "native"}, {"accel", "missing"}, {"remote", "unknown"}, {"planned", "unknown"}}},
      {"TINY_OP_MUL",
       {{"host", "native"}, {"accel", "native"}, {"remote", "unknown"}, {"planned", "unknown"}}},
      {"TINY_OP_DIV", {{"host", "native"}, {"accel", "stub"}, {"remote", "unknown"}, {"planned", "unknown"}}},
      {"TINY_OP_RELU",
       {{"host", "native"}, {"accel", "missing"}, {"remote", "native"}, {"planned", "unknown"}}},
      {"TINY_OP_SOFTMAX",
       {{"host", "stub"}, {"accel", "missing"}, {"remote", "unknown"}, {"planned", "unknown"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  const json& mul = cell(doc, "TINY_OP_MUL", "host");
  EXPECT_EQ(mul.at("location"), json({{"file", "backends/host/host.c"}, {"line", 17}, {"column", 5}}));
  EXPECT_EQ(mul.at("signature"), "case TINY_OP_MUL in tiny_host_compute");
  EXPECT_EQ(cell(doc, "TINY_OP_SOFTMAX", "host").at("reason"),
            "only aborts in its case of tiny_host_compute");
  EXPECT_EQ(
      cell(doc, "TINY_OP_DIV", "accel").at("reason"),
      "is dispatched, but the predicate returns false (tiny_accel_supports at backends/accel/accel.c:30)");
  EXPECT_EQ(cell(doc, "TINY_OP_SUB", "accel").at("reason"),
            "no case in the dispatch functions (their default: aborts); the predicate returns false "
            "(tiny_accel_supports at backends/accel/accel.c:32)");
  EXPECT_EQ(cell(doc, "TINY_OP_RELU", "accel").at("reason"),
            "no case in the dispatch functions (their default: aborts); the predicate returns false "
            "(default: of tiny_accel_supports at backends/accel/accel.c:34)");
  EXPECT_EQ(cell(doc, "TINY_OP_ADD", "remote").at("reason"),
            "only the default: branch of tiny_remote_compute handles it");
  EXPECT_EQ(cell(doc, "TINY_OP_ADD", "planned").at("reason"), "no source of this backend was parsed");
  EXPECT_EQ(doc.at("warnings"),
            json({"ops_interface.dispatch: no function of backend 'planned' matches 'tiny_planned_compute'; "
                  "nearest: none"}));
}

TEST_F(Shapes, EnumDispatchErrorsNameTheConfigPath) {
  Outcome typo = run_in(edited("enum_dispatch", "\"enum\": \"tiny_op\"", "\"enum\": \"tiny_opp\""),
                        emberlint() + " analyze", scratch_);
  EXPECT_EQ(typo.exit_code, 2) << typo.out;
  EXPECT_NE(typo.err.find(".emberlint.json: ops_interface.enum: no enum 'tiny_opp'"), std::string::npos)
      << typo.err;
  EXPECT_NE(typo.err.find("nearest: tiny_op, tiny_kind"), std::string::npos) << typo.err;
  Outcome all = run_in(edited("enum_dispatch", "\"exclude\": [\"TINY_OP_NONE\"", "\"exclude\": [\"TINY_*\""),
                       emberlint() + " analyze", scratch_);
  EXPECT_EQ(all.exit_code, 2);
  EXPECT_NE(all.err.find("ops_interface.exclude: excludes every enumerator of 'tiny_op'"), std::string::npos)
      << all.err;
  // A dispatch pattern that matches nothing: the matrix still comes, with a warning and the nearest names.
  Outcome pattern = run_in(edited("enum_dispatch", "tiny_{backend}_compute", "tiny_{backend}_comptue"),
                           emberlint() + " analyze --format json", scratch_);
  EXPECT_EQ(pattern.exit_code, 1);
  EXPECT_NE(pattern.err.find("warning: ops_interface.dispatch: no function of backend 'host' matches "
                             "'tiny_host_comptue'; nearest: tiny_host_compute"),
            std::string::npos)
      << pattern.err;
  Outcome key = run_in(edited("enum_dispatch", "\"enum\":", "\"class\": \"X\", \"enum\":"),
                       emberlint() + " analyze", scratch_);
  EXPECT_EQ(key.exit_code, 2);
  EXPECT_NE(key.err.find("ops_interface.class: not a key of the model \"enum_dispatch\""), std::string::npos)
      << key.err;
}

// ---- every model: each report says which model produced the matrix ---------------------------------------

TEST_F(Shapes, EveryFormatNamesTheModel) {
  for (const std::string shape : {"enum_dispatch"}) {
    EXPECT_NE(analyze(shape, "--format table").out.find("(model " + shape + ")"), std::string::npos) << shape;
    EXPECT_NE(analyze(shape, "--format markdown").out.find("(model `" + shape + "`)"), std::string::npos);
    EXPECT_NE(analyze(shape, "--format html").out.find("(model " + shape + ")"), std::string::npos);
    std::string csv = analyze(shape, "--format csv").out;
    EXPECT_NE(csv.find(",model\r\n"), std::string::npos);
    EXPECT_NE(csv.find("," + shape + "\r\n"), std::string::npos);
    EXPECT_EQ(report(shape).at("model"), shape);
  }
}

}  // namespace
}  // namespace analyze_test
