// The registrations model (tests/analyze/shapes/registrations*/) on what a user reads first: where EL400
// points for an op a backend does not register (the place to add it, or the op's own declaration), and what
// the warning says when a backend's registrations cannot be seen at all because the build left it out.
#include <nlohmann/json.hpp>

#include "tests/support/test_support.hpp"

namespace analyze_test {

namespace fs = std::filesystem;
using namespace emberlint::test;   // tests/support/test_support.hpp
using emberlint::test::emberlint;  // not the namespace

namespace {

using nlohmann::json;

const fs::path kShapes = fs::path(ANALYZE_FIXTURES).parent_path() / "shapes";

class RegistrationPlaces : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = scratch_dir("registration_places"); }
  void TearDown() override { fs::remove_all(scratch_); }
  // A copy of a shape to edit.
  fs::path copy(const std::string& shape) {
    const fs::path dir = scratch_ / shape;
    fs::copy(kShapes / shape, dir, fs::copy_options::recursive);
    return dir;
  }
  static void replace(const fs::path& file, const std::string& from, const std::string& to) {
    std::string text = read_file(file);
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    write_file(file, text);
  }
  json analyze(const fs::path& dir, const std::string& args, Outcome* outcome = nullptr) {
    Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json " + args, scratch_);
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.out << o.err;
    if (outcome) *outcome = o;
    return json::parse(o.out);
  }
  fs::path scratch_;
};

// "backends/npu/npu_ops.cpp:20:5" for the EL400 of `backend` and `op`, "" when there is none.
std::string el400_at(const json& doc, const std::string& backend, const std::string& op) {
  const std::string says = "backend '" + backend + "' does not implement op '" + op + "' ";
  for (const auto& d : doc.at("diagnostics")) {
    if (d.at("code") == "EL400" && d.at("message").get<std::string>().rfind(says, 0) == 0)
      return d.at("file").get<std::string>() + ":" + std::to_string(d.at("line").get<int>()) + ":" +
             std::to_string(d.at("column").get<int>());
  }
  return "";
}

// "line:column" of the first `needle` in `text`.
std::string line_column(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return "absent";
  const std::size_t start = text.rfind('\n', at);
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return std::to_string(line) + ":" + std::to_string(at - (start == std::string::npos ? 0 : start + 1) + 1);
}

}  // namespace

// A backend that registers its ops in one file (a registry: a table, a run of macros) gets its missing ops
// there, at the registration of the op before it, where the missing one would go; an op before every
// registration gets the registry's first.
TEST_F(RegistrationPlaces, AMissingOpOfARegistryPointsWhereItsRegistrationWouldGo) {
  const json doc = analyze(kShapes / "registrations", "");
  // npu's table registers Add, Diag and Diag_MaskInf (lines 20-22): Sub, Mul, Conv come after Add.
  EXPECT_EQ(el400_at(doc, "npu", "OpType_Sub"), "backends/npu/npu_ops.cpp:20:5");
  EXPECT_EQ(el400_at(doc, "npu", "OpType_Softmax"), "backends/npu/npu_ops.cpp:20:5");
  // host's macros: Mul after Sub (23), Softmax after Relu (42), Diag_MaskInf after the direct Diag call (50).
  EXPECT_EQ(el400_at(doc, "host", "OpType_Mul"), "backends/host/host_ops.cpp:23:1");
  EXPECT_EQ(el400_at(doc, "host", "OpType_Softmax"), "backends/host/host_ops.cpp:42:1");
  EXPECT_EQ(el400_at(doc, "host", "OpType_Diag_MaskInf"), "backends/host/host_ops.cpp:50:3");
  // cuda's registrars: Add comes before its first registration (Conv, line 33); Diag after Softmax (34).
  EXPECT_EQ(el400_at(doc, "cuda", "OpType_Add"), "backends/cuda/cuda_ops.cpp:33:46");
  EXPECT_EQ(el400_at(doc, "cuda", "OpType_Diag"), "backends/cuda/cuda_ops.cpp:34:49");
}

// A backend that registers each op beside its creator, a file per op, has no place for a new one: its missing
// ops point at their declaration, the enumerator, not at whichever of its files sorts first.
TEST_F(RegistrationPlaces, AMissingOpOfABackendWithAFilePerOpPointsAtTheEnumerator) {
  const fs::path dir = copy("registrations");
  replace(dir / ".emberlint.json", R"("npu": ["backends/npu/**"])",
          R"("npu": ["backends/npu/**"], "dsp": ["backends/dsp/**"])");
  replace(dir / ".emberlint.json", R"("npu": [{"table")",
          R"("dsp": [{"call": "dsp_register", "op": 0, "creator": 1}], "npu": [{"table")");
  const std::string head =
      "#include \"forge/backend.hpp\"\n\nnamespace forge {\nbool dsp_register(OpType type, Creator* "
      "creator);\n";
  write_file(
      dir / "backends/dsp/dsp_add.cpp",
      head +
          "class DspAdd : public Creator {\n public:\n  Execution* onCreate(const Op&) const override;\n};\n"
          "static const bool g_add = dsp_register(OpType_Add, new DspAdd);\n}  // namespace forge\n");
  write_file(
      dir / "backends/dsp/dsp_relu.cpp",
      head +
          "class DspRelu : public Creator {\n public:\n  Execution* onCreate(const Op&) const override;\n};\n"
          "static const bool g_relu = dsp_register(OpType_Relu, new DspRelu);\n}  // namespace forge\n");
  const json doc = analyze(dir, "");
  const std::string header = read_file(dir / "include/forge/op_types_generated.h");
  EXPECT_EQ(el400_at(doc, "dsp", "OpType_Sub"),
            "include/forge/op_types_generated.h:" + line_column(header, "OpType_Sub"));
  EXPECT_EQ(el400_at(doc, "dsp", "OpType_Diag"),
            "include/forge/op_types_generated.h:" + line_column(header, "OpType_Diag "));
  EXPECT_EQ(el400_at(doc, "dsp", "OpType_Add"), "");  // registered, natively
  // The registries of the other backends are unchanged by the new one.
  EXPECT_EQ(el400_at(doc, "npu", "OpType_Sub"), "backends/npu/npu_ops.cpp:20:5");
}

// With a list of ops (ops_interface.ops), a backend without a registry gets the op's entry in the list: the
// config's line and column of its name. gpu registers Add and MatMul in one file, which is its registry.
TEST_F(RegistrationPlaces, AMissingOpOfAListPointsAtItsEntryInTheConfig) {
  const fs::path dir = copy("registrations_strings");
  replace(
      dir / ".emberlint.json", R"("registrations": {)",
      "\"ops\": [\"Add\", \"Gelu\", \"MatMul\",\n            \"Relu\", \"Tanh\"],\n    \"registrations\": {");
  const json doc = analyze(dir, "");
  // cpu registers two ops in each of its two files: no registry.
  EXPECT_EQ(el400_at(doc, "cpu", "Tanh"),
            ".emberlint.json:" + line_column(read_file(dir / ".emberlint.json"), "Tanh\"]"));
  EXPECT_EQ(el400_at(doc, "gpu", "Tanh"), "kernels/math_kernels.cpp:27:1");  // after MatMul's registration
  EXPECT_EQ(el400_at(doc, "gpu", "Relu"), "kernels/math_kernels.cpp:27:1");
}

// A backend none of whose sources is in the compile database (a build configured without it) can show no
// registration: the warning says so and names the sources, instead of blaming the pattern with unrelated
// callee names (headers of the backend that other units include are parsed: their calls were those names),
// and its cells are unknown. A source of a folder it shares with another backend is no unit of its own. A
// backend in the database whose pattern matches nothing still gets the nearest names.
TEST_F(RegistrationPlaces, ABackendLeftOutOfTheBuildIsWarnedAboutAsSuch) {
  const fs::path dir = copy("registrations");
  // A folder cuda shares with vk, whose source the database compiles (for vk): no unit of cuda's own.
  replace(dir / ".emberlint.json", R"("vk": ["backends/vk/**"])",
          R"("vk": ["backends/vk/**", "backends/gpu/**"])");
  replace(dir / ".emberlint.json", R"("cuda": ["backends/cuda/**"])",
          R"("cuda": ["backends/cuda/**", "backends/gpu/**"])");
  write_file(dir / "backends/gpu/staging.cpp",
             "#include \"forge/backend.hpp\"\nint staging_slots() { return 4; }\n");
  json db = json::array();
  for (const auto& e : fs::recursive_directory_iterator(dir / "backends")) {
    if (e.path().extension() != ".cpp" || e.path().parent_path().filename() == "cuda") continue;
    db.push_back({{"directory", dir.string()},
                  {"file", e.path().string()},
                  {"arguments",
                   {"c++", "-std=c++20", "-I" + (dir / "include").string(),
                    "-I" + (dir / "backends").string(), "-c", e.path().string()}}});
  }
  write_file(dir / "build/compile_commands.json", db.dump());
  Outcome o;
  const json doc = analyze(dir, "-p build", &o);
  const std::string warning =
      "ops_interface.registrations.cuda: backend 'cuda' has no unit to read its registrations from: its only "
      "source is not in the compile database (backends/cuda/cuda_ops.cpp): configure the build with the "
      "backend, or state its own in layers.backends.cuda.compile_database";
  EXPECT_NE(o.err.find("warning: " + warning), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("nearest"), std::string::npos) << o.err;
  EXPECT_NE(std::find(doc.at("warnings").begin(), doc.at("warnings").end(), json(warning)),
            doc.at("warnings").end())
      << doc.at("warnings").dump(2);
  for (const auto& op : doc.at("ops")) {  // the code says nothing of cuda: every cell is open
    EXPECT_EQ(op.at("cells").at("cuda").at("status"), "unknown") << op.at("id");
    EXPECT_NE(op.at("cells").at("cuda").at("reason").get<std::string>().find("in the compile database"),
              std::string::npos)
        << op.at("cells").at("cuda").dump();
  }
  // The same pattern mistyped in a backend the build has: the nearest names, as before.
  replace(dir / ".emberlint.json", R"("vk": [{"call": "addCreator")", R"("vk": [{"call": "addCreater")");
  Outcome typo;
  analyze(dir, "-p build", &typo);
  EXPECT_NE(typo.err.find("ops_interface.registrations.vk[0]: no call 'addCreater' in the folders of backend "
                          "'vk'; nearest: addCreator"),
            std::string::npos)
      << typo.err;
}

}  // namespace analyze_test
