// ember vs raw Eigen, measured in the same run. Prints Google Benchmark's table, then the ratios:
//   add        16M float32      target: ember throughput >= 0.8x raw Eigen
//   matmul     1024^2 float32   target: >= 0.9x raw Eigen
//   dispatch   1-element add    target: <= 200 ns per op above raw Eigen
// Run: build/release/ember_bench [--benchmark_min_time=...]
#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "ember/ember.hpp"

namespace {

namespace ops = ember::ops;
using ember::DType;

constexpr std::int64_t kAddSize = 16 << 20;
constexpr std::int64_t kMatmulSize = 1024;

void BM_add_eigen_raw(benchmark::State& state) {
  Eigen::ArrayXf a = Eigen::ArrayXf::Random(kAddSize), b = Eigen::ArrayXf::Random(kAddSize);
  for (auto _ : state) {
    Eigen::ArrayXf c = a + b;  // a fresh output each time, like ember
    benchmark::DoNotOptimize(c.data());
  }
  state.SetBytesProcessed(state.iterations() * kAddSize * 12);
}

void BM_add_ember(benchmark::State& state, const std::string& backend) {
  ember::BackendScope scope(backend);
  ops::set_seed(1);
  const auto a = ops::random_uniform({kAddSize}), b = ops::random_uniform({kAddSize});
  for (auto _ : state) {
    auto c = ops::add(a, b);
    benchmark::DoNotOptimize(c.raw_data());
  }
  state.SetBytesProcessed(state.iterations() * kAddSize * 12);
}

void BM_matmul_eigen_raw(benchmark::State& state) {
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  M a = M::Random(kMatmulSize, kMatmulSize), b = M::Random(kMatmulSize, kMatmulSize);
  for (auto _ : state) {
    M c(kMatmulSize, kMatmulSize);
    c.noalias() = a * b;
    benchmark::DoNotOptimize(c.data());
  }
  state.SetItemsProcessed(state.iterations() * 2 * kMatmulSize * kMatmulSize * kMatmulSize);
}

void BM_matmul_ember(benchmark::State& state, const std::string& backend) {
  ember::BackendScope scope(backend);
  ops::set_seed(2);
  const auto a = ops::random_uniform({kMatmulSize, kMatmulSize});
  const auto b = ops::random_uniform({kMatmulSize, kMatmulSize});
  for (auto _ : state) {
    auto c = ops::matmul(a, b);
    benchmark::DoNotOptimize(c.raw_data());
  }
  state.SetItemsProcessed(state.iterations() * 2 * kMatmulSize * kMatmulSize * kMatmulSize);
}

void BM_dispatch_eigen_raw(benchmark::State& state) {
  Eigen::ArrayXf a = Eigen::ArrayXf::Constant(1, 1.0f), b = Eigen::ArrayXf::Constant(1, 2.0f);
  for (auto _ : state) {
    Eigen::ArrayXf c = a + b;
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_dispatch_ember(benchmark::State& state, const std::string& backend) {
  ember::BackendScope scope(backend);
  const auto a = ops::ones({1}), b = ops::ones({1});
  for (auto _ : state) {
    auto c = ops::add(a, b);
    benchmark::DoNotOptimize(c.raw_data());
  }
}

// Collects each run's mean real time per iteration (ns) by name for the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const auto& r : runs) {
      if (r.run_type == Run::RT_Iteration && r.error_occurred == false) {
        times_[r.benchmark_name()] = r.GetAdjustedRealTime() * multiplier(r.time_unit);
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  double ns(const std::string& name) const {
    auto it = times_.find(name);
    return it == times_.end() ? -1.0 : it->second;
  }

 private:
  static double multiplier(benchmark::TimeUnit u) {
    switch (u) {
      case benchmark::kNanosecond:
        return 1.0;
      case benchmark::kMicrosecond:
        return 1e3;
      case benchmark::kMillisecond:
        return 1e6;
      case benchmark::kSecond:
        break;
    }
    return 1e9;
  }
  std::map<std::string, double> times_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto backends = ember::registered_backends();
  benchmark::RegisterBenchmark("add_16M_f32/eigen_raw", BM_add_eigen_raw)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("matmul_1024_f32/eigen_raw", BM_matmul_eigen_raw)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("dispatch_add_1/eigen_raw", BM_dispatch_eigen_raw);
  for (const auto& b : backends) {
    benchmark::RegisterBenchmark(("add_16M_f32/ember_" + b).c_str(), BM_add_ember, b)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("matmul_1024_f32/ember_" + b).c_str(), BM_matmul_ember, b)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("dispatch_add_1/ember_" + b).c_str(), BM_dispatch_ember, b);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);

  std::printf("\n%-10s %-8s %14s %14s %12s %s\n", "benchmark", "backend", "raw eigen", "ember", "ratio",
              "target");
  for (const auto& b : backends) {
    const double add_raw = reporter.ns("add_16M_f32/eigen_raw"), add = reporter.ns("add_16M_f32/ember_" + b);
    const double mm_raw = reporter.ns("matmul_1024_f32/eigen_raw"),
                 mm = reporter.ns("matmul_1024_f32/ember_" + b);
    const double d_raw = reporter.ns("dispatch_add_1/eigen_raw"),
                 d = reporter.ns("dispatch_add_1/ember_" + b);
    if (add > 0 && add_raw > 0) {
      std::printf("%-10s %-8s %11.2f ms %11.2f ms %11.2fx %s\n", "add", b.c_str(), add_raw / 1e6, add / 1e6,
                  add_raw / add, ">= 0.80x throughput");
    }
    if (mm > 0 && mm_raw > 0) {
      std::printf("%-10s %-8s %11.2f ms %11.2f ms %11.2fx %s\n", "matmul", b.c_str(), mm_raw / 1e6, mm / 1e6,
                  mm_raw / mm, ">= 0.90x throughput");
    }
    if (d > 0 && d_raw > 0) {
      std::printf("%-10s %-8s %11.1f ns %11.1f ns %+9.1f ns %s\n", "dispatch", b.c_str(), d_raw, d, d - d_raw,
                  "<= +200 ns per op");
    }
  }
  benchmark::Shutdown();
  return 0;
}
