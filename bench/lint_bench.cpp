// emberlint's result cache, parallelism and scale, measured by running the emberlint executable over
// synthetic trees that bench/generate_tree.py writes in a temporary folder.
//
// emberlint_cache (24 translation units, or EMBERLINT_BENCH_UNITS). Each iteration times, with wall-clock
// time:
//   cold            check -j 2 with an empty cache: every unit parsed, every entry written
//   warm            the same again: every unit from the cache               target: <= 0.05x cold
//   header_changed  after an edit of shared_0.hpp: only the units that include it are analyzed again
//   j1, j2          check --no-cache with -j 1 and with -j 2                 j2_speedup = j1 / j2
// and reports the times (seconds) and the ratios warm_over_cold, header_changed_over_cold and j2_speedup as
// counters, with the units the header change re-analyzed (reanalyzed, from the run's statistics) and the CPU
// time ratios (*_cpu), which a busy machine does not distort. The iteration's own time is the cold run's.
//
// emberlint_scale (200, 500, 1000 and 2000 units, or EMBERLINT_BENCH_SCALE_UNITS=N,M,...): one iteration
// lints a --light tree of each size with `check -j 2 --no-cache` (its findings checked against the tree's
// expected_findings.json) and reports per_unit_ms_N (wall time per unit), cpu_per_unit_ms_N and wall_s_N,
// and linearity = per-unit cost at the largest size / at the smallest (near 1 when cost is linear), with
// linearity_cpu the same in CPU time (user + system of emberlint), which other load on the machine does not
// distort.
//
// Both also report their pairs for bench/report.sh as counters `vs:ROW:ember` (the measured side) and
// `vs:ROW:PEER` (its peer), in seconds: cache_warm vs cold, cache_header_changed vs cold, j2 vs j1 (and the
// same in CPU time), scale_per_unit_N vs per_unit_SMALLEST for every larger size N (and
// scale_cpu_per_unit_N).
//
// emberlint_analyze_cache: `emberlint analyze` of ember itself (this repository, with the build's compile
// database), cold (empty cache) and warm (unchanged tree: the inventory from the cache, nothing parsed), and
// the pair analyze_warm vs cold (target: warm <= 0.1x cold) in wall and CPU time. With
// EMBERLINT_BENCH_ANALYZE_SMALL=1 (report.sh --quick) the subject is tests/analyze/fixtures/class_shape.
//
// emberlint_analyze_vs_check: the cost of analyze's parse against check's, on the same compile database and
// the same sources: ember's three backend layers (`analyze -p BUILD` parses their 27 sources; `check -p BUILD
// backends/eigen backends/blas backends/opencl` lints the same units), both cold (--no-cache). Row
// analyze_cpu_per_unit vs check_cpu_per_unit: CPU seconds per unit analyzed (files_analyzed plus failures of
// each JSON report), the target at most 1.5x. With EMBERLINT_BENCH_ANALYZE_SMALL=1 the subject is
// tests/analyze/fixtures/class_shape.
//
// emberlint_lsp_edit: edit-to-diagnostic latency of `emberlint lsp` against a cold check of the unit (below).
//
// Run: build/release/emberlint_bench [--benchmark_filter=scale] [--benchmark_repetitions=N]
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lsp/client.hpp"
#include "lsp/document.hpp"

namespace fs = std::filesystem;

namespace {

// Appended piece by piece: GCC 12 misreads `"'" + std::string&&` as an overlapping copy (-Wrestrict).
std::string quoted(const fs::path& p) {
  std::string out = "'";
  out += p.string();
  out += "'";
  return out;
}

// User and system time of the finished child processes so far, in seconds.
double children_cpu() {
  struct rusage usage {};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// One run's wall-clock and CPU time, in seconds; wall < 0 when emberlint did not exit with 0 or 1.
struct Timing {
  double wall = -1, cpu = 0;
};

// Runs a shell command (an emberlint run) and times it; wall < 0 when it did not exit with 0 or 1.
Timing timed(const std::string& cmd) {
  const double cpu = children_cpu();
  auto start = std::chrono::steady_clock::now();
  int status = std::system(cmd.c_str());
  Timing t;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.cpu = children_cpu() - cpu;
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) t.wall = -1;
  return t;
}

// A generated tree and a cache folder beside it, removed at the end.
class Tree {
 public:
  // `light`: generate_tree.py --light (no heavy standard library headers; what the scale benchmark uses).
  explicit Tree(int units, bool light = false) {
    root_ = fs::temp_directory_path() / ("emberlint_bench_" + std::to_string(::getpid()));
    tree_ = root_ / "tree";
    fs::remove_all(root_);
    fs::create_directories(root_);
    std::string cmd = "'" EMBERLINT_PYTHON "' '" EMBERLINT_TREE_GENERATOR "' " + quoted(tree_) + " --units " +
                      std::to_string(units) + (light ? " --light" : "") + " 2>/dev/null";
    ok_ = std::system(cmd.c_str()) == 0;
  }
  ~Tree() { fs::remove_all(root_); }
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  bool ok() const { return ok_; }
  const fs::path& tree() const { return tree_; }
  fs::path cache() const { return root_ / "cache"; }

  // Runs `emberlint check -p build ARGS` in the tree. The JSON report goes to `stats` when given.
  Timing check(const std::string& args, nlohmann::json* stats = nullptr) const {
    const fs::path report = root_ / "report.json";
    std::string cmd = "cd " + quoted(tree_) + " && '" EMBERLINT_EXE "' check -p build " + args +
                      " --format json --statistics -o " + quoted(report) + " >/dev/null 2>&1";
    Timing t = timed(cmd);
    if (stats) {
      std::ifstream in(report);
      *stats = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    }
    return t;
  }

  // Edits shared_0.hpp (another text each time) and moves its mtime back, as the generator does.
  void change_header() {
    const fs::path header = tree_ / "frontend/include/ember/shared_0.hpp";
    std::ostringstream text;
    text << std::ifstream(header).rdbuf() << "// edit " << ++edits_ << "\n";
    std::ofstream(header) << text.str();
    fs::last_write_time(header, fs::file_time_type::clock::now() - std::chrono::hours(1));
  }

 private:
  fs::path root_, tree_;
  bool ok_ = false;
  int edits_ = 0;
};

// Records one pair for bench/report.sh: counters vs:ROW:ember and vs:ROW:PEER, in seconds.
void pair(benchmark::State& state, const std::string& row, double ember_s, const std::string& peer,
          double peer_s) {
  state.counters["vs:" + row + ":ember"] = ember_s;
  state.counters["vs:" + row + ":" + peer] = peer_s;
}

void BM_emberlint_cache(benchmark::State& state) {
  Tree tree(static_cast<int>(state.range(0)));
  if (!tree.ok()) {
    state.SkipWithError("bench/generate_tree.py failed");
    return;
  }
  const std::string cached = "-j 2 --cache-dir " + quoted(tree.cache());
  Timing cold, warm, changed, j1, j2;
  double reanalyzed = 0;
  auto add = [](Timing& sum, const Timing& t) {
    sum.wall += t.wall;
    sum.cpu += t.cpu;
  };
  cold.wall = warm.wall = changed.wall = j1.wall = j2.wall = 0;
  for (auto _ : state) {
    fs::remove_all(tree.cache());
    Timing c = tree.check(cached);
    Timing w = tree.check(cached);
    tree.change_header();
    nlohmann::json stats;
    Timing h = tree.check(cached, &stats);
    Timing s1 = tree.check("--no-cache -j 1");
    Timing s2 = tree.check("--no-cache -j 2");
    if (c.wall < 0 || w.wall < 0 || h.wall < 0 || s1.wall < 0 || s2.wall < 0 ||
        !stats.contains("statistics")) {
      state.SkipWithError("emberlint failed");
      return;
    }
    state.SetIterationTime(c.wall);
    add(cold, c);
    add(warm, w);
    add(changed, h);
    add(j1, s1);
    add(j2, s2);
    reanalyzed += stats["statistics"]["cache"]["misses"].get<double>();
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["units"] = static_cast<double>(state.range(0));
  state.counters["reanalyzed"] = reanalyzed / n;
  state.counters["cold_s"] = cold.wall / n;
  state.counters["warm_s"] = warm.wall / n;
  state.counters["header_changed_s"] = changed.wall / n;
  state.counters["j1_s"] = j1.wall / n;
  state.counters["j2_s"] = j2.wall / n;
  state.counters["warm_over_cold"] = warm.wall / cold.wall;
  state.counters["header_changed_over_cold"] = changed.wall / cold.wall;
  state.counters["j2_speedup"] = j1.wall / j2.wall;
  // CPU time (user + system) does not depend on what else the machine runs: the ratios to trust under load.
  state.counters["warm_over_cold_cpu"] = warm.cpu / cold.cpu;
  state.counters["header_changed_over_cold_cpu"] = changed.cpu / cold.cpu;
  pair(state, "cache_warm", warm.wall / n, "cold", cold.wall / n);
  pair(state, "cache_header_changed", changed.wall / n, "cold", cold.wall / n);
  pair(state, "j2", j2.wall / n, "j1", j1.wall / n);
  pair(state, "cache_warm_cpu", warm.cpu / n, "cold_cpu", cold.cpu / n);
  pair(state, "j2_cpu", j2.cpu / n, "j1_cpu", j1.cpu / n);
}

// Runs `emberlint analyze ARGS` in `folder`, its JSON report to `report`.
Timing analyze(const fs::path& folder, const std::string& args, const fs::path& report) {
  std::string cmd = "cd " + quoted(folder) + " && '" EMBERLINT_EXE "' analyze " + args + " -o " +
                    quoted(report) + " >/dev/null 2>&1";
  return timed(cmd);
}

std::string slurp(const fs::path& p) {
  std::ostringstream s;
  s << std::ifstream(p).rdbuf();
  return s.str();
}

void BM_emberlint_analyze_cache(benchmark::State& state) {
  const bool small = std::getenv("EMBERLINT_BENCH_ANALYZE_SMALL") != nullptr;
  const fs::path folder = small ? fs::path(EMBERLINT_SOURCE_ROOT) / "tests/analyze/fixtures/class_shape"
                                : fs::path(EMBERLINT_SOURCE_ROOT);
  const std::string build = small ? "" : "-p " + quoted(EMBERLINT_BUILD_DIR) + " ";
  const fs::path work = fs::temp_directory_path() / ("emberlint_bench_analyze_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  const std::string args = build + "--cache-dir " + quoted(work / "cache");
  Timing cold{0, 0}, warm{0, 0};
  for (auto _ : state) {
    fs::remove_all(work / "cache");
    Timing c = analyze(folder, args, work / "cold.json");
    Timing w = analyze(folder, args, work / "warm.json");
    if (c.wall < 0 || w.wall < 0) {
      state.SkipWithError("emberlint analyze failed");
      break;
    }
    if (slurp(work / "cold.json") != slurp(work / "warm.json")) {
      state.SkipWithError("the warm run's inventory differs from the cold run's");
      break;
    }
    state.SetIterationTime(c.wall);
    cold.wall += c.wall;
    cold.cpu += c.cpu;
    warm.wall += w.wall;
    warm.cpu += w.cpu;
  }
  fs::remove_all(work);
  const double n = static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
  state.counters["cold_s"] = cold.wall / n;
  state.counters["warm_s"] = warm.wall / n;
  state.counters["warm_over_cold"] = warm.wall / cold.wall;
  pair(state, "analyze_warm", warm.wall / n, "cold", cold.wall / n);
  pair(state, "analyze_warm_cpu", warm.cpu / n, "cold_cpu", cold.cpu / n);
}

// The units a report says were looked at: analyzed, and tried but failed.
double units_of_report(const fs::path& report) {
  std::ifstream in(report);
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("files_analyzed")) return 0;
  const double failed = doc.contains("failures") ? static_cast<double>(doc["failures"].size()) : 0;
  return doc["files_analyzed"].get<double>() + failed;
}

void BM_emberlint_analyze_vs_check(benchmark::State& state) {
  const bool small = std::getenv("EMBERLINT_BENCH_ANALYZE_SMALL") != nullptr;
  const fs::path folder = small ? fs::path(EMBERLINT_SOURCE_ROOT) / "tests/analyze/fixtures/class_shape"
                                : fs::path(EMBERLINT_SOURCE_ROOT);
  const std::string build = small ? "" : "-p " + quoted(EMBERLINT_BUILD_DIR) + " ";
  const std::string sources = small ? "" : " backends/eigen backends/blas backends/opencl";
  const fs::path work =
      fs::temp_directory_path() / ("emberlint_bench_analyze_check_" + std::to_string(::getpid()));
  fs::remove_all(work);
  fs::create_directories(work);
  double analyze_cpu = 0, check_cpu = 0, analyze_units = 0, check_units = 0;
  for (auto _ : state) {
    Timing a = analyze(folder, build + "--no-cache", work / "analyze.json");
    Timing c = timed("cd " + quoted(folder) + " && '" EMBERLINT_EXE "' check " + build + "--no-cache" +
                     sources + " --format json -o " + quoted(work / "check.json") + " >/dev/null 2>&1");
    const double au = units_of_report(work / "analyze.json"), cu = units_of_report(work / "check.json");
    if (a.wall < 0 || c.wall < 0 || au == 0 || cu == 0) {
      state.SkipWithError("emberlint analyze or check failed, or looked at no unit");
      break;
    }
    state.SetIterationTime(a.wall);
    analyze_cpu += a.cpu;
    check_cpu += c.cpu;
    analyze_units += au;
    check_units += cu;
  }
  fs::remove_all(work);
  if (analyze_units == 0 || check_units == 0) return;
  const double n = static_cast<double>(std::max<benchmark::IterationCount>(1, state.iterations()));
  state.counters["analyze_units"] = analyze_units / n;
  state.counters["check_units"] = check_units / n;
  pair(state, "analyze_cpu_per_unit", analyze_cpu / analyze_units, "check_cpu_per_unit",
       check_cpu / check_units);
}

// The sizes of the scale benchmark: EMBERLINT_BENCH_SCALE_UNITS=N,M,... (each at least 1), else the issue's.
std::vector<int> scale_sizes() {
  std::vector<int> sizes;
  if (const char* env = std::getenv("EMBERLINT_BENCH_SCALE_UNITS")) {
    std::stringstream list(env);
    for (std::string item; std::getline(list, item, ',');) {
      if (int n = std::atoi(item.c_str()); n >= 1) sizes.push_back(n);
    }
  }
  if (sizes.empty()) sizes = {200, 500, 1000, 2000};
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// True when the run's --statistics hold exactly the counts the generator promised.
bool findings_as_expected(const Tree& tree, const nlohmann::json& report) {
  std::ifstream in(tree.tree() / "expected_findings.json");
  const auto expected = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!expected.contains("counts") || !report.contains("statistics")) return false;
  for (const auto& [code, count] : expected["counts"].items()) {
    if (report["statistics"].value(code, -1) != count.get<int>()) return false;
  }
  return report.value("failures", nlohmann::json::array()).empty() &&
         report.value("diagnostics", nlohmann::json::array()).size() == expected["findings"].size();
}

void BM_emberlint_scale(benchmark::State& state) {
  const std::vector<int> sizes = scale_sizes();
  std::vector<Timing> per_unit(sizes.size(), Timing{0, 0});  // seconds per unit, summed over iterations
  for (auto _ : state) {
    double total = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      Tree tree(sizes[i], /*light=*/true);
      if (!tree.ok()) {
        state.SkipWithError("bench/generate_tree.py failed");
        return;
      }
      nlohmann::json report;
      const Timing t = tree.check("--no-cache -j 2", &report);
      if (t.wall < 0 || !findings_as_expected(tree, report)) {
        state.SkipWithError(
            ("emberlint failed or lost findings at " + std::to_string(sizes[i]) + " units").c_str());
        return;
      }
      per_unit[i].wall += t.wall / sizes[i];
      per_unit[i].cpu += t.cpu / sizes[i];
      total += t.wall;
    }
    state.SetIterationTime(total);
  }
  const double n = static_cast<double>(state.iterations());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::string size = std::to_string(sizes[i]);
    state.counters["per_unit_ms_" + size] = 1000 * per_unit[i].wall / n;
    state.counters["cpu_per_unit_ms_" + size] = 1000 * per_unit[i].cpu / n;
    state.counters["wall_s_" + size] = per_unit[i].wall * sizes[i] / n;
    if (i > 0) {
      const std::string smallest = std::to_string(sizes[0]);
      pair(state, "scale_per_unit_" + size, per_unit[i].wall / n, "per_unit_" + smallest,
           per_unit[0].wall / n);
      pair(state, "scale_cpu_per_unit_" + size, per_unit[i].cpu / n, "cpu_per_unit_" + smallest,
           per_unit[0].cpu / n);
    }
  }
  state.counters["linearity"] = per_unit.back().wall / per_unit.front().wall;
  state.counters["linearity_cpu"] = per_unit.back().cpu / per_unit.front().cpu;
}

int units() {
  const char* env = std::getenv("EMBERLINT_BENCH_UNITS");
  int n = env ? std::atoi(env) : 0;
  return n >= 1 ? n : 24;
}

// emberlint_lsp_edit: `emberlint lsp` on ember itself (the build's compile database), one server for the run.
// The unit frontend/src/math_ops.cpp is opened, then edited EMBERLINT_BENCH_LSP_EDITS times (default 5; a
// comment appended, a new text each time); each edit is timed from the didChange sent to the
// publishDiagnostics of that version received (the server's debounce included). Its peer is what the editor
// would otherwise wait for: a cold `emberlint check --no-cache` of the same unit, timed as a process. The
// server runs with a result cache of its own, as editors run it. Pair:
// lsp_edit_to_diagnostic vs cold_check (target: <= 1.0x).
void BM_emberlint_lsp_edit(benchmark::State& state) {
  using emberlint::lsp::Client;
  using nlohmann::json;
  const fs::path root = EMBERLINT_SOURCE_ROOT;
  const fs::path file = root / "frontend/src/math_ops.cpp";
  const std::string uri = emberlint::lsp::path_to_uri(file);
  const char* env = std::getenv("EMBERLINT_BENCH_LSP_EDITS");
  const int edits = env && std::atoi(env) >= 1 ? std::atoi(env) : 5;
  const std::string text = slurp(file);
  double edit_total = 0, cold_total = 0;
  int measured = 0;
  for (auto _ : state) {
    // Without the build's database (a build that does not export it) both sides take the flags from ember's
    // .emberlint.json.
    std::error_code ec;
    const bool database = fs::is_regular_file(fs::path(EMBERLINT_BUILD_DIR) / "compile_commands.json", ec);
    // The server keeps its result cache (a fresh one), as editors run it: the edited unit is analyzed anew on
    // every edit, the headers it includes come from the entries the open made.
    const fs::path cache = fs::temp_directory_path() / ("emberlint_bench_lsp_" + std::to_string(::getpid()));
    fs::remove_all(cache);
    std::vector<std::string> argv = {EMBERLINT_EXE, "lsp", "--cache-dir", cache.string()};
    if (database) argv.insert(argv.end(), {"-p", EMBERLINT_BUILD_DIR});
    Client client(argv, root.string());
    const int init = client.request(
        "initialize", {{"rootUri", emberlint::lsp::path_to_uri(root)}, {"capabilities", json::object()}});
    if (!client.response(init, std::chrono::seconds(30))) {
      state.SkipWithError("emberlint lsp did not answer initialize");
      return;
    }
    client.notify("initialized", json::object());
    client.notify("textDocument/didOpen",
                  {{"textDocument", {{"uri", uri}, {"languageId", "cpp"}, {"version", 0}, {"text", text}}}});
    if (!client.diagnostics(uri, std::chrono::seconds(120))) {
      state.SkipWithError("no diagnostics for the opened file");
      return;
    }
    for (int k = 1; k <= edits; ++k) {
      const std::string edited = text + "// edit " + std::to_string(k) + "\n";
      auto start = std::chrono::steady_clock::now();
      client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", k}}},
                                               {"contentChanges", json::array({{{"text", edited}}})}});
      auto published = client.wait_for(
          [&](const json& m) {
            return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri &&
                   m["params"].value("version", -1) == k;
          },
          std::chrono::seconds(120));
      if (!published) {
        state.SkipWithError("no diagnostics after an edit");
        return;
      }
      edit_total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const std::string cmd = "cd " + quoted(root) + " && '" EMBERLINT_EXE "' check --no-cache " +
                              (database ? "-p " + quoted(EMBERLINT_BUILD_DIR) + " " : std::string()) +
                              quoted(file) + " >/dev/null 2>&1";
      Timing cold = timed(cmd);
      if (cold.wall < 0) {
        state.SkipWithError("emberlint check of the unit failed");
        return;
      }
      cold_total += cold.wall;
      ++measured;
    }
    client.request("shutdown", nullptr);
    client.notify("exit", nullptr);
    client.finish(std::chrono::seconds(30));
    fs::remove_all(cache);
    state.SetIterationTime(edit_total / measured);
  }
  const double n = std::max(1, measured);
  state.counters["edit_to_diagnostic_s"] = edit_total / n;
  state.counters["cold_check_s"] = cold_total / n;
  pair(state, "lsp_edit_to_diagnostic", edit_total / n, "cold_check", cold_total / n);
}

BENCHMARK(BM_emberlint_cache)->Arg(units())->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_emberlint_analyze_cache)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_emberlint_analyze_vs_check)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_emberlint_scale)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_emberlint_lsp_edit)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
