// examples/legacy/ and its migration: the functions-shape inventory against hand-written expectations, a
// dry run in every format that changes no byte, an applied migration (one backend, then the rest) that
// builds, passes the example's own tests and lints clean of EL100-EL104, and an apply that fails midway and
// leaves the tree as it was.
#include <nlohmann/json.hpp>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;   // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;

const fs::path kLegacy = fs::path(EMBER_SOURCE_DIR) / "examples" / "legacy";

// op id -> backend -> status, written by hand from examples/legacy/src/ops/<backend>/.
const std::map<std::string, std::map<std::string, std::string>> kLegacyMatrix = {
    {"dot", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "missing"}}},
    {"matmul", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "missing"}}},
    {"norm", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "missing"}}},
    {"transpose", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "missing"}}},
    {"add(const legacy::Tensor &, const legacy::Tensor &)",
     {{"blas", "native"}, {"eigen", "native"}, {"opencl", "native"}}},
    {"add(const legacy::Tensor &, double)", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "native"}}},
    {"exp", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "missing"}}},
    {"multiply", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "native"}}},
    {"subtract", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "native"}}},
    {"sum", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "missing"}}},
    {"normal", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "stub"}}},
    {"uniform", {{"blas", "native"}, {"eigen", "native"}, {"opencl", "native"}}},
};

class Legacy : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = scratch_dir("legacy");
    tree_ = scratch_ / "legacy";
    fs::copy(kLegacy, tree_, fs::copy_options::recursive);
    fs::remove_all(tree_ / "build");
  }
  void TearDown() override { fs::remove_all(scratch_); }
  Outcome lint(const std::string& args) { return run_in(tree_, emberlint() + " " + args, scratch_ / "out"); }
  void expect_matrix(const json& doc, const std::string& folder_of_eigen) {
    EXPECT_EQ(doc.at("shape"), "functions");
    EXPECT_EQ(doc.at("categories"), json({"linalg", "math", "random"}));
    ASSERT_EQ(doc.at("ops").size(), kLegacyMatrix.size());
    for (const auto& op : doc.at("ops")) {
      for (const auto& [backend, status] : kLegacyMatrix.at(op.at("id").get<std::string>())) {
        EXPECT_EQ(op.at("cells").at(backend).at("status"), status) << op.at("id") << " on " << backend;
      }
      if (op.at("name") == "matmul") {
        EXPECT_EQ(op.at("cells").at("eigen").at("location").at("file"),
                  folder_of_eigen + "linalg" + (folder_of_eigen == "backends/eigen/" ? "_ops" : "") + ".cpp");
      }
    }
  }
  fs::path scratch_, tree_;
};

TEST_F(Legacy, InventoryOfTheFunctionsShape) {
  Outcome o = lint("analyze --format json");
  EXPECT_EQ(o.exit_code, 1) << o.err;
  json doc = json::parse(o.out);
  expect_matrix(doc, "src/ops/eigen/");
  EXPECT_EQ(doc.at("ops").at(0).at("cells").at("eigen").at("location").at("line"),
            31);  // dot in src/ops/eigen/linalg.cpp
  std::map<std::string, int> codes;
  for (const auto& d : doc.at("diagnostics")) ++codes[d.at("code")];
  EXPECT_EQ(codes, (std::map<std::string, int>{{"EL400", 6}, {"EL403", 1}}));
}

TEST_F(Legacy, DryRunPrintsThePlanInEveryFormatAndChangesNoByte) {
  auto before = snapshot(tree_);
  // One plan written in four formats (each -o's format from its extension), as the README's main command
  // does: planning parses every unit of the example, so each format of its own would parse them again.
  const fs::path out = scratch_ / "plan";
  Outcome all = lint("analyze --migrate --backend all --dry-run -o '" + out.string() + ".json' -o '" +
                     out.string() + ".md' -o '" + out.string() + ".csv' -o '" + out.string() + ".html'");
  EXPECT_EQ(all.exit_code, 1) << all.err;  // moves planned
  json doc = json::parse(read_file(out.string() + ".json"));
  const json& plan = doc.at("migration");
  EXPECT_EQ(plan.at("applied"), false);
  ASSERT_EQ(plan.at("moves").size(), 30u);  // 12 eigen + 12 blas + 6 opencl functions
  const json* add = nullptr;
  for (const auto& m : plan.at("moves")) {
    EXPECT_EQ(m.at("target"), "backends/" + m.at("backend").get<std::string>() + "/" +
                                  m.at("category").get<std::string>() + "_ops.cpp");
    EXPECT_FALSE(m.at("call_sites").empty()) << m.at("function");
    if (m.at("function") == "legacy::eigen::add" &&
        m.at("op") == "add(const legacy::Tensor &, const legacy::Tensor &)")
      add = &m;
  }
  ASSERT_NE(add, nullptr);
  EXPECT_EQ((*add).at("source").at("file"), "src/ops/eigen/math.cpp");
  EXPECT_EQ((*add).at("helpers"),
            json({"legacy::eigen::(anonymous)::ConstArray", "legacy::eigen::(anonymous)::check_same_shape",
                  "legacy::eigen::(anonymous)::like", "legacy::eigen::(anonymous)::view"}));
  EXPECT_EQ((*add).at("includes"), json({"#include <Eigen/Dense>", "#include <stdexcept>",
                                         "#include <string>", "#include \"eigen_ops.hpp\""}));
  EXPECT_EQ(
      (*add).at("dispatch"),
      "legacy::dispatch::call<legacy::Tensor (const legacy::Tensor &, const legacy::Tensor &)>(\"add(const "
      "legacy::Tensor &, const legacy::Tensor &)\", \"eigen\", args...)");
  EXPECT_EQ((*add).at("call_sites").at(0).at("file"), "src/ops/math.cpp");
  EXPECT_NE(std::find(plan.at("removed").begin(), plan.at("removed").end(), "src/ops/opencl"),
            plan.at("removed").end());
  EXPECT_NE(std::find(plan.at("created").begin(), plan.at("created").end(), "include/legacy/dispatch.hpp"),
            plan.at("created").end());

  Outcome table = lint("analyze --migrate --backend eigen --dry-run");
  EXPECT_NE(table.out.find("migration plan (backend eigen, dry run): 12 functions"), std::string::npos)
      << table.out;
  EXPECT_EQ(table.out.find("[blas]"), std::string::npos);
  EXPECT_NE(read_file(out.string() + ".md").find("## Migration plan (all, dry run)"), std::string::npos);
  const std::string csv = read_file(out.string() + ".csv");
  EXPECT_NE(csv.find("move,math,legacy::eigen::add,eigen,planned,src/ops/eigen/math.cpp,29,"),
            std::string::npos)
      << csv;
  EXPECT_NE(read_file(out.string() + ".html").find("<table class=\"findings\" id=\"plan\">"),
            std::string::npos);
  EXPECT_EQ(snapshot(tree_), before);
}

TEST_F(Legacy, ConflictsStopThePlanAndChangeNothing) {
  write_file(tree_ / "backends/eigen/eigen_ops.hpp", "// already here\n");
  auto before = snapshot(tree_);
  Outcome o = lint("analyze --migrate --backend eigen --apply");
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("backends/eigen/eigen_ops.hpp already exists"), std::string::npos) << o.err;
  EXPECT_EQ(snapshot(tree_), before);
  EXPECT_EQ(lint("analyze --migrate --backend cuda --dry-run").exit_code, 2);
}

TEST_F(Legacy, AnApplyThatFailsMidwayLeavesTheTreeAsItWas) {
  // backends/opencl is a file: the opencl targets cannot be created after blas and eigen were written.
  write_file(tree_ / "backends/opencl", "not a folder\n");
  auto before = snapshot(tree_);
  Outcome o = lint("analyze --migrate --backend all --apply");
  EXPECT_EQ(o.exit_code, 2) << o.out;
  EXPECT_NE(o.err.find("nothing was changed"), std::string::npos) << o.err;
  EXPECT_EQ(snapshot(tree_), before);
}

TEST_F(Legacy, AppliedMigrationBuildsPassesItsTestsAndLintsClean) {
  auto build_and_test = [&](const std::string& tag) {
    Outcome b = run_in(tree_,
                       "cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build && ctest "
                       "--test-dir build --output-on-failure",
                       scratch_ / tag);
    EXPECT_EQ(b.exit_code, 0) << tag << "\n" << b.out << b.err;
  };
  auto purity = [&] {
    json doc = json::parse(lint("check --select EL1 --format json").out);
    std::vector<std::string> found;
    for (const auto& d : doc.at("diagnostics"))
      found.push_back(d.at("code").get<std::string>() + " " + d.at("file").get<std::string>());
    return found;
  };
  EXPECT_FALSE(purity().empty());  // before: backend code in the frontend

  Outcome eigen = lint("analyze --migrate --backend eigen --apply --format json");
  EXPECT_EQ(json::parse(eigen.out).at("migration").at("applied"), true) << eigen.err;
  EXPECT_FALSE(fs::exists(tree_ / "src/ops/eigen"));
  EXPECT_TRUE(fs::exists(tree_ / "src/ops/blas/math.cpp"));
  build_and_test("eigen");

  Outcome all = lint("analyze --migrate --backend all --apply --format json");
  json doc = json::parse(all.out);
  EXPECT_EQ(doc.at("migration").at("moves").size(), 18u) << all.err;
  expect_matrix(doc, "backends/eigen/");  // the report shows the migrated tree
  for (const char* gone : {"src/ops/eigen", "src/ops/blas", "src/ops/opencl"})
    EXPECT_FALSE(fs::exists(tree_ / gone));
  for (const char* made :
       {"backends/eigen/math_ops.cpp", "backends/blas/linalg_ops.cpp", "backends/opencl/random_ops.cpp",
        "include/legacy/dispatch.hpp", "src/dispatch.cpp"})
    EXPECT_TRUE(fs::exists(tree_ / made)) << made;
  std::string math = read_file(tree_ / "src/ops/math.cpp");
  EXPECT_EQ(math.find("ops/eigen/"), std::string::npos);
  EXPECT_EQ(math.find("blas::add("), std::string::npos);
  EXPECT_NE(math.find("#include \"legacy/dispatch.hpp\""), std::string::npos);
  build_and_test("all");
  EXPECT_EQ(purity(), std::vector<std::string>{});
}

}  // namespace
}  // namespace analyze_test
