// `emberlint init` on trees whose backends register a creator per op, each under tests/lint/fixtures/init/:
// tessera (an op enum of a generated header, three backends registering by macros with the op at different
// argument positions and one by calls, and a sub-op enum that the backends switch on), relay (a registry's
// method called with a scoped enum and function pointers), kernreg (a string-keyed kernel registry),
// facet (an op enum in a namespace named by a macro) and sparse (weak evidence: a 31-value sub-op enum in a
// few case labels, a macro of one backend). init proposes the registrations model with the enum's qualified
// name, each backend's forms and the sentinels excluded, `analyze` with the config init wrote gives the
// tree's real matrix, and weak evidence gets no model.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using emberlint::test::Outcome;
using emberlint::test::run_in;
using emberlint::test::scratch_dir;
using nlohmann::json;

const fs::path kInit = fs::path(EMBERLINT_FIXTURES) / "init";

class InitRegistrations : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = scratch_dir("init-registrations");
    use("tessera");
  }
  void TearDown() override { fs::remove_all(scratch_); }
  // Works on a copy of tests/lint/fixtures/init/<name>.
  void use(const std::string& name) {
    tree_ = scratch_ / name;
    if (!fs::exists(tree_)) fs::copy(kInit / name, tree_, fs::copy_options::recursive);
  }
  Outcome run(const std::string& args) {
    return run_in(tree_, emberlint::test::emberlint() + " " + args, scratch_);
  }
  // init's proposal, read as JSON (its comments skipped); `text` gets the text with its comments.
  json propose(std::string* text = nullptr) {
    Outcome init = run("init --dry-run");
    EXPECT_EQ(init.exit_code, 0) << init.err;
    // The comments' lines joined, so that a test's phrase does not depend on where init wraps them.
    if (text) *text = std::regex_replace(init.out, std::regex("\n *// "), " ");
    return json::parse(init.out, nullptr, true, /*ignore_comments=*/true);
  }
  // init writes its config, analyze reads it: op -> the backends' statuses in the report's order, and the
  // backends' names.
  std::map<std::string, std::string> analyzed(std::vector<std::string>* backend_names,
                                              json* report = nullptr) {
    EXPECT_EQ(run("init").exit_code, 0);
    Outcome analyze = run("analyze --no-cache --format json");
    EXPECT_EQ(analyze.exit_code, 1) << analyze.err;
    const json doc = json::parse(analyze.out);
    std::vector<std::string> backends;
    for (const auto& b : doc.at("backends")) backends.push_back(b.at("name"));
    std::map<std::string, std::string> matrix;
    for (const auto& op : doc.at("ops")) {
      std::string row;
      for (const auto& b : backends) {
        if (!row.empty()) row += ' ';
        row += op.at("cells").at(b).at("status").get<std::string>();
      }
      matrix[op.at("id")] = row;
    }
    if (backend_names) *backend_names = backends;
    if (report) *report = doc;
    return matrix;
  }
  fs::path scratch_, tree_;
};

TEST_F(InitRegistrations, CreatorsRegisteredByMacrosAreTheRegistrationsModel) {
  std::string text;
  const json c = propose(&text);
  EXPECT_EQ(c.at("layers").at("backends").size(), 4u) << text;
  // Not enum_dispatch on BinaryOpKind, which two backends switch on; the op enum by its qualified name, in
  // the header that declares it, its sentinels left out; per backend its forms, the op's argument and the
  // creator's (the class, not ClMemory::image; `new C` of a call).
  const json expected = json::parse(R"({
    "model": "registrations",
    "enum": "tessera::OpKind",
    "headers": ["include/tessera/op_kind_generated.h"],
    "exclude": ["OpKind_None", "OpKind_MIN", "OpKind_MAX"],
    "registrations": {
      "cpu": [{"call": "TS_CPU_CREATOR", "op": 1, "creator": 0}],
      "metal": [{"call": "TS_METAL_CREATOR", "op": 0, "creator": 1}],
      "opencl": [{"call": "TS_CL_CREATOR", "op": 1, "creator": 0}],
      "vulkan": [{"call": "addCreator", "op": 0, "creator": 1}]
    }
  })");
  EXPECT_EQ(c.at("ops_interface"), expected) << text;
  // The evidence, as a comment: the sites per backend (log_unsupported(OpKind_Gather) and the like have no
  // creator argument and are no registrations).
  EXPECT_NE(text.find("26 registrations in 4 backends where enum tessera::OpKind "
                      "(include/tessera/op_kind_generated.h, 22 enumerators) names the op: cpu 10 "
                      "TS_CPU_CREATOR (op argument 1); metal 5 TS_METAL_CREATOR (op argument 0); "),
            std::string::npos)
      << text;

  // The config init writes runs: analyze gives the matrix the registrations state, creators that return
  // null are stubs.
  std::vector<std::string> backends;
  json doc;
  const auto matrix = analyzed(&backends, &doc);
  ASSERT_EQ(backends, (std::vector<std::string>{"cpu", "metal", "opencl", "vulkan"}));
  const std::map<std::string, std::string> expected_matrix = {
      {"OpKind_Add", "native native native native"},
      {"OpKind_Sub", "native missing missing missing"},
      {"OpKind_Mul", "native missing native native"},
      {"OpKind_Div", "native missing missing missing"},
      {"OpKind_MatMul", "native native missing missing"},
      {"OpKind_Conv", "native native native native"},
      {"OpKind_Pool", "native missing native missing"},
      {"OpKind_Relu", "native native native missing"},
      {"OpKind_Sigmoid", "missing missing missing missing"},
      {"OpKind_Tanh", "missing missing missing missing"},
      {"OpKind_Softmax", "native missing stub missing"},
      {"OpKind_Concat", "missing missing missing native"},
      {"OpKind_Reshape", "missing missing missing missing"},
      {"OpKind_Transpose", "stub missing missing missing"},
      {"OpKind_Gather", "missing missing missing missing"},
      {"OpKind_Reduce", "missing missing missing missing"},
      {"OpKind_LayerNorm", "missing native missing missing"},
      {"OpKind_Cast", "missing missing missing missing"},
      {"OpKind_Resize", "missing missing missing stub"},
  };
  EXPECT_EQ(matrix, expected_matrix);
  EXPECT_EQ(doc.at("warnings"), json::array()) << doc.dump(2);
}

// The registrations of one backend are weak evidence: init does not propose the registrations model.
TEST_F(InitRegistrations, OneRegisteringBackendIsTooLittleEvidence) {
  for (const char* f :
       {"backends/opencl/cl_ops.cpp", "backends/metal/metal_ops.cpp", "backends/vulkan/vk_ops.cpp"})
    fs::remove(tree_ / f);
  std::string text;
  const json c = propose(&text);
  EXPECT_TRUE(!c.contains("ops_interface") || c.at("ops_interface").at("model") != "registrations") << text;
}

// Calls of a registry's method with a scoped enum's enumerators (`r.add(OpCode::Conv, &make_conv)`), the
// factory a function pointer: the form is the method, the enum is qualified from its namespace, and
// `registry_of("cuda")` and `note(OpCode::Gather)` (no creator argument) are no registrations.
TEST_F(InitRegistrations, CallsOfARegistryAreTheRegistrationsModel) {
  use("relay");
  std::string text;
  const json c = propose(&text);
  const json expected = json::parse(R"({
    "model": "registrations",
    "enum": "relay::OpCode",
    "headers": ["include/relay/opcode.hpp"],
    "exclude": ["Count"],
    "registrations": {
      "cpu": [{"call": "add", "op": 0, "creator": 1}],
      "cuda": [{"call": "add", "op": 0, "creator": 1}],
      "opencl": [{"call": "add", "op": 0, "creator": 1}]
    }
  })");
  EXPECT_EQ(c.at("ops_interface"), expected) << text;
  std::vector<std::string> backends;
  const auto matrix = analyzed(&backends);
  ASSERT_EQ(backends, (std::vector<std::string>{"cpu", "cuda", "opencl"}));
  const std::map<std::string, std::string> expected_matrix = {
      {"Add", "native native missing"},       {"Sub", "native missing missing"},
      {"Mul", "native missing missing"},      {"MatMul", "native native missing"},
      {"Conv", "missing native native"},      {"Relu", "native missing native"},
      {"Softmax", "missing native missing"},  {"Gather", "missing missing native"},
      {"Scatter", "missing missing missing"}, {"TopK", "stub missing missing"},
  };
  EXPECT_EQ(matrix, expected_matrix);
}

// A string-keyed kernel registry (`REGISTER_KERNEL("MatMul", Device::cuda, MatMulCuda)`): no enum, the ops
// are the names registered, the creator is the class; printf's format strings are no op names.
TEST_F(InitRegistrations, AStringKeyedRegistryIsTheRegistrationsModel) {
  use("kernreg");
  std::string text;
  const json c = propose(&text);
  const json expected = json::parse(R"({
    "model": "registrations",
    "registrations": {
      "cpu": [{"call": "REGISTER_KERNEL", "op": 0, "creator": 2}],
      "cuda": [{"call": "REGISTER_KERNEL", "op": 0, "creator": 2}]
    }
  })");
  EXPECT_EQ(c.at("ops_interface"), expected) << text;
  EXPECT_NE(text.find("8 registrations in 2 backends where a name-like string literal names the op"),
            std::string::npos)
      << text;
  std::vector<std::string> backends;
  const auto matrix = analyzed(&backends);
  ASSERT_EQ(backends, (std::vector<std::string>{"cpu", "cuda"}));
  const std::map<std::string, std::string> expected_matrix = {
      {"Add", "native native"},      {"MatMul", "native native"}, {"Relu", "native missing"},
      {"Softmax", "native missing"}, {"Fft", "stub missing"},     {"LayerNorm", "missing native"},
  };
  EXPECT_EQ(matrix, expected_matrix);
}

// The op enum in a namespace a macro pastes together (`namespace FACET_NS {`, FACET_NS expanding to
// facet_v2): init proposes the name libclang gives the enum, which analyze resolves before it parses a
// backend (the spelled FACET_NS::PrimKind made analyze exit 2), and says how the source spells it. Not
// forms: the host's declaration macro beside each registration (FACET_HOST_MAP(Log, PRIM_LOG, ...) declares a
// kernel whose registration is commented out: Log is missing on the host, not native), and the gpu's
// upload_constants calls in a body, once with a variable kind (which made each missing gpu cell unknown).
TEST_F(InitRegistrations, AnEnumInAMacroNamedNamespaceIsProposedByItsPreprocessedName) {
  use("facet");
  std::string text;
  const json c = propose(&text);
  const json expected = json::parse(R"({
    "model": "registrations",
    "enum": "facet_v2::PrimKind",
    "headers": ["include/facet/prim_kind.hpp"],
    "exclude": ["PRIM_UNKNOWN"],
    "registrations": {
      "gpu": [{"call": "FACET_GPU_KERNEL", "op": 0, "creator": 1}],
      "host": [{"call": "FACET_HOST_KERNEL", "op": 1, "creator": 0}]
    }
  })");
  EXPECT_EQ(c.at("ops_interface"), expected) << text;
  EXPECT_NE(text.find("spelled FACET_NS::PrimKind in the source, facet_v2::PrimKind once preprocessed"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("left out, a declaration beside the registrations or their ops registered by a form "
                      "before them: gpu upload_constants; host FACET_HOST_MAP;"),
            std::string::npos)
      << text;
  std::vector<std::string> backends;
  json doc;
  const auto matrix = analyzed(&backends, &doc);
  ASSERT_EQ(backends, (std::vector<std::string>{"gpu", "host"}));
  const std::map<std::string, std::string> expected_matrix = {
      {"PRIM_ADD", "native native"},    {"PRIM_SUB", "missing native"},    {"PRIM_MUL", "native native"},
      {"PRIM_DIV", "missing native"},   {"PRIM_EXP", "missing native"},    {"PRIM_LOG", "missing missing"},
      {"PRIM_MATMUL", "native native"}, {"PRIM_SOFTMAX", "native native"}, {"PRIM_CONCAT", "native missing"},
  };
  EXPECT_EQ(matrix, expected_matrix);
  EXPECT_EQ(doc.at("warnings"), json::array()) << doc.dump(2);
}

// Weak evidence gives no model at all: a 31-value sub-op enum named in a few case labels of unrelated
// functions (a name table, a shader picker) is not enum_dispatch, and a macro used in one backend with one
// creator class is not registrations. The comment says what came closest.
TEST_F(InitRegistrations, WeakEvidenceProposesNoModel) {
  use("sparse");
  std::string text;
  const json c = propose(&text);
  EXPECT_EQ(c.at("layers").at("backends").size(), 2u) << text;
  EXPECT_FALSE(c.contains("ops_interface")) << text;
  EXPECT_NE(text.find("not a model: enum sparse::EltwiseOpType (31 enumerators): case labels in 2 backends, "
                      "at most 3 in one function (8 in each of 2 backends would make it the enum_dispatch "
                      "model)"),
            std::string::npos)
      << text;
}

}  // namespace
