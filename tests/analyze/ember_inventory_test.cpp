// ember's own inventory: every op of ember::Backend is native or an explicit fallback in every backend, and
// no EL400-EL403 finding. This is DESIGN.md's "nothing is silently missing", checked on the real tree.
#include <nlohmann/json.hpp>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;  // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;

TEST(EmberInventory, EveryOpOfEveryBackendIsNativeOrFallback) {
  fs::path scratch = scratch_dir("ember");
  Outcome o = run_in(EMBER_SOURCE_DIR, emberlint() + " analyze --format json", scratch);
  fs::remove_all(scratch);
  ASSERT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.err;
  json doc = json::parse(o.out);
  EXPECT_EQ(doc.at("failures"), json::array());
  EXPECT_EQ(doc.at("interface"), "ember::Backend");
  EXPECT_EQ(doc.at("categories"),
            json({"comparison", "device", "dtype", "fusion", "math", "random", "solver", "tensor"}));
  std::vector<std::string> backends;
  for (const auto& b : doc.at("backends")) backends.push_back(b.at("name"));
  EXPECT_EQ(backends, (std::vector<std::string>{"blas", "eigen", "opencl"}));
  // A few ops by hand, each in the category of the interface header that declares it.
  std::map<std::string, std::string> category;
  for (const auto& op : doc.at("ops")) category[op.at("id")] = op.at("category");
  EXPECT_EQ(category.at("full"), "tensor");
  EXPECT_EQ(category.at("add"), "math");
  EXPECT_EQ(category.at("matmul"), "math");
  EXPECT_EQ(category.at("equal"), "comparison");
  EXPECT_EQ(category.at("random_normal"), "random");
  EXPECT_EQ(category.at("to_device"), "device");
  EXPECT_EQ(category.at("cast"), "dtype");
  EXPECT_EQ(category.at("solve"), "solver");
  EXPECT_EQ(category.at("fused_elementwise"), "fusion");
  EXPECT_GE(doc.at("ops").size(), 100u);
  for (const auto& op : doc.at("ops")) {
    for (const auto& [backend, cell] : op.at("cells").items()) {
      std::string status = cell.at("status");
      EXPECT_TRUE(status == "native" || status == "fallback")
          << op.at("id") << " on " << backend << " is " << status << ": " << cell.at("reason") << " at "
          << cell.at("location");
      EXPECT_TRUE(cell.at("mismatches").empty()) << op.at("id") << " on " << backend;
      EXPECT_FALSE(cell.at("location").is_null()) << op.at("id") << " on " << backend;
    }
  }
  for (const auto& d : doc.at("diagnostics")) {
    ADD_FAILURE() << d.at("code") << " " << d.at("file") << ":" << d.at("line") << ": " << d.at("message");
  }
  EXPECT_EQ(o.exit_code, 0);
}

}  // namespace
}  // namespace analyze_test
