// The inventory models on small code bases of our own, one per shape (tests/analyze/shapes/<model>/): each
// matrix is checked cell by cell from the JSON report against expectations written by hand from the sources,
// every report format names the model, and a config that names what the code does not have is exit 2.
#include <sys/stat.h>

#include <regex>

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
  // A copy of the functions shape whose gpu backend defines the float calc_scale_gpu under `condition`
  // (an #if line), followed by `more`.
  fs::path functions_with_gpu_float_scale(const std::string& name, const std::string& condition,
                                          const std::string& more) {
    const fs::path dir = scratch_ / name;
    fs::copy(kShapes / "functions", dir, fs::copy_options::recursive);
    write_file(dir / "backends/gpu/gpu.cpp",
               read_file(dir / "backends/gpu/gpu.cpp") + "\n" + condition +
                   "\nvoid calc_scale_gpu(const float* a, float factor, float* out, int n) {\n"
                   "  for (int i = 0; i < n; ++i) out[i] = a[i] * factor;\n}\n#endif\n" +
                   more);
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
      // planned: a backend folder without a source. lite: add, and a `default: return false;` that declines.
      // gpu: relu returns before the switches (its predicate accepts it: unknown); a first switch handles
      // softmax with an empty default `{ } break;` that declines the rest; add in the second switch.
      {"TINY_OP_ADD",
       {{"host", "native"},
        {"accel", "native"},
        {"remote", "unknown"},
        {"planned", "unknown"},
        {"lite", "native"},
        {"gpu", "native"}}},
      {"TINY_OP_SUB",
       {{"host", "native"},
        {"accel", "missing"},
        {"remote", "unknown"},
        {"planned", "unknown"},
        {"lite", "missing"},
        {"gpu", "missing"}}},
      {"TINY_OP_MUL",
       {{"host", "native"},
        {"accel", "native"},
        {"remote", "unknown"},
        {"planned", "unknown"},
        {"lite", "missing"},
        {"gpu", "missing"}}},
      {"TINY_OP_DIV",
       {{"host", "native"},
        {"accel", "stub"},
        {"remote", "unknown"},
        {"planned", "unknown"},
        {"lite", "missing"},
        {"gpu", "missing"}}},
      {"TINY_OP_RELU",
       {{"host", "native"},
        {"accel", "missing"},
        {"remote", "native"},
        {"planned", "unknown"},
        {"lite", "missing"},
        {"gpu", "unknown"}}},
      {"TINY_OP_SOFTMAX",
       {{"host", "stub"},
        {"accel", "missing"},
        {"remote", "unknown"},
        {"planned", "unknown"},
        {"lite", "missing"},
        {"gpu", "native"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  const json& mul = cell(doc, "TINY_OP_MUL", "host");
  EXPECT_EQ(mul.at("location"), json({{"file", "backends/host/host.c"}, {"line", 17}, {"column", 5}}));
  EXPECT_EQ(mul.at("signature"), "case TINY_OP_MUL in tiny_host_compute");
  EXPECT_EQ(cell(doc, "TINY_OP_SOFTMAX", "host").at("reason"), "aborts in its case of tiny_host_compute");
  EXPECT_EQ(
      cell(doc, "TINY_OP_DIV", "accel").at("reason"),
      "is dispatched, but the predicate returns false (tiny_accel_supports at backends/accel/accel.c:32)");
  EXPECT_EQ(cell(doc, "TINY_OP_SUB", "accel").at("reason"),
            "no case in the dispatch functions (their default: aborts); the predicate returns false "
            "(tiny_accel_supports at backends/accel/accel.c:34)");
  EXPECT_EQ(cell(doc, "TINY_OP_RELU", "accel").at("reason"),
            "no case in the dispatch functions (their default: aborts); the predicate returns false "
            "(default: of tiny_accel_supports at backends/accel/accel.c:36)");
  EXPECT_EQ(cell(doc, "TINY_OP_ADD", "remote").at("reason"),
            "only the default: branch of tiny_remote_compute handles it");
  EXPECT_EQ(cell(doc, "TINY_OP_ADD", "planned").at("reason"), "no source of this backend was parsed");
  EXPECT_EQ(cell(doc, "TINY_OP_RELU", "gpu").at("reason"),
            "no case in the dispatch functions, but the predicate accepts it (tiny_gpu_supports at "
            "backends/gpu/gpu.c:36): handled before the switch, or a predicate that claims too much");
  EXPECT_EQ(cell(doc, "TINY_OP_MUL", "gpu").at("reason"),
            "no case in the dispatch functions (their default: aborts); the predicate returns false "
            "(default: of tiny_gpu_supports at backends/gpu/gpu.c:40)");
  EXPECT_EQ(cell(doc, "TINY_OP_MUL", "lite").at("reason"),
            "no case in the dispatch functions (their default: returns 0)");
  // 'planned' has no source yet: one warning for it, not one per unmatched pattern with no candidate.
  EXPECT_EQ(doc.at("warnings"),
            json({"ops_interface: no source of backend 'planned' was parsed, so its dispatch and supports "
                  "functions could not be read; each cell says why it is unknown"}));
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

// ---- op_classes_methods ----------------------------------------------------------------------------------

TEST_F(Shapes, OpClassesMethodsMatrixIsExact) {
  json doc = report("op_classes_methods");
  EXPECT_EQ(doc.at("model"), "op_classes_methods");
  EXPECT_EQ(doc.at("interface"), "kiln::Primitive");
  EXPECT_EQ(doc.at("categories"), json({"primitives"}));
  // The abstract Unary is no op; metal and vulkan share backends/device_common (Add::eval_device);
  // no_device's definitions all come from one macro that only throws.
  const Matrix expected = {
      {"Add", {{"host", "native"}, {"metal", "native"}, {"vulkan", "native"}, {"no_device", "stub"}}},
      {"Exp", {{"host", "native"}, {"metal", "fallback"}, {"vulkan", "missing"}, {"no_device", "stub"}}},
      {"Negate", {{"host", "native"}, {"metal", "native"}, {"vulkan", "native"}, {"no_device", "stub"}}},
      {"Reduce", {{"host", "native"}, {"metal", "native"}, {"vulkan", "missing"}, {"no_device", "stub"}}},
      {"Sort", {{"host", "stub"}, {"metal", "missing"}, {"vulkan", "missing"}, {"no_device", "stub"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  const json& add = cell(doc, "Add", "vulkan");
  EXPECT_EQ(add.at("location").at("file"), "backends/device_common/shared.cpp");
  EXPECT_EQ(without_scope(add.at("signature"), "kiln"),
            "void eval_device(const std::vector<Array> &inputs, Array &out)");
  EXPECT_EQ(cell(doc, "Exp", "metal").at("reason"), "delegates: calls kiln::host::run");
  EXPECT_EQ(cell(doc, "Reduce", "no_device").at("location"),
            json({{"file", "backends/no_device/primitives.cpp"}, {"line", 16}, {"column", 1}}));
  EXPECT_EQ(cell(doc, "Sort", "no_device").at("reason"), "throws \"Sort has no device implementation\"");
  EXPECT_EQ(cell(doc, "Sort", "metal").at("reason"),
            "no definition of kiln::Sort::eval_device in the backend's folders");
}

TEST_F(Shapes, OpClassesMethodsErrorsNameTheConfigPath) {
  Outcome base = run_in(edited("op_classes_methods", "\"kiln::Primitive\"", "\"kiln::Primitve\""),
                        emberlint() + " analyze", scratch_);
  EXPECT_EQ(base.exit_code, 2);
  EXPECT_NE(
      base.err.find(
          "ops_interface.base: no class 'kiln::Primitve' is declared in the headers that declare the ops "
          "(include/kiln/primitives.hpp); "
          "nearest: kiln::Primitive"),
      std::string::npos)
      << base.err;
  Outcome method =
      run_in(edited("op_classes_methods", "\"vulkan\": [\"eval_device\"]", "\"vulkan\": [\"eval_gpu\"]"),
             emberlint() + " analyze", scratch_);
  EXPECT_EQ(method.exit_code, 2);
  EXPECT_NE(method.err.find("ops_interface.methods.vulkan[0]: no class declares a method 'eval_gpu'"),
            std::string::npos)
      << method.err;
}

// ---- op_classes_subclasses -------------------------------------------------------------------------------

TEST_F(Shapes, OpClassesSubclassesMatrixIsExact) {
  json doc = report("op_classes_subclasses");
  EXPECT_EQ(doc.at("model"), "op_classes_subclasses");
  EXPECT_EQ(doc.at("interface"), "loom::Layer");
  EXPECT_EQ(doc.at("categories"), json({"concat", "conv", "pool", "relu"}));
  // Concat_x86 overrides the multi-input overload with a throw; ReLU_gpu overrides neither method (the
  // op's own forward_inplace runs); arm has no source yet.
  const Matrix expected = {
      {"Concat", {{"x86", "stub"}, {"gpu", "missing"}, {"arm", "unknown"}}},
      {"Conv", {{"x86", "native"}, {"gpu", "native"}, {"arm", "unknown"}}},
      {"Pool", {{"x86", "missing"}, {"gpu", "missing"}, {"arm", "unknown"}}},
      {"ReLU", {{"x86", "native"}, {"gpu", "fallback"}, {"arm", "unknown"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  EXPECT_EQ(
      cell(doc, "ReLU", "gpu").at("reason"),
      "loom::ReLU_gpu overrides none of forward, forward_inplace: loom::ReLU's own implementation runs");
  const json& conv = cell(doc, "Conv", "x86");
  EXPECT_EQ(conv.at("location").at("file"), "src/layer/x86/conv_x86.cpp");
  EXPECT_EQ(without_scope(conv.at("signature"), "loom"),
            "class Conv_x86 : Conv (int forward(const Blob &bottom, Blob &top, const Options &) const)");
  EXPECT_EQ(cell(doc, "Concat", "x86").at("reason"), "throws \"Concat_x86::forward: not implemented\"");
  EXPECT_EQ(cell(doc, "Pool", "x86").at("reason"), "no subclass in the backend's folders");
  EXPECT_EQ(cell(doc, "Pool", "arm").at("reason"), "no source of this backend was parsed");
}

// A backend of another architecture: its source defines the op only when built for that target (LOOM_ARM82,
// as the arm build defines it). With the x86 flags of the run's database (or the config's) the definition
// is preprocessed away and the cell is unknown; the backend's own compile flags, or its own cross-build
// database, parse it as the arm build compiles it.
TEST_F(Shapes, ABackendOfAnotherArchitectureIsParsedWithItsOwnFlagsOrDatabase) {
  const std::string arm_plain = R"("arm": ["src/layer/arm/**"])";
  auto with_arm_source = [&](const std::string& arm_layer) {
    fs::path dir = edited("op_classes_subclasses", arm_plain, arm_layer);
    write_file(dir / "src/layer/arm/relu_arm.h",
               "#pragma once\n#include \"../relu.h\"\nnamespace loom {\n#if defined(LOOM_ARM82)\n"
               "class ReLU_arm : public ReLU {\n public:\n"
               "  int forward_inplace(Blob& blob, const Options& opt) const override;\n};\n#endif\n}\n");
    write_file(dir / "src/layer/arm/relu_arm.cpp",
               "#include \"relu_arm.h\"\nnamespace loom {\n#if defined(LOOM_ARM82)\n"
               "int ReLU_arm::forward_inplace(Blob& blob, const Options&) const {\n"
               "  for (float& x : blob.data) x = x > 0 ? x : 0;\n  return 0;\n}\n#endif\n}\n");
    return dir;
  };
  auto relu_arm = [&](const fs::path& dir, const std::string& args) {
    Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json " + args, scratch_);
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.err;
    if (o.exit_code > 1) return json::object();
    const json doc = json::parse(o.out);
    return json(cell(doc, "ReLU", "arm"));
  };
  // The config's flags (x86): the definition sits behind a disabled #if.
  json plain = relu_arm(with_arm_source(arm_plain), "");
  EXPECT_EQ(plain.value("status", ""), "unknown") << plain.dump();
  // The backend states its flags.
  const fs::path flagged = with_arm_source(
      R"("arm": {"paths": ["src/layer/arm/**"], "compile_flags": ["-std=c++20", "-Isrc", "-DLOOM_ARM82=1"]})");
  json stated = relu_arm(flagged, "");
  EXPECT_EQ(stated.value("status", ""), "native") << stated.dump();
  EXPECT_EQ(stated.at("location").at("file"), "src/layer/arm/relu_arm.cpp");
  // Databases: the run's compiles every source for x86; the arm build's compiles the arm source for arm.
  auto database = [](const fs::path& dir, const std::vector<std::string>& files, const std::string& target) {
    json db = json::array();
    for (const auto& file : files) {
      json args = {"c++", "-std=c++20", "-I" + (dir / "src").string()};
      if (!target.empty()) args.push_back("-D" + target);
      args.push_back("-c");
      args.push_back((dir / file).string());
      db.push_back({{"directory", dir.string()}, {"file", (dir / file).string()}, {"arguments", args}});
    }
    return db.dump();
  };
  const std::vector<std::string> sources = {"src/layer/relu.cpp",         "src/layer/x86/relu_x86.cpp",
                                            "src/layer/x86/conv_x86.cpp", "src/layer/x86/concat_x86.cpp",
                                            "src/layer/gpu/conv_gpu.cpp", "src/layer/gpu/relu_gpu.cpp",
                                            "src/layer/arm/relu_arm.cpp"};
  for (const bool own_database : {false, true}) {
    const fs::path dir = with_arm_source(
        own_database ? R"("arm": {"paths": ["src/layer/arm/**"], "compile_database": "build-arm"})"
                     : arm_plain);
    write_file(dir / "build/compile_commands.json", database(dir, sources, ""));
    write_file(dir / "build-arm/compile_commands.json",
               database(dir, {"src/layer/arm/relu_arm.cpp", "src/layer/relu.cpp"}, "LOOM_ARM82=1"));
    json c = relu_arm(dir, "-p build");
    EXPECT_EQ(c.value("status", ""), own_database ? "native" : "unknown") << c.dump();
  }
  // A backend database that cannot be read, or compiles none of the backend's files, is the config's error.
  const fs::path broken =
      with_arm_source(R"("arm": {"paths": ["src/layer/arm/**"], "compile_database": "no-such-build"})");
  Outcome o = run_in(broken, emberlint() + " analyze --no-cache", scratch_);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("layers.backends.arm.compile_database: "), std::string::npos) << o.err;
  write_file(broken / "no-such-build/compile_commands.json", database(broken, {"src/layer/relu.cpp"}, ""));
  o = run_in(broken, emberlint() + " analyze --no-cache", scratch_);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("compiles none of the backend's files"), std::string::npos) << o.err;
}

// With a compile database, a backend source the database does not compile is not parsed unless
// ops_interface.guess_flags allows guessing its flags (ggml's 186 CUDA sources on a machine without CUDA cost
// minutes and said only "guessed"); the cells of the ops it names are unknown and say why, the rest of the
// backend is judged as usual.
TEST_F(Shapes, ASourceOutsideTheDatabaseIsParsedOnlyWhereGuessingIsAllowed) {
  auto run_with = [&](const std::string& guess) {
    const fs::path dir = edited("op_classes_subclasses", R"("methods")", guess + R"("methods")");
    json db = json::array();
    for (const char* file :
         {"src/layer/relu.cpp", "src/layer/x86/relu_x86.cpp", "src/layer/x86/concat_x86.cpp",
          "src/layer/gpu/conv_gpu.cpp", "src/layer/gpu/relu_gpu.cpp"}) {
      json args = {"c++", "-std=c++20", "-I" + (dir / "src").string(), "-c", (dir / file).string()};
      db.push_back({{"directory", dir.string()}, {"file", (dir / file).string()}, {"arguments", args}});
    }
    write_file(dir / "build/compile_commands.json", db.dump());
    Outcome o = run_in(dir, emberlint() + " analyze -p build --no-cache --format json", scratch_);
    EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.out << o.err;
    return o.exit_code > 1 ? json::object() : json::parse(o.out);
  };
  json doc = run_with("");
  const json& conv = cell(doc, "Conv", "x86");
  EXPECT_EQ(conv.at("status"), "unknown") << conv.dump();
  EXPECT_EQ(
      conv.at("reason"),
      "src/layer/x86/conv_x86.cpp is not in the compile database (not parsed; ops_interface.guess_flags "
      "may allow guessing its flags) and names it: the op may be there");
  EXPECT_EQ(cell(doc, "ReLU", "x86").at("status"), "native");   // compiled by the database
  EXPECT_EQ(cell(doc, "Pool", "x86").at("status"), "missing");  // no source names it
  const int analyzed = doc.at("files_analyzed");                // the database's units and the op headers
  // Allowed: parsed with its nearest entry's flags, and said so.
  doc = run_with(R"("guess_flags": ["src/layer/x86/**"], )");
  const json& guessed = cell(doc, "Conv", "x86");
  EXPECT_EQ(guessed.at("status"), "unknown") << guessed.dump();
  EXPECT_EQ(guessed.at("reason").get<std::string>().rfind("would be native", 0), 0u) << guessed.dump();
  EXPECT_EQ(doc.at("files_analyzed"), analyzed + 1);
  // A wrong value is the config's error, with its path.
  const fs::path bad = edited("op_classes_subclasses", R"("methods")", R"("guess_flags": 3, "methods")");
  Outcome o = run_in(bad, emberlint() + " analyze --no-cache", scratch_);
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("ops_interface.guess_flags"), std::string::npos) << o.err;
}

// A source of a backend that does not parse (or parses with guessed flags) leaves unknown only the cells it
// could define: those of the ops it names. An op no such source names is missing, with its EL400.
TEST_F(Shapes, AnUnparsedSourceMakesUnknownOnlyTheOpsItNames) {
  const fs::path dir = edited("op_classes_subclasses", R"("methods")", R"("methods")");
  write_file(dir / "src/layer/x86/broken_x86.cpp", "#include \"../relu.h\"\nint broken( {\n");
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_EQ(o.exit_code, 3) << o.out << o.err;  // the broken source is an unexpected failure
  json doc = json::parse(o.out);
  EXPECT_EQ(cell(doc, "Pool", "x86").at("status"), "missing") << cell(doc, "Pool", "x86").dump();
  EXPECT_EQ(cell(doc, "Conv", "x86").at("status"), "native");
  // The same broken source naming Pool (a subclass it meant to define, whose body did not parse) leaves that
  // cell open.
  write_file(dir / "src/layer/x86/broken_x86.cpp",
             "#include \"../pool.h\"\nnamespace loom {\nclass Pool_x86 : public Pool {\n int forward( {\n");
  o = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_EQ(o.exit_code, 3) << o.out << o.err;
  doc = json::parse(o.out);
  const json& pool = cell(doc, "Pool", "x86");
  EXPECT_EQ(pool.at("status"), "unknown") << pool.dump();
  EXPECT_FALSE(pool.at("reason").get<std::string>().empty());
  EXPECT_EQ(cell(doc, "Concat", "gpu").at("status"), "missing");  // another backend: untouched
}

// ---- functions: the global namespace and name patterns ---------------------------------------------------

TEST_F(Shapes, FunctionsInTheGlobalNamespaceWithNamePatternsAndOverloads) {
  json doc = report("functions");
  EXPECT_EQ(doc.at("model"), "functions");
  EXPECT_EQ(doc.at("interface"), "the global namespace");
  // calc_<op> in the header, calc_<op>_<backend> in each backend; the two calc_scale overloads are two ops,
  // matched by their parameter types (gpu has the double one only).
  const Matrix expected = {
      {"add", {{"cpu", "native"}, {"gpu", "native"}}},
      {"scale(const float *, float, float *, int)", {{"cpu", "native"}, {"gpu", "missing"}}},
      {"scale(const double *, double, double *, int)", {{"cpu", "native"}, {"gpu", "native"}}},
      {"sum", {{"cpu", "native"}, {"gpu", "stub"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  const json& scale = cell(doc, "scale(const double *, double, double *, int)", "gpu");
  EXPECT_EQ(scale.at("signature"), "void calc_scale_gpu(const double *a, double factor, double *out, int n)");
  EXPECT_EQ(scale.at("location").at("line"), 18);
  EXPECT_TRUE(scale.at("mismatches").empty());
  EXPECT_EQ(cell(doc, "scale(const float *, float, float *, int)", "gpu").at("reason"),
            "no function calc_scale_gpu(const float *, float, float *, int)");
  ASSERT_EQ(doc.at("unexposed").size(), 1u);
  EXPECT_EQ(doc.at("unexposed").at(0).at("name"), "calc_warmup_gpu");
}

// A backend source the compile database compiles twice (a second build with GPU_FLOAT_SCALE defined) is two
// units: the float overload that only the second command compiles is found, not left missing.
TEST_F(Shapes, FunctionsFromEveryCommandOfASourceCompiledTwice) {
  const fs::path dir = functions_with_gpu_float_scale("twice", "#ifdef GPU_FLOAT_SCALE", "");
  json db = json::array();
  auto entry = [&](const std::string& file, const std::vector<std::string>& defines) {
    json args = {"c++", "-std=c++20", "-I" + (dir / "include").string()};
    for (const auto& d : defines) args.push_back(d);
    args.push_back("-c");
    args.push_back((dir / file).string());
    db.push_back({{"directory", dir.string()}, {"file", (dir / file).string()}, {"arguments", args}});
  };
  entry("backends/cpu/cpu.cpp", {});
  entry("backends/gpu/gpu.cpp", {});
  entry("backends/gpu/gpu.cpp", {"-DGPU_FLOAT_SCALE"});
  write_file(dir / "build/compile_commands.json", db.dump());
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache -p build --format json", scratch_);
  ASSERT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.err;
  json doc = json::parse(o.out);
  EXPECT_EQ(cell(doc, "scale(const float *, float, float *, int)", "gpu").at("status"), "native") << o.out;
  EXPECT_EQ(cell(doc, "scale(const double *, double, double *, int)", "gpu").at("status"), "native");
  EXPECT_EQ(doc.at("files_analyzed"), 4) << "three units, two of one source, and the header of the ops";
}

// Function templates are ops: declared in the frontend namespace, implemented as templates per backend
// namespace (explicit and macro-generated instantiations), matched with their types compared modulo each
// side's own namespace (cpu::Array<T> and api::Array<T> are the same parameter).
TEST_F(Shapes, FunctionTemplatesAreOpsComparedModuloTheBackendNamespace) {
  json doc = report("function_templates");
  const Matrix expected = {
      {"fill", {{"cpu", "native"}, {"gpu", "native"}}},
      {"total", {{"cpu", "native"}, {"gpu", "stub"}}},
      {"reset", {{"cpu", "native"}, {"gpu", "missing"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  for (const char* backend : {"cpu", "gpu"}) {
    EXPECT_TRUE(cell(doc, "fill", backend).at("mismatches").empty()) << cell(doc, "fill", backend).dump();
  }
  EXPECT_TRUE(cell(doc, "total", "cpu").at("mismatches").empty()) << cell(doc, "total", "cpu").dump();
  EXPECT_TRUE(doc.at("diagnostics").is_array());
  for (const auto& d : doc.at("diagnostics")) EXPECT_NE(d.at("code"), "EL401") << d.dump();
}

// An implementation behind a disabled #if may exist under other flags: the cell is unknown, with the file,
// not missing. A disabled region that does not name the op changes nothing.
TEST_F(Shapes, AnImplementationBehindADisabledIfIsUnknown) {
  const fs::path dir = functions_with_gpu_float_scale("disabled", "#if defined(GPU_FLOAT_SCALE)",
                                                      "#ifdef GPU_TRACE\nvoid calc_trace_gpu();\n#endif\n");
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.err;
  json doc = json::parse(o.out);
  const json& scale = cell(doc, "scale(const float *, float, float *, int)", "gpu");
  EXPECT_EQ(scale.at("status"), "unknown") << scale.dump();
  EXPECT_EQ(scale.at("reason"),
            "a disabled #if in backends/gpu/gpu.cpp names it: it may be defined under other flags");
  EXPECT_EQ(cell(doc, "sum", "gpu").at("status"), "stub");
  EXPECT_EQ(cell(doc, "add", "gpu").at("status"), "native");
}

// A unit the build compiles with -mavx2 defines __AVX2__ (asked of the command's compiler, as check asks):
// its code under `#ifdef __AVX2__` parses, analyze reports no failure where check reports none (exit 3
// before, "no member named 'width' in 'Lanes'"). x86 compilers only: the flag is theirs.
TEST_F(Shapes, AnalyzeParsesAUnitWithTheInstructionSetMacrosItsCompilerDefines) {
#if !defined(__x86_64__) && !defined(__i386__)
  GTEST_SKIP() << "-mavx2 is an x86 flag";
#endif
  const fs::path dir = scratch_ / "isa";
  fs::copy(kShapes / "registrations", dir, fs::copy_options::recursive);
  write_file(dir / "backends/host/host_lanes.cpp",
             "// A helper built with -mavx2: its lanes are the vector ones only under __AVX2__.\n"
             "#ifdef __AVX2__\nstruct Lanes {\n  static int width() { return 8; }\n};\n"
             "#else\nstruct Lanes {};\n#endif\nint host_lane_width() { return Lanes::width(); }\n");
  json db = json::array();
  for (const auto& e : fs::recursive_directory_iterator(dir / "backends")) {
    if (e.path().extension() != ".cpp") continue;
    json args = {"c++", "-std=c++20", "-I" + (dir / "include").string(), "-I" + (dir / "backends").string()};
    if (e.path().filename() == "host_lanes.cpp") args.push_back("-mavx2");
    args.push_back("-c");
    args.push_back(e.path().string());
    db.push_back({{"directory", dir.string()}, {"file", e.path().string()}, {"arguments", args}});
  }
  write_file(dir / "build/compile_commands.json", db.dump());
  Outcome checked =
      run_in(dir, emberlint() + " check --no-cache -p build backends/host/host_lanes.cpp", scratch_);
  EXPECT_TRUE(checked.exit_code == 0 || checked.exit_code == 1) << checked.out << checked.err;
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache -p build --format json", scratch_);
  ASSERT_TRUE(o.exit_code == 0 || o.exit_code == 1) << o.out << o.err;
  const json doc = json::parse(o.out);
  EXPECT_EQ(doc.at("failures"), json::array()) << doc.at("failures").dump(2);
  EXPECT_EQ(doc.at("files_analyzed"), db.size());
  EXPECT_EQ(cell(doc, "OpType_Add", "host").at("status"), "native");
  // --no-query-driver turns the query off in both commands alike: neither sees __AVX2__, both fail the unit.
  Outcome unchecked =
      run_in(dir, emberlint() + " check --no-cache --no-query-driver -p build backends/host/host_lanes.cpp",
             scratch_);
  EXPECT_EQ(unchecked.exit_code, 3) << unchecked.out << unchecked.err;
  Outcome off =
      run_in(dir, emberlint() + " analyze --no-cache --no-query-driver -p build --format json", scratch_);
  ASSERT_EQ(off.exit_code, 3) << off.out << off.err;
  const json without = json::parse(off.out);
  ASSERT_EQ(without.at("failures").size(), 1u) << without.at("failures").dump(2);
  EXPECT_EQ(without.at("failures").at(0).at("file"), "backends/host/host_lanes.cpp")
      << without.at("failures").dump(2);
  EXPECT_NE(without.at("failures").dump().find("no member named 'width'"), std::string::npos)
      << without.at("failures").dump(2);
  EXPECT_EQ(cell(without, "OpType_Add", "host").at("status"), "native");
}

// ---- registrations ---------------------------------------------------------------------------------------

// Four backends, four forms: a macro (host, with one direct addCreator call besides), addCreator calls (vk),
// a static registrar object whose template argument is the creator (cuda), a table of {op, function} (npu).
TEST_F(Shapes, RegistrationsMatrixIsExact) {
  json doc = report("registrations");
  EXPECT_EQ(doc.at("model"), "registrations");
  EXPECT_EQ(doc.at("interface"), "forge::OpType");
  EXPECT_EQ(doc.at("categories"), json({"op_types_generated"}));
  // host: Sub's creator returns null, Conv's throws, Relu's returns null only for some arities, Diag is
  // registered by a direct call. vk: Mul's creator delegates to the host; a loop registers ops it computes,
  // so vk's other cells are unknown. cuda: Softmax's creator throws. npu: Diag's function returns null.
  const Matrix expected = {
      {"OpType_Add", {{"host", "native"}, {"vk", "native"}, {"cuda", "missing"}, {"npu", "native"}}},
      {"OpType_Sub", {{"host", "stub"}, {"vk", "unknown"}, {"cuda", "missing"}, {"npu", "missing"}}},
      {"OpType_Mul", {{"host", "missing"}, {"vk", "fallback"}, {"cuda", "missing"}, {"npu", "missing"}}},
      {"OpType_Conv", {{"host", "stub"}, {"vk", "unknown"}, {"cuda", "native"}, {"npu", "missing"}}},
      {"OpType_Relu", {{"host", "native"}, {"vk", "unknown"}, {"cuda", "missing"}, {"npu", "missing"}}},
      {"OpType_Softmax", {{"host", "missing"}, {"vk", "unknown"}, {"cuda", "stub"}, {"npu", "missing"}}},
      {"OpType_Diag", {{"host", "native"}, {"vk", "unknown"}, {"cuda", "missing"}, {"npu", "stub"}}},
      {"OpType_Diag_MaskInf",
       {{"host", "missing"}, {"vk", "unknown"}, {"cuda", "missing"}, {"npu", "native"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  const json& add = cell(doc, "OpType_Add", "host");
  EXPECT_EQ(add.at("location"), json({{"file", "backends/host/host_ops.cpp"}, {"line", 16}, {"column", 1}}));
  EXPECT_EQ(add.at("signature"), "REGISTER_HOST_OP_CREATOR(HostAddCreator, OpType_Add)");
  EXPECT_EQ(cell(doc, "OpType_Sub", "host").at("reason"),
            "returns null (creator forge::HostSubCreator::onCreate)");
  EXPECT_EQ(cell(doc, "OpType_Conv", "host").at("reason"),
            "throws \"Conv: not implemented on the host\" (creator forge::HostConvCreator::onCreate)");
  EXPECT_EQ(cell(doc, "OpType_Mul", "vk").at("reason"),
            "delegates: calls forge::host::make (creator forge::VkMulCreator::onCreate)");
  EXPECT_EQ(cell(doc, "OpType_Diag", "npu").at("reason"), "returns null (creator forge::npu_diag)");
  EXPECT_EQ(cell(doc, "OpType_Diag", "npu").at("location").at("line"), 21);
  EXPECT_EQ(cell(doc, "OpType_Softmax", "cuda").at("signature"), "CudaCreatorRegistrar(OpType_Softmax)");
  EXPECT_EQ(
      cell(doc, "OpType_Relu", "vk").at("reason"),
      "backends/vk/vk_ops.cpp:34 registers an op it does not name (`static_cast<OpType>(t)`): it may be "
      "this one");
  EXPECT_EQ(cell(doc, "OpType_Sub", "npu").at("reason"), "no registration of it in the backend's folders");
  EXPECT_EQ(doc.at("warnings"),
            json({"ops_interface.registrations: backend 'vk' registers at backends/vk/vk_ops.cpp:34 an op it "
                  "does not name: `static_cast<OpType>(t)` in addCreator(static_cast<OpType>(t), new "
                  "VkUnaryCreator)"}));
}

// String-keyed, with a device argument: one folder serves both backends, the device says whose a
// registration is; the op set is every registered name, or the configured list.
TEST_F(Shapes, RegistrationsStringKeyedWithADevice) {
  json doc = report("registrations_strings");
  EXPECT_EQ(doc.at("interface"), "the registrations");
  const Matrix expected = {
      {"Add", {{"cpu", "native"}, {"gpu", "native"}}},
      {"Gelu", {{"cpu", "fallback"}, {"gpu", "missing"}}},
      {"MatMul", {{"cpu", "native"}, {"gpu", "stub"}}},
      {"Relu", {{"cpu", "native"}, {"gpu", "missing"}}},
      {"Softmax", {{"cpu", "missing"}, {"gpu", "native"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  EXPECT_EQ(cell(doc, "Gelu", "cpu").at("reason"),
            "composite of frontend ops: calls kern::composite::gelu (creator kern::GeluOp::compute)");
  EXPECT_EQ(cell(doc, "MatMul", "gpu").at("signature"), "KERN_REGISTER(\"MatMul\", DEVICE_GPU, MatMulGpuOp)");
  EXPECT_TRUE(doc.at("warnings").empty()) << doc.at("warnings").dump();
  // A list of ops: Tanh is registered nowhere; Softmax, registered but not listed, is warned about.
  const fs::path listed = edited("registrations_strings", R"("registrations": {)",
                                 R"("ops": ["Add", "Gelu", "MatMul", "Relu", "Tanh"], "registrations": {)");
  Outcome o = run_in(listed, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_EQ(o.exit_code, 1) << o.err;
  doc = json::parse(o.out);
  EXPECT_EQ(ids(doc), (std::vector<std::string>{"Add", "Gelu", "MatMul", "Relu", "Tanh"}));
  EXPECT_EQ(cell(doc, "Tanh", "cpu").at("status"), "missing");
  EXPECT_EQ(cell(doc, "Tanh", "gpu").at("status"), "missing");
  EXPECT_EQ(doc.at("warnings"), json({"ops_interface.ops: backend 'gpu' registers 'Softmax' at "
                                      "kernels/nn_kernels.cpp:23, which is not in the list"}));
}

// Keyed by an op class's static name: `add_factory(MatMulKernel::id(), factory)` names the class
// MatMulKernel, and the op is the class (declared in the frontend header). avx2's Avx2Platform derives from
// cpu's CpuPlatform, whose constructor registers every kernel: what avx2 does not register runs cpu's code.
TEST_F(Shapes, RegistrationsNamedByAnOpClassStaticMemberAndInheritedFromABasePlatform) {
  json doc = report("registrations_named_classes");
  EXPECT_EQ(doc.at("interface"), "the registrations");
  const Matrix expected = {
      {"AddKernel", {{"cpu", "native"}, {"avx2", "native"}, {"opencl", "native"}}},
      {"ConvKernel", {{"cpu", "native"}, {"avx2", "fallback"}, {"opencl", "native"}}},
      {"MatMulKernel", {{"cpu", "native"}, {"avx2", "native"}, {"opencl", "native"}}},
      {"ReluKernel", {{"cpu", "native"}, {"avx2", "fallback"}, {"opencl", "native"}}},
      {"SoftmaxKernel", {{"cpu", "native"}, {"avx2", "fallback"}, {"opencl", "missing"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  for (const auto& op : doc.at("ops")) {
    EXPECT_EQ(op.at("declared").at("file"), "include/loom/kernels.hpp") << op.dump();
  }
  EXPECT_EQ(cell(doc, "ConvKernel", "avx2").at("reason"),
            "inherited: loom::avx2::Avx2Platform extends loom::cpu::CpuPlatform of backend 'cpu', which "
            "registers it at platforms/cpu/cpu_platform.cpp:30");
  EXPECT_EQ(cell(doc, "MatMulKernel", "avx2").at("signature"), "add_factory(MatMulKernel::id(), factory)");
  EXPECT_EQ(cell(doc, "SoftmaxKernel", "opencl").at("reason"),
            "no registration of it in the backend's folders");
  EXPECT_TRUE(doc.at("warnings").empty()) << doc.at("warnings").dump();

  // A name a function computes is no class's: opencl's missing cell becomes unknown, and says where.
  const fs::path computed = scratch_ / "registrations_named_classes_computed";
  fs::copy(kShapes / "registrations_named_classes", computed, fs::copy_options::recursive);
  write_file(computed / "platforms/opencl/opencl_extra.cpp",
             "#include \"loom/kernels.hpp\"\n"
             "namespace loom::opencl {\n"
             "std::string kernel_name(int i);\n"
             "void register_more(Platform& p, std::shared_ptr<KernelFactory> f) {\n"
             "  p.add_factory(kernel_name(3), f);\n"
             "}\n"
             "}  // namespace loom::opencl\n");
  Outcome o = run_in(computed, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  doc = json::parse(o.out);
  EXPECT_EQ(cell(doc, "SoftmaxKernel", "opencl").at("status"), "unknown");
  EXPECT_EQ(cell(doc, "SoftmaxKernel", "avx2").at("status"), "fallback");
}

// What init proposes for that shape, with no config: the registrations model keyed by the op classes (the
// factory argument is the same in every registration, so there is no creator), avx2 using cpu (two of its
// classes derive from cpu's), and a config whose check is clean and whose analyze gives the matrix above.
TEST_F(Shapes, InitProposesRegistrationsKeyedByOpClassesAndTheBackendAPlatformExtends) {
  const fs::path dir = scratch_ / "registrations_named_classes_init";
  fs::copy(kShapes / "registrations_named_classes", dir, fs::copy_options::recursive);
  fs::remove(dir / ".emberlint.json");
  Outcome init = run_in(dir, emberlint() + " init", scratch_);
  ASSERT_EQ(init.exit_code, 0) << init.err;
  // The config, each comment's wrapped lines joined.
  const std::string cfg = std::regex_replace(read_file(dir / ".emberlint.json"), std::regex("\n *// "), " ");
  EXPECT_NE(cfg.find(R"("avx2": {"paths": ["platforms/avx2/**"], "uses": ["cpu"]})"), std::string::npos)
      << cfg;
  EXPECT_NE(cfg.find("it extends cpu (2 classes derive from its classes: Avx2MatMul : CpuMatMul"),
            std::string::npos)
      << cfg;
  EXPECT_NE(cfg.find(R"("model": "registrations")"), std::string::npos) << cfg;
  EXPECT_NE(cfg.find(R"("registrations": {"avx2": [{"call": "add_factory", "op": 0}], "cpu": [{"call": )"
                     R"("add_factory", "op": 0}], "opencl": [{"call": "add_factory", "op": 0}]})"),
            std::string::npos)
      << cfg;
  EXPECT_NE(cfg.find("a static member of a frontend class names the op, the class (5 classes"),
            std::string::npos)
      << cfg;
  Outcome check = run_in(dir, emberlint() + " check --no-cache", scratch_);
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_EQ(o.exit_code, 1) << o.err;
  EXPECT_EQ(matrix_of(json::parse(o.out)), matrix_of(report("registrations_named_classes")));
  EXPECT_EQ(cell(json::parse(o.out), "ReluKernel", "avx2").at("status"), "fallback");
}

// Registrations an add-on makes only on platforms of one class (a loop over every platform with a
// dynamic_cast guard): on every backend one of whose classes is that class or extends it (simd's platform
// extends portable's), as fallback cells that say where and which guard. A guard on a class no backend
// declares changes nothing (Wrap stays gpu's only).
TEST_F(Shapes, RegistrationsGuardedByADynamicCastReachTheBackendsThatExtendTheClass) {
  json doc = report("registrations_guarded");
  const Matrix expected = {
      {"ClampKernel", {{"portable", "native"}, {"simd", "fallback"}, {"gpu", "missing"}}},
      {"ScaleKernel", {{"portable", "native"}, {"simd", "native"}, {"gpu", "native"}}},
      {"ShiftKernel", {{"portable", "native"}, {"simd", "fallback"}, {"gpu", "native"}}},
      {"WrapKernel", {{"portable", "missing"}, {"simd", "missing"}, {"gpu", "native"}}},
  };
  EXPECT_EQ(matrix_of(doc), expected);
  EXPECT_EQ(
      cell(doc, "ShiftKernel", "simd").at("reason"),
      "guarded: backend 'portable' registers it at addons/tilt/backends/portable/tilt_portable.cpp:12 on "
      "platforms of class quill::portable::PortablePlatform (`dynamic_cast<portable::PortablePlatform*>("
      "platform)`), and quill::simd::SimdPlatform extends it, a class of 'simd'");
  EXPECT_NE(cell(doc, "ClampKernel", "simd")
                .at("reason")
                .get<std::string>()
                .find("tilt_portable.cpp:15 on platforms of class quill::portable::PortablePlatform "
                      "(`dynamic_cast<portable::PortablePlatform&>(*platform)`)"),
            std::string::npos)
      << cell(doc, "ClampKernel", "simd").dump();
  EXPECT_TRUE(doc.at("warnings").empty()) << doc.at("warnings").dump();
}

TEST_F(Shapes, RegistrationsErrorsAndWarningsNameTheConfigPath) {
  // A form that matches nothing: the matrix still comes, with the names the backend's folders do use.
  Outcome pattern = run_in(edited("registrations", "\"CudaCreatorRegistrar\"", "\"CudaCreatorRegister\""),
                           emberlint() + " analyze --no-cache --format json", scratch_);
  EXPECT_EQ(pattern.exit_code, 1) << pattern.err;
  EXPECT_NE(pattern.err.find("warning: ops_interface.registrations.cuda[0]: no registrar "
                             "'CudaCreatorRegister' in the folders of backend 'cuda'; nearest: "
                             "CudaCreatorRegistrar"),
            std::string::npos)
      << pattern.err;
  EXPECT_EQ(cell(json::parse(pattern.out), "OpType_Conv", "cuda").at("status"), "missing");
  Outcome macro = run_in(edited("registrations", "\"REGISTER_HOST_OP_CREATOR\"", "\"REGISTER_HOST_CREATOR\""),
                         emberlint() + " analyze --no-cache", scratch_);
  EXPECT_NE(macro.err.find("ops_interface.registrations.host[0]: no call 'REGISTER_HOST_CREATOR' in the "
                           "folders of backend 'host'; nearest: REGISTER_HOST_OP_CREATOR"),
            std::string::npos)
      << macro.err;
  Outcome typo =
      run_in(edited("registrations", "\"forge::OpType\"", "\"OpType\""), emberlint() + " analyze", scratch_);
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_NE(
      typo.err.find("ops_interface.enum: no enum 'OpType' is declared in the headers that declare the ops "
                    "(include/forge/op_types_generated.h); nearest: "
                    "forge::OpType"),
      std::string::npos)
      << typo.err;
  Outcome form = run_in(edited("registrations", R"("table": "k*Ops")", R"("tabel": "k*Ops")"),
                        emberlint() + " analyze", scratch_);
  EXPECT_EQ(form.exit_code, 2);
  EXPECT_NE(form.err.find("ops_interface.registrations.npu[0].tabel: unknown key"), std::string::npos)
      << form.err;
  Outcome position =
      run_in(edited("registrations", R"("op": 1, "creator": 0})", R"("op": -1, "creator": 0})"),
             emberlint() + " analyze", scratch_);
  EXPECT_EQ(position.exit_code, 2);
  EXPECT_NE(position.err.find("ops_interface.registrations.host[0].op: expected an argument position"),
            std::string::npos)
      << position.err;
}

// Enumerators match as whole identifiers: a cuda source that does not parse and names OpType_Diag_MaskInf
// leaves that cell open, not OpType_Diag's (whose name is only the start of it).
TEST_F(Shapes, RegistrationsEnumeratorsMatchAsWholeIdentifiers) {
  const fs::path dir = edited("registrations", R"("model")", R"("model")");
  write_file(
      dir / "backends/cuda/broken_ops.cpp",
      "#include \"forge/backend.hpp\"\nstatic auto kind = forge::OpType_Diag_MaskInf;\nint broken( {\n");
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache --format json", scratch_);
  ASSERT_EQ(o.exit_code, 3) << o.out << o.err;
  json doc = json::parse(o.out);
  EXPECT_EQ(cell(doc, "OpType_Diag_MaskInf", "cuda").at("status"), "unknown");
  EXPECT_EQ(cell(doc, "OpType_Diag", "cuda").at("status"), "missing")
      << cell(doc, "OpType_Diag", "cuda").dump();
  EXPECT_EQ(cell(doc, "OpType_Conv", "cuda").at("status"), "native");
}

// A wrong name that the op-declaring headers can refute (an unqualified enum) exits 2 before any backend
// source is parsed: a backend source that is a FIFO with no writer would block a parse for ever.
TEST_F(Shapes, AWrongEnumFailsBeforeTheBackendsAreParsed) {
  const fs::path dir = edited("registrations", "\"forge::OpType\"", "\"OpType\"");
  ASSERT_EQ(mkfifo((dir / "backends/vk/blocking_ops.cpp").c_str(), 0600), 0);
  Outcome o = run_in(dir, emberlint() + " analyze --no-cache", scratch_);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_NE(
      o.err.find("ops_interface.enum: no enum 'OpType' is declared in the headers that declare the ops "
                 "(include/forge/op_types_generated.h); nearest: forge::OpType (checked before parsing the "
                 "backends)"),
      std::string::npos)
      << o.err;
}

// ---- parses: the prefix that units of one command share, as check's
// ----------------------------------------

// The five backend sources of the registrations shape have one command (the config's flags) and include
// standard headers: they share one precompiled prefix of them, and the inventory is the same without it.
TEST_F(Shapes, UnitsOfOneCommandShareAPrefixAndTheInventoryIsTheSameWithout) {
  auto parsed = [](const std::string& err) {
    std::smatch m;
    EXPECT_TRUE(std::regex_search(err, m, std::regex("(\\d+) units parsed, (\\d+) with a shared prefix")))
        << err;
    return m.size() == 3 ? std::pair{std::stoi(m[1]), std::stoi(m[2])} : std::pair{-1, -1};
  };
  Outcome shared =
      analyze("registrations", "--no-cache --format json -o " + (scratch_ / "shared.json").string());
  ASSERT_EQ(shared.exit_code, 1) << shared.err;
  const auto [units, prefixed] = parsed(shared.err);
  EXPECT_EQ(units, 5);
  EXPECT_GE(prefixed, 3) << shared.err;  // a prefix is built for three or more units; a unit it does not fit
                                         // (a macro its headers test) parses without it
  Outcome alone = analyze("registrations", "--no-cache --no-shared-prefix --format json -o " +
                                               (scratch_ / "alone.json").string());
  ASSERT_EQ(alone.exit_code, 1) << alone.err;
  EXPECT_EQ(parsed(alone.err), std::pair(5, 0));
  EXPECT_EQ(read_file(scratch_ / "shared.json"), read_file(scratch_ / "alone.json"));
  // A cached run parses nothing and says nothing of parses.
  const std::string cache = " --cache-dir " + (scratch_ / "cache").string();
  ASSERT_EQ(analyze("registrations", "-o " + (scratch_ / "cold.json").string() + cache).exit_code, 1);
  Outcome warm = analyze("registrations", "-o " + (scratch_ / "warm.json").string() + cache);
  EXPECT_NE(warm.err.find("from the cache"), std::string::npos) << warm.err;
  EXPECT_EQ(warm.err.find("units parsed"), std::string::npos) << warm.err;
}

// ---- every model: each report says which model produced the matrix ---------------------------------------

TEST_F(Shapes, EveryFormatNamesTheModel) {
  for (const std::string shape :
       {"enum_dispatch", "op_classes_methods", "op_classes_subclasses", "functions", "registrations"}) {
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
