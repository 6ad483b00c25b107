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
  EXPECT_EQ(doc["failures"], json::array());
  EXPECT_EQ(doc["interface"], "ember::Backend");
  EXPECT_EQ(doc["categories"], json({"comparison", "device", "dtype", "math", "random", "solver", "tensor"}));
  std::vector<std::string> backends;
  for (const auto& b : doc["backends"]) backends.push_back(b["name"]);
  EXPECT_EQ(backends, (std::vector<std::string>{"blas", "eigen", "opencl"}));
  // A few ops by hand, each in the category of the interface header that declares it.
  std::map<std::string, std::string> category;
  for (const auto& op : doc["ops"]) category[op["id"]] = op["category"];
  EXPECT_EQ(category["full"], "tensor");
  EXPECT_EQ(category["add"], "math");
  EXPECT_EQ(category["matmul"], "math");
  EXPECT_EQ(category["equal"], "comparison");
  EXPECT_EQ(category["random_normal"], "random");
  EXPECT_EQ(category["to_device"], "device");
  EXPECT_EQ(category["cast"], "dtype");
  EXPECT_EQ(category["solve"], "solver");
  EXPECT_GE(doc["ops"].size(), 100u);
  for (const auto& op : doc["ops"]) {
    for (const auto& [backend, cell] : op["cells"].items()) {
      std::string status = cell["status"];
      EXPECT_TRUE(status == "native" || status == "fallback")
          << op["id"] << " on " << backend << " is " << status << ": " << cell["reason"] << " at "
          << cell["location"];
      EXPECT_TRUE(cell["mismatches"].empty()) << op["id"] << " on " << backend;
      EXPECT_FALSE(cell["location"].is_null()) << op["id"] << " on " << backend;
    }
  }
  for (const auto& d : doc["diagnostics"]) {
    ADD_FAILURE() << d["code"] << " " << d["file"] << ":" << d["line"] << ": " << d["message"];
  }
  EXPECT_EQ(o.exit_code, 0);
}

}  // namespace
}  // namespace analyze_test
