// `emberlint init` then `check -p` on trees whose backend files are not (only) backend folders
// (tests/lint/fixtures/init/): per-device files chosen by their suffix in one folder of ops (cinder,
// CTranslate2's shape), and a benchmark program built once per backend with tests named after each backend
// (gauge, gearshifft's), execution spaces known by their siblings (spaces, Kokkos'), and a library's header
// kept in the tree (ribbon, vexcl's CL/opencl.hpp), and a frontend folder beside the backends that they build
// on (kernhub, Ginkgo's core/), and code backends share outside a shared folder (tally, Ginkgo's reference/
// batch headers and core/solver/batch_dispatch.hpp). Each test writes the compile database a build would,
// runs init and check as a user does, and compares the findings with the lines the tree marks `expect: CODE`.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "tests/support/test_support.hpp"

namespace {

namespace fs = std::filesystem;
using emberlint::test::Outcome;
using emberlint::test::read_file;
using emberlint::test::run_in;
using emberlint::test::scratch_dir;
using emberlint::test::write_file;
using nlohmann::json;

using Finding = std::tuple<std::string, unsigned, std::string>;  // file, line, code

std::string show(const std::set<Finding>& findings) {
  std::string s;
  for (const auto& [f, l, c] : findings) s += "  " + f + ":" + std::to_string(l) + " " + c + "\n";
  return s;
}

class InitShapes : public ::testing::Test {
 protected:
  void SetUp() override { scratch_ = scratch_dir("init-shapes"); }
  void TearDown() override { fs::remove_all(scratch_); }

  // A copy of the fixture and a compile database of `sources`, each with `flags` (the root's folders on -I).
  void tree(const std::string& name, const std::vector<std::string>& sources, const std::string& flags) {
    root_ = scratch_ / name;
    fs::copy(fs::path(EMBERLINT_FIXTURES) / "init" / name, root_, fs::copy_options::recursive);
    json db = json::array();
    for (const auto& f : sources)
      db.push_back(
          {{"directory", root_.string()}, {"file", f}, {"command", "c++ -std=c++17 " + flags + " -c " + f}});
    write_file(root_ / "build" / "CMakeCache.txt", "# configured, not built\n");
    write_file(root_ / "build" / "compile_commands.json", db.dump(2));
  }

  // A compile database of (source, its flags) pairs, each command with `common` first.
  void database(const std::vector<std::pair<std::string, std::string>>& commands,
                const std::string& common = "-Iinclude") {
    json db = json::array();
    for (const auto& [file, flags] : commands)
      db.push_back({{"directory", root_.string()},
                    {"file", file},
                    {"command", "c++ -std=c++17 " + common + " " + flags + " -c " + file}});
    write_file(root_ / "build" / "compile_commands.json", db.dump(2));
  }

  // `init -p build`, then the config it wrote (comments dropped).
  json init() {
    const Outcome r = run_in(root_, emberlint::test::emberlint() + " init -p build", scratch_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    text_ = read_file(root_ / ".emberlint.json");
    return json::parse(text_, nullptr, true, /*ignore_comments=*/true);
  }

  // The config's comments, their lines joined by spaces.
  std::string comments() const {
    std::string flat;
    std::istringstream lines(text_);
    for (std::string line; std::getline(lines, line);) {
      const std::size_t at = line.find("// ");
      if (at != std::string::npos) flat += line.substr(at + 3) + " ";
    }
    return flat;
  }

  // `check -p build` with that config: its findings, and no unit may fail.
  std::set<Finding> check() {
    const Outcome r = run_in(root_, emberlint::test::emberlint() + " check -p build --format json", scratch_);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << r.out << r.err;
    const json report = json::parse(r.out);
    EXPECT_TRUE(report.at("failures").empty()) << r.out;
    std::set<Finding> out;
    for (const auto& d : report.at("diagnostics"))
      out.insert(
          {d.at("file").get<std::string>(), d.at("line").get<unsigned>(), d.at("code").get<std::string>()});
    return out;
  }

  // The `expect: CODE...` markers of the tree.
  std::set<Finding> expected() const {
    std::set<Finding> out;
    for (const auto& e : fs::recursive_directory_iterator(root_)) {
      if (!e.is_regular_file() || e.path().extension() == ".md") continue;
      std::istringstream in(read_file(e.path()));
      std::string line;
      for (unsigned n = 1; std::getline(in, line); ++n) {
        const std::size_t at = line.find("expect:");
        if (at == std::string::npos) continue;
        std::istringstream codes(line.substr(at + 7));
        for (std::string c; codes >> c;)
          out.insert({e.path().lexically_relative(root_).generic_string(), n, c});
      }
    }
    return out;
  }

  fs::path scratch_, root_;
  std::string text_;
};

// cinder: src/ops/<op>_cpu.cpp and <op>_gpu.cpp beside the frontend's <op>.cpp. The suffixes name the cpu
// backend and the only GPU backend (opencl), so those files are theirs: a cpu file's use of the cpu pool is
// no finding, a gpu file's is another backend's (EL103), the frontend dispatch's stays EL100/EL101.
TEST_F(InitShapes, PerDeviceFilesChosenBySuffixAreTheirBackendsAndTheFrontendKeepsTheRest) {
  tree("cinder",
       {"src/cpu/pool.cpp", "src/opencl/queue.cpp", "src/ops/scale.cpp", "src/ops/scale_cpu.cpp",
        "src/ops/scale_gpu.cpp", "src/ops/fill.cpp", "src/ops/fill_cpu.cpp", "src/ops/fill_gpu.cpp",
        "src/ops/norm_cpu.cpp"},
       "-Iinclude -Isrc");
  const json c = init();
  const json& b = c.at("layers").at("backends");
  // The headers timer_cpu.h and timer_opencl.h are a family of entry headers, one per backend (public), not
  // implementations chosen by suffix: no sources, one stem.
  EXPECT_EQ(b.at("cpu"), json::parse(R"({"paths": ["src/cpu/**", "src/ops/*_cpu.cpp"],
                                         "public": ["include/cinder/timer_cpu.h"]})"))
      << text_;
  EXPECT_EQ(b.at("opencl"), json::parse(R"({"paths": ["src/opencl/**", "src/ops/*_gpu.cpp"],
                                            "public": ["include/cinder/timer_opencl.h"]})"))
      << text_;
  EXPECT_EQ(b.size(), 2u) << text_;
  EXPECT_EQ(c.at("layers").at("frontend"), json({"include/**", "src/**"})) << text_;
  EXPECT_NE(text_.find("src/ops/: 3 stems with a _cpu file"), std::string::npos) << text_;
  EXPECT_EQ(c.at("libraries").at("OpenCL").at("backend"), "opencl") << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 4u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// gauge: src/bench.cpp is one program per backend (its main() includes the client a macro selects, found
// through the build's -Iinc) and is glue; test/test_blas.cpp is the blas backend's own test. The frontend's
// report.cpp, the harness test and the test named after two backends keep their findings.
TEST_F(InitShapes, AProgramPerBackendIsGlueAndATestNamedAfterABackendIsItsOwn) {
  tree("gauge",
       {"src/bench.cpp", "src/report.cpp", "test/test_blas.cpp", "test/test_harness.cpp",
        "test/test_blas_vs_opencl.cpp"},
       "-DGAUGE_BLAS -Iinc");
  const json c = init();
  const json& layers = c.at("layers");
  EXPECT_EQ(layers.at("glue"), json({"src/bench.cpp"})) << text_;
  EXPECT_NE(text_.find("src/bench.cpp (main() includes the headers of blas, opencl)"), std::string::npos)
      << text_;
  EXPECT_EQ(layers.at("backends").at("blas"), json::parse(R"({"paths": ["inc/clients/blas/**"],
                                                             "tests": ["test/test_blas.cpp"]})"))
      << text_;
  EXPECT_EQ(layers.at("backends").at("opencl"), json({"inc/clients/opencl/**"})) << text_;
  EXPECT_EQ(layers.at("frontend"), json({"inc/**", "src/**"})) << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 6u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// spaces: execution-space folders beside Cuda/ and OpenMP/ that are named after nothing known. Offload/ is a
// backend because its files include <omp.h>, a library the OpenMP/ beside it is a backend of (Kokkos'
// OpenMPTarget/); Sequential/ and Pool/ because a family of per-backend headers beside them names them with
// CUDA and OPENMP (Kokkos' decl/Kokkos_Declare_SERIAL.hpp beside Kokkos_Declare_CUDA.hpp). A family header
// that includes its space's own headers is that backend's entry (interop), so the frontend including it and
// it including the space are no EL100; a forward-declaring one stays public. impl/, whose one file of five
// includes <omp.h>, stays the frontend's. Allocation labels named after each space are no op registrations.
TEST_F(InitShapes, SiblingsOfBackendsByTheirLibraryOrAFamilyOfPerBackendHeadersAreBackends) {
  tree("spaces", {"src/core.cpp", "src/Sequential/sp_sequential.cpp", "src/Pool/sp_pool.cpp"},
       "-Isrc -Iinclude");
  const json c = init();
  const json& b = c.at("layers").at("backends");
  std::set<std::string> names;
  for (const auto& [name, value] : b.items()) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"cuda", "offload", "openmp", "pool", "sequential"})) << text_;
  EXPECT_EQ(b.at("offload"), json({"src/Offload/**"})) << text_;
  EXPECT_NE(text_.find("src/Offload/: 3 files, 2 including <omp.h> (OpenMP), beside src/OpenMP/, which is a"),
            std::string::npos)
      << text_;
  EXPECT_EQ(b.at("sequential"), json::parse(R"({"paths": ["src/Sequential/**"],
                                                "public": ["src/fwd/sp_fwd_SEQUENTIAL.hpp"],
                                                "interop": ["src/decl/sp_decl_SEQUENTIAL.hpp"]})"))
      << text_;
  EXPECT_EQ(b.at("pool"), json::parse(R"({"paths": ["src/Pool/**"], "public": ["src/fwd/sp_fwd_POOL.hpp"],
                                          "interop": ["src/decl/sp_decl_POOL.hpp"]})"))
      << text_;
  EXPECT_EQ(b.at("openmp"),
            json::parse(R"({"paths": ["src/OpenMP/**"], "public": ["src/fwd/sp_fwd_OPENMP.hpp"],
                                            "interop": ["src/decl/sp_decl_OPENMP.hpp"]})"))
      << text_;
  EXPECT_NE(
      text_.find("src/Pool/: 2 files, named by src/decl/sp_decl_POOL.hpp, one of a family of per-backend"),
      std::string::npos)
      << text_;
  EXPECT_NE(text_.find("src/decl/sp_decl_OPENMP.hpp includes its own src/OpenMP/sp_openmp.hpp"),
            std::string::npos)
      << text_;
  EXPECT_EQ(c.at("libraries").at("OpenMP").at("backend"), json({"offload", "openmp"})) << text_;
  EXPECT_EQ(c.at("layers").at("frontend"), json({"include/**", "src/**"})) << text_;
  // Three spaces allocate scratch with labels that name them: no ops (Kokkos' space.allocate(
  // "Kokkos::OpenMP::scratch_mem", n) made analyze report each space missing the others' labels). Two more
  // allocate four labels each that name no space, but no label is allocated by two spaces; two reserve the
  // same four labels, but with one size in most calls (Kokkos' allocate("Kokkos::InternalScratchSpace",
  // alloc_size) in Cuda/ and HIP/): no registrations model either.
  EXPECT_FALSE(c.contains("ops_interface")) << text_;
  EXPECT_NE(
      text_.find("not a model: registrations: 8 sites of allocate in 2 backends naming strings, but no"),
      std::string::npos)
      << text_;
  EXPECT_NE(text_.find("1 file outside the backend folders includes OpenMP headers (src/impl/sp_clock.hpp"),
            std::string::npos)
      << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 4u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// ribbon: CL/clpp.hpp is a library's header kept in the tree at its include path, under its authors'
// notice: excluded as vendored, and the frontend's #include <CL/clpp.hpp> is an include of OpenCL (EL100),
// which the opencl backend owns. cuda/launch.hpp mirrors CUDA's cuda/** under the project's own notice and
// stays the cuda backend's; include/ribbon/simd.hpp, another holder's but no library's path, stays
// frontend.
TEST_F(InitShapes, AVendoredCopyOfALibraryHeaderIsExcludedAndIncludesOfItAreTheLibrarys) {
  tree("ribbon", {"src/api.cpp", "cuda/scale.cpp", "opencl/scale.cpp"}, "-I. -Iinclude");
  const json c = init();
  const json& layers = c.at("layers");
  EXPECT_EQ(c.at("exclude"), json({"CL/**", "build/**"})) << text_;
  EXPECT_NE(text_.find("CL/ (a copy of OpenCL's CL/clpp.hpp, copyright The Example Compute Consortium)"),
            std::string::npos)
      << text_;
  EXPECT_EQ(layers.at("frontend"), json({"include/**", "src/**"})) << text_;
  EXPECT_EQ(layers.at("backends").at("cuda"), json({"cuda/**"})) << text_;
  EXPECT_EQ(layers.at("backends").at("opencl"), json({"opencl/**"})) << text_;
  EXPECT_EQ(c.at("libraries").at("OpenCL").at("backend"), "opencl") << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 3u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// facade: a header-only library whose frontend functions (fcd::ops::scale, ...) call the function of the same
// name in the namespace of the backend the data is on (fcd::ops::native, ::opencl, ::cuda), each backend a
// folder beside the frontend headers with the same file names (ViennaCL's shape). native/ is named after no
// library: it mirrors the named ones. detail/ beside them serves the frontend headers, the tuning database's
// cpu/ and gpu/ folders are data tables. init proposes the functions model; the frontend's dispatch headers
// are glue; analyze parses the backends' headers (the frontend includes opencl's and cuda's only under #if)
// and sees the function templates of native's, whose bodies the units skipped.
TEST_F(InitShapes, ADispatchByNamespaceToMirroredBackendFoldersIsTheFunctionsModel) {
  tree("facade", {"tests/test_ops.cpp", "tests/reduce_ops.cpp", "examples/tuned.cpp"}, "-Iinclude");
  // A build with the opencl backend compiles one more unit, which defines FCD_WITH_OPENCL: opencl's headers
  // parse only with it (reduce_ops.hpp says #error without), so analyze parses them with that unit's flags,
  // not with those of the nearer tests/reduce_ops.cpp.
  json db = json::parse(read_file(root_ / "build" / "compile_commands.json"));
  db.push_back({{"directory", root_.string()},
                {"file", "examples/opencl_kernels.cpp"},
                {"command", "c++ -std=c++17 -Iinclude -DFCD_WITH_OPENCL -c examples/opencl_kernels.cpp"}});
  write_file(root_ / "build" / "compile_commands.json", db.dump(2));
  const json c = init();
  const json& layers = c.at("layers");
  EXPECT_EQ(layers.at("backends"), json::parse(R"({"cuda": ["include/fcd/ops/cuda/**"],
                                                   "native": ["include/fcd/ops/native/**"],
                                                   "opencl": ["include/fcd/ops/opencl/**"]})"))
      << text_;
  EXPECT_EQ(layers.at("glue"), json({"examples/**", "include/fcd/ops/matrix_ops.hpp",
                                     "include/fcd/ops/reduce_ops.hpp", "include/fcd/ops/vector_ops.hpp"}))
      << text_;
  EXPECT_EQ(c.at("ops_interface"),
            json::parse(R"({"model": "functions", "headers": ["include/fcd/ops/*_ops.hpp"],
      "namespace": "fcd::ops", "implementations": {"cuda": "fcd::ops::cuda", "native": "fcd::ops::native",
                                                   "opencl": "fcd::ops::opencl"}})"))
      << text_;
  EXPECT_NE(text_.find("6 functions of fcd::ops in 3 frontend headers"), std::string::npos) << text_;
  const Outcome layer = run_in(root_,
                               emberlint::test::emberlint() +
                                   " layers --format json include/fcd/ops/detail/blocking.hpp "
                                   "include/fcd/tuning/devices/gpu/vendor_a/model_1.hpp",
                               scratch_);
  ASSERT_EQ(layer.exit_code, 0) << layer.err;
  for (const auto& f : json::parse(layer.out)) EXPECT_EQ(f.at("layer"), "frontend") << layer.out;

  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 2u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);

  const Outcome a = run_in(root_, emberlint::test::emberlint() + " analyze -p build --format json", scratch_);
  ASSERT_EQ(a.exit_code, 1) << a.out << a.err;  // the gemv signatures differ (EL401)
  const json report = json::parse(a.out);
  std::map<std::string, std::map<std::string, std::string>> cells;  // op -> backend -> status
  for (const auto& op : report.at("ops"))
    for (const auto& [backend, cell] : op.at("cells").items())
      cells[op.at("name").get<std::string>()][backend] = cell.at("status").get<std::string>();
  ASSERT_EQ(cells.size(), 6u) << a.out;
  for (const auto& [op, row] : cells) {
    EXPECT_EQ(row.at("native"), "native") << op << ": the bodies of native's templates, skipped by the units";
    EXPECT_EQ(row.at("opencl"), "native") << op << ": opencl's headers, which no unit includes";
    // cuda's headers do not parse without the CUDA SDK: what they name is unknown, max_value they never name.
    EXPECT_EQ(row.at("cuda"), op == "max_value" ? "missing" : "unknown") << op;
  }
  std::set<std::string> codes;
  for (const auto& d : report.at("diagnostics")) codes.insert(d.at("code").get<std::string>());
  EXPECT_EQ(codes, (std::set<std::string>{"EL400", "EL401"})) << "no EL402 for native::detail's helpers";
}

// weft: beside cinder's per-device files, src/ops/kernels/launch.cuh is included by the _gpu files only and
// uses OpenCL: it is the opencl backend's (no EL100/EL101 on it); src/ops/shared/clamp.h, included by files
// of both backends, stays the frontend's.
TEST_F(InitShapes, AHeaderOnlyOneBackendsPerDeviceFilesIncludeIsThatBackends) {
  tree("weft",
       {"src/cpu/pool.cpp", "src/opencl/queue.cpp", "src/ops/scale.cpp", "src/ops/scale_cpu.cpp",
        "src/ops/scale_gpu.cpp", "src/ops/fill.cpp", "src/ops/fill_cpu.cpp", "src/ops/fill_gpu.cpp"},
       "-Iinclude -Isrc");
  const json c = init();
  const json& b = c.at("layers").at("backends");
  EXPECT_EQ(b.at("opencl"), json({"src/opencl/**", "src/ops/*_gpu.cpp", "src/ops/kernels/launch.cuh"}))
      << text_;
  EXPECT_EQ(b.at("cpu"), json({"src/cpu/**", "src/ops/*_cpu.cpp"})) << text_;
  EXPECT_NE(text_.find("(included by its files only)"), std::string::npos) << text_;
  EXPECT_EQ(c.at("layers").at("frontend"), json({"include/**", "src/**"})) << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_TRUE(want.empty()) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// strand: a header-only library whose build selects the backend with a macro on its commands, and a
// using-directive that macro chooses makes strand::backend:: the selected backend (vexcl's shape, and
// ViennaCL's when only some commands define it). init proposes a configuration per macro named after a
// backend that the library code tests in #if, and with it the frontend's backend:: uses are the interface the
// build selected.
TEST_F(InitShapes, AMacroNamedAfterABackendThatCommandsDefineIsItsConfiguration) {
  const auto run = [&](const std::string& command) {
    return run_in(root_, emberlint::test::emberlint() + " " + command, scratch_);
  };

  // Every command selects OpenCL. STRAND_HAVE_OPENCL_EXT is defined as often and only the opencl backend
  // tests it, CL_TARGET_OPENCL_VERSION=120 sets a version, STRAND_HAVE_CUDA_TIMER only an example tests.
  const std::string every = "-DSTRAND_USE_OPENCL -DSTRAND_HAVE_OPENCL_EXT -DCL_TARGET_OPENCL_VERSION=120";
  tree("strand", {}, "");
  database({{"tests/vector.cpp", every},
            {"tests/fill.cpp", every},
            {"examples/timer.cpp", every + " -DSTRAND_HAVE_CUDA_TIMER"}});
  json c = init();
  ASSERT_TRUE(c.contains("configurations")) << text_;
  ASSERT_EQ(c.at("configurations").size(), 1u) << text_;
  const json& opencl = c.at("configurations").at("opencl");
  EXPECT_EQ(opencl.at("backend"), "opencl") << text_;
  EXPECT_EQ(opencl.at("defines"), json({"STRAND_USE_OPENCL"})) << text_;
  EXPECT_FALSE(opencl.contains("include")) << text_;
  EXPECT_NE(text_.find("all 3 commands define STRAND_USE_OPENCL, named after this backend, which 1 file of "
                       "the library code"),
            std::string::npos)
      << text_;
  EXPECT_EQ(check(), std::set<Finding>{}) << text_;
  const Outcome a = run("analyze -p build");
  EXPECT_EQ(a.exit_code, 0) << a.out << a.err;

  // The same config without the configuration: every backend:: use of the frontend is the opencl backend's.
  json without = c;
  without.erase("configurations");
  write_file(root_ / ".emberlint.json", without.dump(2));
  const std::set<Finding> before = check();
  std::set<Finding> want;
  want.insert({"include/strand/vector.hpp", 6, "EL100"});
  for (unsigned line : {14u, 19u, 20u, 24u, 28u, 32u})
    want.insert({"include/strand/vector.hpp", line, "EL101"});
  EXPECT_EQ(before, want) << "expected:\n" << show(want) << "got:\n" << show(before);

  // A build of each backend: two configurations, and what remains is the frontend's reach into opencl by its
  // path in the cuda configuration.
  database({{"tests/vector.cpp", "-DSTRAND_USE_OPENCL"},
            {"tests/vector.cpp", "-DSTRAND_USE_CUDA"},
            {"tests/fill.cpp", "-DSTRAND_USE_OPENCL"},
            {"tests/fill.cpp", "-DSTRAND_USE_CUDA"},
            {"examples/timer.cpp", "-DSTRAND_USE_OPENCL"}});
  fs::remove(root_ / ".emberlint.json");
  c = init();
  EXPECT_EQ(c.at("configurations"),
            json::parse(R"({"cuda": {"backend": "cuda", "defines": ["STRAND_USE_CUDA"]},
                                                   "opencl": {"backend": "opencl", "defines": ["STRAND_USE_OPENCL"]}})"))
      << text_;
  const std::set<Finding> marked = expected(), got = check();
  EXPECT_EQ(marked.size(), 2u) << show(marked);
  EXPECT_EQ(got, marked) << "expected:\n" << show(marked) << "got:\n" << show(got);

  // One command of three defines STRAND_USE_CUDA: too weak to say the build selects CUDA by it.
  database({{"tests/vector.cpp", ""}, {"tests/fill.cpp", ""}, {"examples/timer.cpp", "-DSTRAND_USE_CUDA"}});
  fs::remove(root_ / ".emberlint.json");
  c = init();
  EXPECT_FALSE(c.contains("configurations")) << text_;
  EXPECT_NE(
      comments().find("no configurations proposed: macros named after a backend, too weak to select it: "
                      "STRAND_USE_CUDA (defined by 1 of 3 commands)"),
      std::string::npos)
      << text_;
}

// kernhub: the frontend folder core/ declares, under the same file names, the kernels that cuda/ and openmp/
// beside it implement, and they include its headers (Ginkgo's shape): core/ mirrors two backends but is what
// they build on, so it stays frontend. accessor/'s accessor_helper.hpp, beside cuda_helper.hpp and
// openmp_helper.hpp, is named after its own folder, not after a sibling backend.
TEST_F(InitShapes, AFrontendFolderWhoseHeadersTheBackendsIncludeUnderTheSameNamesIsNoBackend) {
  tree("kernhub",
       {"core/matrix/dense.cpp", "openmp/matrix/dense_kernels.cpp", "openmp/matrix/csr_kernels.cpp"}, "-I.");
  const json c = init();
  const json& backends = c.at("layers").at("backends");
  std::set<std::string> names;
  for (const auto& [name, b] : backends.items()) names.insert(name);
  EXPECT_EQ(names, (std::set<std::string>{"cuda", "openmp"})) << text_;
  EXPECT_EQ(text_.find("its files mirror"), std::string::npos) << text_;
  EXPECT_EQ(text_.find("one of a family of per-backend files"), std::string::npos) << text_;
  const Outcome layer =
      run_in(root_,
             emberlint::test::emberlint() +
                 " layers --format json core/matrix/dense_kernels.hpp core/matrix/dense.cpp "
                 "accessor/accessor_helper.hpp accessor/cuda_helper.hpp",
             scratch_);
  ASSERT_EQ(layer.exit_code, 0) << layer.err;
  for (const auto& f : json::parse(layer.out)) EXPECT_EQ(f.at("layer"), "frontend") << layer.out;
  EXPECT_EQ(check(), std::set<Finding>{}) << "the backends' includes of core/ are no findings";
}

// lantern: a header-only library whose op headers (include/lantern/kernels/conv_op.hpp) include their own
// per-device headers (conv_op_ref.hpp, conv_op_avx2.hpp, gemm_op_vendor_mkl.hpp) and pick one at run time.
// The suffixes that name a library or an architecture are backends, as is `ref`, which sits beside them under
// every op header; conv_op_opencl.hpp, which the layer includes itself, is opencl's; the op headers are glue.
// util/'s sort_impl.hpp and sort_detail.hpp name no device: no backend. conv_op_ref.hpp includes its own name
// under its guard, which misses nothing. tests/ include a vendored test framework that clang rejects:
// expected as unowned-code, and the test unit is partial, not failed.
TEST_F(InitShapes, AHeaderOnlyLibrarysOpHeadersIncludingPerDeviceHeadersNameTheBackends) {
  tree("lantern", {"examples/demo.cpp", "tests/test_layers.cpp"}, "-Iinclude -I.");
  const json c = init();
  const json& b = c.at("layers").at("backends");
  EXPECT_EQ(b, json::parse(R"({"x86": ["include/lantern/kernels/*_avx2.hpp"],
                               "opencl": ["include/lantern/kernels/*_opencl.hpp"],
                               "ref": ["include/lantern/kernels/*_ref.hpp"],
                               "mkl": ["include/lantern/kernels/*_vendor_mkl.hpp"]})"))
      << text_;
  EXPECT_EQ(
      c.at("layers").at("glue"),
      json({"examples/**", "include/lantern/kernels/conv_grad_op.hpp", "include/lantern/kernels/conv_op.hpp",
            "include/lantern/kernels/gemm_op.hpp", "include/lantern/kernels/pool_op.hpp"}))
      << text_;
  EXPECT_EQ(c.at("expected_parse_errors"), json({{"tests/**", {"unowned-code"}}})) << text_;
  const Outcome r = run_in(root_, emberlint::test::emberlint() + " check -p build --format json", scratch_);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report.at("partial").size(), 1u) << r.out;
  EXPECT_EQ(report.at("partial")[0].at("file"), "tests/test_layers.cpp") << r.out;
  EXPECT_EQ(report.at("partial")[0].at("cause"), "unowned-code") << r.out;
  EXPECT_EQ(report.at("partial")[0].at("expected"), true) << r.out;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 6u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// The same vendored header, not excluded: its error is the project's own (other), and the run fails.
TEST_F(InitShapes, AnErrorInVendoredCodeTheConfigDoesNotExcludeIsTheProjects) {
  tree("lantern", {"tests/test_layers.cpp"}, "-Iinclude -I.");
  write_file(root_ / ".emberlint.json",
             R"({"layers": {"frontend": ["include/**"], "tests": ["tests/**"], "backends": {}},
                 "expected_parse_errors": {"tests/**": ["unowned-code"]}})");
  const Outcome r =
      run_in(root_, emberlint::test::emberlint() + " check -p build --format json --no-cache", scratch_);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report.at("partial").size(), 1u) << r.out;
  EXPECT_EQ(report.at("partial")[0].at("cause"), "other") << r.out;
}

// suitecase: the backends' test folders name their suites after the solvers of a frontend enum
// (SOLVER_TEST(Cg, Converges)) and openmp/test/'s fixtures derive from a fixture class of cuda/test/ named
// like the frontend's Solver (Ginkgo's TEST_F/TYPED_TEST and its EnableLinOp fixture). Tests are no part of
// a backend's design: no registrations model, no `uses` (fails without: "uses": ["cuda"] for openmp and a
// registrations model of SOLVER_TEST keyed by sc::SolverKind).
TEST_F(InitShapes, BackendTestsNeitherRegisterOpsNorExtendAnotherBackend) {
  tree("suitecase", {"openmp/solver/cg.cpp", "openmp/solver/jacobi.cpp"}, "-I. -fopenmp");
  const json c = init();
  const json& backends = c.at("layers").at("backends");
  ASSERT_TRUE(backends.contains("openmp")) << text_;
  EXPECT_FALSE(backends.at("openmp").is_object() && backends.at("openmp").contains("uses")) << text_;
  EXPECT_FALSE(c.contains("ops_interface")) << text_;
  EXPECT_EQ(check(), std::set<Finding>{});
  const Outcome a = run_in(root_, emberlint::test::emberlint() + " analyze -p build", scratch_);
  EXPECT_EQ(a.exit_code, 0) << a.err;
}

// tally: serial/batch/'s headers open tally::kernels::host, not serial's namespace, and threads/ includes
// them: code the two backends share, listed by both (fails without: threads' include of batch_host.hpp is
// EL103). serial_only.hpp opens serial's namespace, so threads' use of it stays EL103. core/batch_select.hpp,
// which only the backends include, picks the CUDA build's header or the host code by the macros the build
// selects backends with: shared, parsed in each configuration (fails without: a frontend file including a
// backend's header, EL100). The header the configured build wrote into build/include/ is no vendored code.
TEST_F(InitShapes, HeadersABackendSharesAndFrontendHeadersThatPickTheBackendAreSharedCode) {
  tree("tally", {}, "");
  database({{"core/solve.cpp", ""},
            {"serial/solve_kernels.cpp", "-DTALLY_BUILD_SERIAL"},
            {"threads/solve_kernels.cpp", "-DTALLY_BUILD_THREADS"}},
           "-I. -Ibuild/include");
  write_file(root_ / "build" / "include" / "tally" / "config.hpp",
             "#pragma once\n#define TALLY_USE_THREADS 1\n");
  const json c = init();
  // The build folder's header is the project's own (fails without: "core/**": ["unowned-code"]).
  EXPECT_FALSE(c.contains("expected_parse_errors")) << text_;
  const json& backends = c.at("layers").at("backends");
  EXPECT_EQ(backends.at("threads"),
            json({"threads/**", "serial/batch/batch_host.hpp", "serial/batch/batch_row.hpp"}))
      << text_;
  EXPECT_EQ(backends.at("serial"), json({"serial/**"})) << text_;
  EXPECT_EQ(c.at("layers").at("shared"), json({"core/batch_select.hpp"})) << text_;
  EXPECT_NE(
      comments().find("2 headers of serial (serial/batch/batch_host.hpp; serial/batch/batch_row.hpp) that "
                      "its code includes and that open no namespace serial: code the two share, listed by "
                      "both"),
      std::string::npos)
      << text_;
  EXPECT_EQ(c.at("configurations").size(), 2u) << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 2u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// trove: a header-only library whose backend/ folder holds one policy header per backend beside the default
// backend and the interface (AMGCL's amgcl/backend/cuda.hpp, vexcl.hpp, eigen.hpp): the files named after a
// library, or after the folder of the vendor headers they include, are the backends, the rest stays frontend
// (fails without: no backend at all, and no finding for the OpenCL code in relax/). The message of EL102
// names the folder the backend's files are in.
TEST_F(InitShapes, ABackendFolderOfPolicyHeadersMakesEachHeaderNamedAfterALibraryABackend) {
  tree("trove", {"tests/test_cg.cpp", "tests/test_opencl.cpp"}, "-Iinclude");
  const json c = init();
  EXPECT_EQ(c.at("layers").at("backends"), json::parse(R"({
      "blitz": ["include/trove/backend/blitz.hpp"],
      "opencl": {"paths": ["include/trove/backend/opencl.hpp", "include/trove/backend/opencl_buffers.hpp",
                           "include/trove/relax/opencl_jacobi.hpp"],
                 "tests": ["tests/test_opencl.cpp"]}})"))
      << text_;
  EXPECT_NE(
      comments().find("include/trove/backend/blitz.hpp: includes <blitz/array.h>, a library named like it, "
                      "one of 2 backends of include/trove/backend/ by their file"),
      std::string::npos)
      << text_;
  EXPECT_EQ(c.at("libraries").at("OpenCL").at("backend"), "opencl") << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 3u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
  const Outcome r = run_in(root_, emberlint::test::emberlint() + " check -p build", scratch_);
  EXPECT_NE(r.out.find("it belongs in the folder of backend 'opencl' (include/trove/backend/)"),
            std::string::npos)
      << r.out;
}

// duet: the build picks a device API with a macro, and src/api_select.hpp includes under each macro that
// API's public header and the library's wrapper over it (CLBlast's clpp11.hpp and cupp11.hpp): the headers
// the macros select, each including the library the macro names, are the backends (fails without: no backend,
// so the frontend's reach past the wrapper is no finding); a public header so selected is the backend's
// interop header. In the opencl configuration the frontend's use of the wrapper is the selected backend's
// interface; its own OpenCL calls are findings. An empty header that an offline configure left is a file the
// build did not write.
TEST_F(InitShapes, HeadersAMacroNamedAfterALibrarySelectsAreThatLibrarysBackend) {
  tree("duet", {"src/routine.cpp", "tests/test_scale.cpp", "samples/demo.cpp"},
       "-Iinclude -Isrc -DDUET_OPENCL_API");
  const json c = init();
  EXPECT_EQ(c.at("layers").at("backends"), json::parse(R"({
      "opencl": {"paths": ["src/cl_wrap.hpp"], "interop": ["include/duet/duet.h"]},
      "cuda": {"paths": ["src/cu_wrap.hpp"], "interop": ["include/duet/duet_cuda.h"]}})"))
      << text_;
  // The empty header an offline configure left stands for a file the build did not write (fails without:
  // cause "other", which no config can expect, and check exits 3).
  EXPECT_EQ(c.at("expected_parse_errors"), json({{"samples/**", {"missing-generated-file"}}})) << text_;
  EXPECT_NE(comments().find("src/cl_wrap.hpp: included when DUET_OPENCL_API is defined (src/api_select.hpp), "
                            "includes <CL/cl.h>"),
            std::string::npos)
      << text_;
  EXPECT_EQ(c.at("configurations").at("opencl").at("defines"), json({"DUET_OPENCL_API"})) << text_;
  const Outcome r = run_in(root_, emberlint::test::emberlint() + " check -p build --format json", scratch_);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report.at("partial").size(), 1u) << r.out;
  EXPECT_EQ(report.at("partial")[0].at("file"), "samples/demo.cpp") << r.out;
  EXPECT_EQ(report.at("partial")[0].at("cause"), "missing-generated-file") << r.out;
  EXPECT_EQ(report.at("partial")[0].at("expected"), true) << r.out;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 3u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// sparrow: the avx suffix names the x86 backend, a family of per-device files with no folder whose files
// include no intrinsics header; the frontend's own vector helper does. A backend of files is the owner of
// the library it is named after only when it is a backend(s)/ folder's policy header (fails without: an
// x86-intrinsics library owned by x86, and EL100/EL101 in src/util/dot.hpp).
TEST_F(InitShapes, AFamilyOfPerDeviceFilesOwnsNoLibraryItsFilesDoNotInclude) {
  tree("sparrow",
       {"src/ops/add.cpp", "src/ops/add_avx.cpp", "src/ops/add_opencl.cpp", "src/ops/mul.cpp",
        "src/ops/mul_avx.cpp", "src/ops/mul_opencl.cpp"},
       "-Isrc");
  const json c = init();
  ASSERT_TRUE(c.at("layers").at("backends").contains("x86")) << text_;
  EXPECT_FALSE(c.at("libraries").contains("x86-intrinsics")) << text_;
  EXPECT_EQ(c.at("libraries").at("OpenCL").at("backend"), "opencl") << text_;
  EXPECT_EQ(check(), std::set<Finding>{}) << text_;
}

// harbor: a header-only library with backends hb/ops/{cpu,opencl,cuda}/ whose OpenCL backend keeps its
// runtime wrappers (hb/clrt/, each including OpenCL through an `#ifdef __APPLE__` ... `#else` platform
// switch), its kernel generator built on them (hb/kgen/) and its memory (hb/mem/opencl_mem.hpp beside
// cuda_mem.hpp and the frontend's handle.hpp) in folders of the frontend (ViennaCL's viennacl/ocl/,
// device_specific/ and backend/opencl.hpp). They are opencl's; util/, which includes OpenCL only under an
// #if/#elif without an #else, and solvers/, which include the cpu backend's headers (no library of its own)
// in every build, stay the frontend's. Fails without: clrt/, kgen/ and mem/'s device files in the frontend
// (34 findings, not 10).
TEST_F(InitShapes, AFrontendFolderThatIncludesOneBackendsLibraryInEveryBuildIsThatBackends) {
  tree("harbor", {"tests/test_solvers.cpp", "tests/test_kernels.cpp"}, "-Iinclude -DHB_WITH_OPENCL");
  const json c = init();
  const json& b = c.at("layers").at("backends");
  EXPECT_EQ(b.at("opencl"), json({"include/hb/ops/opencl/**", "include/hb/mem/opencl_mem.hpp",
                                  "include/hb/clrt/**", "include/hb/kgen/**"}))
      << text_;
  EXPECT_EQ(b.at("cuda"), json({"include/hb/ops/cuda/**", "include/hb/mem/cuda_mem.hpp"})) << text_;
  EXPECT_EQ(b.at("cpu"), json({"include/hb/ops/cpu/**"})) << text_;
  // The comment wraps: each piece of the evidence on its own.
  for (const char* why : {"include/hb/clrt/: 4 of 5 files include its library in every build",
                          "(include/hb/clrt/buffer.hpp: <OpenCL/cl.h>)", "include/hb/kgen/: 3 of 4 files",
                          "(include/hb/kgen/emit.hpp: include/hb/clrt/program.hpp)",
                          "include/hb/mem/opencl_mem.hpp (named after it, it includes its library in every"})
    EXPECT_NE(text_.find(why), std::string::npos) << why << "\n" << text_;
  EXPECT_NE(text_.find("// included by 3 files of opencl\n"), std::string::npos) << text_;
  EXPECT_NE(text_.find("2 files outside the backend folders include OpenCL headers"), std::string::npos)
      << text_;
  const Outcome layer = run_in(root_,
                               emberlint::test::emberlint() +
                                   " layers --format json include/hb/util/platform_probe.hpp "
                                   "include/hb/solvers/cg.hpp include/hb/mem/handle.hpp",
                               scratch_);
  ASSERT_EQ(layer.exit_code, 0) << layer.err;
  for (const auto& f : json::parse(layer.out)) EXPECT_EQ(f.at("layer"), "frontend") << layer.out;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 10u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
}

// almanac: backend/cpu_pool.hpp and backend/opencl.hpp are backends of files (policy headers); tuning/cpu/
// and tuning/gpu/ are a database's tables with no vendor header. A backend of files alone names no folder:
// the tables stay the frontend's (fails without: backends cpu and gpu of tuning/cpu/** and tuning/gpu/**,
// ViennaCL's device_specific/builtin_database/devices/ beside backend/cpu_ram.hpp).
TEST_F(InitShapes, ABackendOfFilesAloneMakesNoFolderOfItsNameABackend) {
  tree("almanac", {}, "-Iinclude");
  const json c = init();
  EXPECT_EQ(c.at("layers").at("backends"), json::parse(R"({"cpu": ["include/alm/backend/cpu_pool.hpp"],
                                                           "opencl": ["include/alm/backend/opencl.hpp"]})"))
      << text_;
  EXPECT_EQ(c.at("layers").at("frontend"), json({"include/**"})) << text_;
}
// keel: compute backends in folders (linalg/opencl/, linalg/cuda/) and memory backends as files of backend/
// (ViennaCL's shape): backend/opencl.hpp joins the opencl backend; backend/cpu_ram.hpp names no backend found
// in a folder and makes none of its own (fails without: a "cpu" backend of that file, and opencl.hpp its
// own).
TEST_F(InitShapes, BackendFilesBesideBackendFoldersJoinThemAndMakeNoBackendOfTheirOwn) {
  tree("keel", {"tests/test_memory.cpp"}, "-Iinclude");
  const json c = init();
  EXPECT_EQ(c.at("layers").at("backends"), json::parse(R"({"cuda": ["include/keel/linalg/cuda/**"],
                            "opencl": ["include/keel/linalg/opencl/**", "include/keel/backend/opencl.hpp"]})"))
      << text_;
  EXPECT_EQ(check(), std::set<Finding>{}) << text_;
}

// brook: devices/reference/ is compiled into the library itself (CMakeFiles/brook.dir, beside src/), while
// devices/cpu/ and devices/opencl/ are libraries of their own (OpenMM's platforms/reference/ in libOpenMM).
// The headers of it that the frontend and the other devices include (its constants and its noise source) are
// public: their use is no finding (fails without: EL100 and EL101 on src/filter.cpp, EL103 on devices/cpu/
// and devices/opencl/). Its own class, which only a test includes, stays its own (EL104). A build that
// compiles every device into the one library proposes nothing public.
TEST_F(InitShapes, TheHeadersOfABackendFolderBuiltIntoTheFrontendsLibraryThatOthersIncludeArePublic) {
  const std::vector<std::pair<std::string, std::string>> units = {
      {"src/filter.cpp", "CMakeFiles/brook.dir"},
      {"devices/reference/src/device.cpp", "CMakeFiles/brook.dir"},
      {"devices/reference/src/mixer.cpp", "CMakeFiles/brook.dir"},
      {"devices/reference/src/noise_source.cpp", "CMakeFiles/brook.dir"},
      {"devices/reference/src/resample.cpp", "CMakeFiles/brook.dir"},
      {"devices/cpu/src/device.cpp", "devices/cpu/CMakeFiles/brook_cpu.dir"},
      {"devices/cpu/src/mixer.cpp", "devices/cpu/CMakeFiles/brook_cpu.dir"},
      {"devices/cpu/src/resample.cpp", "devices/cpu/CMakeFiles/brook_cpu.dir"},
      {"devices/cpu/src/window.cpp", "devices/cpu/CMakeFiles/brook_cpu.dir"},
      {"devices/cpu/src/gain.cpp", "devices/cpu/CMakeFiles/brook_cpu.dir"},
      {"devices/cpu/src/fold.cpp", "devices/cpu/CMakeFiles/brook_cpu.dir"},
      {"devices/opencl/src/device.cpp", "devices/opencl/CMakeFiles/brook_opencl.dir"},
      {"devices/opencl/src/mixer.cpp", "devices/opencl/CMakeFiles/brook_opencl.dir"},
      {"devices/opencl/src/resample.cpp", "devices/opencl/CMakeFiles/brook_opencl.dir"},
      {"devices/opencl/src/window.cpp", "devices/opencl/CMakeFiles/brook_opencl.dir"},
      {"devices/opencl/src/gain.cpp", "devices/opencl/CMakeFiles/brook_opencl.dir"},
      {"devices/opencl/src/fold.cpp", "devices/opencl/CMakeFiles/brook_opencl.dir"},
      {"tests/test_filter.cpp", "tests/CMakeFiles/test_filter.dir"}};
  auto database = [&](bool one_library) {
    json db = json::array();
    for (const auto& [f, target] : units) {
      const std::string t = one_library && f.rfind("devices/", 0) == 0 ? "CMakeFiles/brook.dir" : target;
      db.push_back({{"directory", root_.string()},
                    {"file", f},
                    {"command", "c++ -std=c++17 -Iinclude -Idevices/reference/include -o " + t + "/" + f +
                                    ".o -c " + f}});
    }
    write_file(root_ / "build" / "compile_commands.json", db.dump(2));
  };
  tree("brook", {}, "");
  database(false);
  const json c = init();
  const json& reference = c.at("layers").at("backends").at("reference");
  ASSERT_TRUE(reference.is_object()) << text_;
  EXPECT_EQ(reference.at("public"),
            json({"devices/reference/include/dsp_constants.h", "devices/reference/include/noise_source.h"}))
      << text_;
  EXPECT_NE(text_.find("devices/reference/ is compiled into the frontend's brook (4 sources)"),
            std::string::npos)
      << text_;
  const std::set<Finding> want = expected(), got = check();
  EXPECT_EQ(want.size(), 3u) << show(want);
  EXPECT_EQ(got, want) << "expected:\n" << show(want) << "got:\n" << show(got);
  const Outcome a = run_in(root_, emberlint::test::emberlint() + " analyze -p build", scratch_);
  EXPECT_TRUE(a.exit_code == 0 || a.exit_code == 1) << a.out << a.err;

  fs::remove(root_ / ".emberlint.json");
  database(true);
  const json one = init();
  const json& b = one.at("layers").at("backends");
  ASSERT_TRUE(b.contains("reference")) << text_;
  EXPECT_FALSE(b.at("reference").is_object() && b.at("reference").contains("public")) << text_;
}

}  // namespace
