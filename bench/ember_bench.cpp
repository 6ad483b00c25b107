// Every ember backend vs the raw libraries, measured in the same run. Prints Google Benchmark's table, then
// the ratios:
//   add        16M float32      target: ember throughput >= 0.8x raw Eigen (host backends); opencl: reported
//   matmul     1024^2 float32   target: >= 0.9x raw Eigen (eigen), >= 0.9x raw cblas_sgemm (blas);
//                               opencl: reported against the eigen backend
//   dispatch   1-element add    target: <= 200 ns per op above raw Eigen
//   fusion     exp(-x) + sqrt(x*x + y*x*y) * 0.5 and a 10-op chain, 16M float32, lazy (fused) vs eager on
//              each backend      target: fused >= 3x faster than eager on eigen and on opencl
// Every ember iteration evaluates its result (ember::eval) and ends with ops::synchronize, so asynchronous
// (OpenCL) work is inside the timing. Run: build/release/ember_bench [--benchmark_min_time=...];
// OPENBLAS_CORETYPE=Haswell selects OpenBLAS's AVX2 kernels on AVX-512 machines (the default there is
// SkylakeX).
#include <benchmark/benchmark.h>

#include <cblas.h>

#include <Eigen/Core>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
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
    auto c = ember::eval(ops::add(a, b));
    ops::synchronize(c.device());
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

void BM_matmul_cblas_raw(benchmark::State& state) {
  std::vector<float> a(kMatmulSize * kMatmulSize), b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i % 97) / 97.0f;
    b[i] = static_cast<float>(i % 89) / 89.0f;
  }
  const int n = static_cast<int>(kMatmulSize);
  for (auto _ : state) {
    std::vector<float> c(a.size());  // a fresh output each time, like ember
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                c.data(), n);
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
    ops::synchronize(c.device());
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
    auto c = ops::add(a, b);  // 1 element: below fusion_min_elements(), computed at once
    ops::synchronize(c.device());
    benchmark::DoNotOptimize(c.raw_data());
  }
}

// The expression: exp(-x) + sqrt(x*x + y*x*y) * 0.5 (seven ops and a scalar).
ember::Tensor expression(const ember::Tensor& x, const ember::Tensor& y) {
  return ops::add(
      ops::exp(ops::negative(x)),
      ops::multiply(ops::sqrt(ops::add(ops::multiply(x, x), ops::multiply(ops::multiply(y, x), y))), 0.5));
}

// Ten element-wise ops (and three scalars) in a row: scale, shift, abs, sqrt, subtract, multiply, negate,
// exp, scale, add.
ember::Tensor chain10(const ember::Tensor& x, const ember::Tensor& y) {
  ember::Tensor t = ops::add(ops::multiply(x, y), 1.0);
  t = ops::multiply(ops::subtract(ops::sqrt(ops::abs(t)), y), x);
  t = ops::exp(ops::negative(t));
  return ops::add(ops::multiply(t, 0.5), x);
}

// The expression with one sync in the middle, as a scalar extraction or a tensor in a condition
// (EL300, EL201) forces: the pending sqrt(...) term is evaluated on its own before the rest is built.
ember::Tensor expression_split(const ember::Tensor& x, const ember::Tensor& y) {
  const ember::Tensor root =
      ember::eval(ops::sqrt(ops::add(ops::multiply(x, x), ops::multiply(ops::multiply(y, x), y))));
  return ops::add(ops::exp(ops::negative(x)), ops::multiply(root, 0.5));
}

// f on two 16M float32 tensors, lazily (one fused program) or eagerly (one backend call per op).
void BM_fusion(benchmark::State& state, const std::string& backend, bool fused,
               ember::Tensor (*f)(const ember::Tensor&, const ember::Tensor&)) {
  ember::BackendScope scope(backend);
  ops::set_seed(3);
  const auto x = ops::random_uniform({kAddSize}, 0.0, 2.0), y = ops::random_uniform({kAddSize}, -1.0, 1.0);
  ember::set_eager(!fused);
  ember::eval(f(x, y));  // OpenCL builds its kernels (generated ones too) before the timing
  ops::synchronize(x.device());
  for (auto _ : state) {
    auto c = ember::eval(f(x, y));
    ops::synchronize(c.device());
    benchmark::DoNotOptimize(c.raw_data());
  }
  ember::set_eager(false);
  state.SetItemsProcessed(state.iterations() * kAddSize);
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
  benchmark::RegisterBenchmark("matmul_1024_f32/cblas_raw", BM_matmul_cblas_raw)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("dispatch_add_1/eigen_raw", BM_dispatch_eigen_raw);
  for (const auto& b : backends) {
    benchmark::RegisterBenchmark(("add_16M_f32/ember_" + b).c_str(), BM_add_ember, b)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("matmul_1024_f32/ember_" + b).c_str(), BM_matmul_ember, b)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("dispatch_add_1/ember_" + b).c_str(), BM_dispatch_ember, b);
    for (const auto& [name, f] :
         {std::pair{"fusion_expr_16M_f32", &expression}, std::pair{"fusion_chain10_16M_f32", &chain10}}) {
      benchmark::RegisterBenchmark((std::string(name) + "/ember_" + b + "_fused").c_str(), BM_fusion, b, true,
                                   f)
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((std::string(name) + "/peer_" + b + "_eager").c_str(), BM_fusion, b, false,
                                   f)
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("fusion_expr_16M_f32/peer_" + b + "_one_sync").c_str(), BM_fusion, b, true,
                                 &expression_split)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);

  // Each row: the peer (a raw library, or the eigen backend for opencl), ember, peer time / ember time.
  std::printf("\n%-10s %-8s %-12s %14s %14s %12s %s\n", "benchmark", "backend", "peer", "peer time", "ember",
              "ratio", "target");
  const auto row = [&](const char* what, const std::string& backend, const char* peer_name,
                       const std::string& peer, const std::string& ember_run, const char* target) {
    const double p = reporter.ns(peer), e = reporter.ns(ember_run);
    if (p <= 0 || e <= 0) return;
    std::printf("%-10s %-8s %-12s %11.2f ms %11.2f ms %11.2fx %s\n", what, backend.c_str(), peer_name,
                p / 1e6, e / 1e6, p / e, target);
  };
  for (const auto& b : backends) {
    const bool host = b != "opencl";
    row("add", b, host ? "raw Eigen" : "eigen", host ? "add_16M_f32/eigen_raw" : "add_16M_f32/ember_eigen",
        "add_16M_f32/ember_" + b, host ? ">= 0.80x throughput" : "reported");
    if (b == "blas") {
      row("matmul", b, "raw cblas", "matmul_1024_f32/cblas_raw", "matmul_1024_f32/ember_blas",
          ">= 0.90x throughput");
    } else {
      row("matmul", b, host ? "raw Eigen" : "eigen",
          host ? "matmul_1024_f32/eigen_raw" : "matmul_1024_f32/ember_eigen", "matmul_1024_f32/ember_" + b,
          host ? ">= 0.90x throughput" : "reported");
    }
    const double d_raw = reporter.ns("dispatch_add_1/eigen_raw"),
                 d = reporter.ns("dispatch_add_1/ember_" + b);
    if (d > 0 && d_raw > 0) {
      std::printf("%-10s %-8s %-12s %11.1f ns %11.1f ns %+9.1f ns %s\n", "dispatch", b.c_str(), "raw Eigen",
                  d_raw, d, d - d_raw, host ? "<= +200 ns per op" : "reported (a kernel launch)");
    }
    const char* fusion_target = b == "blas" ? "reported" : ">= 3x faster";
    row("fused expr", b, "eager", "fusion_expr_16M_f32/peer_" + b + "_eager",
        "fusion_expr_16M_f32/ember_" + b + "_fused", fusion_target);
    row("fused expr", b, "1 sync", "fusion_expr_16M_f32/peer_" + b + "_one_sync",
        "fusion_expr_16M_f32/ember_" + b + "_fused", "reported (EL201/EL300 cost)");
    row("fused 10op", b, "eager", "fusion_chain10_16M_f32/peer_" + b + "_eager",
        "fusion_chain10_16M_f32/ember_" + b + "_fused", fusion_target);
  }
  benchmark::Shutdown();
  return 0;
}
