// Every ember backend vs its peers, measured in the same run: raw Eigen written the fastest way (the output
// allocated once and reused, as a user who cares would write it), raw OpenBLAS for matmul, NumPy and PyTorch
// (bench/numpy_bench.py, bench/torch_bench.py: the same cases under the same GROUP names, joined by
// bench/report.sh), and the memory limit (bench/memory_bandwidth.cpp's STREAM loops). Cases per op
// family, at 1K, 64K and 16M elements (32x32, 256x256 and 4096x4096 for 2-d cases): element-wise binary,
// broadcast, into a given output (out=), unary and transcendental (exp, log; exp also in float64); fused
// chains; reductions (full and per axis); layout (transpose + copy, concatenate, slice); random uniform and
// normal; sort (64K and 1M); matmul (256, 1024); a dense layer (relu(x @ w + b), 256); solve (128, 512).
// Names follow bench/report.sh's convention:
// GROUP/ember_BACKEND, GROUP/eigen_raw, GROUP/peer_B_... .
//
// Also: dispatch (1-element add, the per-op overhead; raw OpenCL's launch and wait as its peer on OpenCL) and
// fusion (exp(-x) + sqrt(x*x + y*x*y) * 0.5 and a 10-op chain, lazy vs eager on each backend). Every ember
// iteration evaluates its result (ember::eval) and ends with ops::synchronize, so asynchronous (OpenCL) work
// is inside the timing; one untimed run first builds OpenCL kernels. Run: build/release/ember_bench
// [--benchmark_filter=...]; the one report with NumPy: bench/report.sh. OPENBLAS_CORETYPE=Haswell selects
// OpenBLAS's AVX2 kernels on AVX-512 machines.
#include <benchmark/benchmark.h>

#include <CL/cl.h>
#include <cblas.h>

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ember/ember.hpp"
#include "memory_bandwidth.hpp"

namespace {

namespace ops = ember::ops;
using ember::DType;
using ember::Tensor;

constexpr std::int64_t kAddSize = 16 << 20;
constexpr std::int64_t kMatmulSize = 1024;

using RowArray = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// ---- the cases: sizes ------------------------------------------------------------------------------------

struct Size {
  const char* label;  // "1K", "64K", "16M"
  std::int64_t side;  // 2-d cases are side x side; 1-d cases have side * side elements
};
constexpr Size kSizes[] = {{"1K", 32}, {"64K", 256}, {"16M", 4096}};
// Sorting 16M floats takes seconds even for NumPy: 64K and 1M keep the report run short.
constexpr Size kSortSizes[] = {{"64K", 256}, {"1M", 1024}};

std::string group(const char* op, const Size& size, const char* dtype = "f32") {
  return std::string(op) + "_" + size.label + "_" + dtype;
}

// ---- ember: one benchmark per (case, backend) -------------------------------------------------------------

using Inputs = std::vector<Tensor>;
struct EmberCase {
  std::string group;
  std::function<Inputs()> make;  // run once per backend, outside the timing
  std::function<Tensor(const Inputs&)> run;
  // Memory-bound cases: the bytes one run must move at least (each input element read and each output
  // element written once; a strided read counts the whole lines it touches), the counter `bytes`;
  // and, when that is at least 64 MiB (the 16M cases: twice the L3, so the data comes from memory), the
  // STREAM loop of the same pattern (bench/memory_bandwidth.cpp: "read", "copy", "add") whose bandwidth
  // bench/report.sh takes as the case's limit, as the label "memory-bound: PATTERN".
  std::int64_t bytes = 0;
  const char* pattern = nullptr;
};

void BM_ember_case(benchmark::State& state, const std::string& backend, const EmberCase& c) {
  ember::BackendScope scope(backend);
  ops::set_seed(7);
  Inputs in = c.make();
  for (Tensor& t : in) t = ember::eval(t);
  ops::synchronize(ember::eval(c.run(in)).device());  // kernels built, caches warm
  for (auto _ : state) {
    const Tensor r = ember::eval(c.run(in));
    ops::synchronize(r.device());
    benchmark::DoNotOptimize(r.raw_data());
  }
  if (c.bytes > 0) {
    state.counters["bytes"] = static_cast<double>(c.bytes);
    if (c.pattern != nullptr && c.bytes >= kAddSize * std::int64_t{sizeof(float)}) {
      state.SetLabel(std::string("memory-bound: ") + c.pattern);
    }
  }
}

Tensor uniform(const ember::Shape& shape, DType dtype = DType::float32) {
  return ops::random_uniform(shape, -1.0, 1.0, dtype);
}

std::vector<EmberCase> ember_cases() {
  std::vector<EmberCase> cases;
  for (const Size& z : kSizes) {
    const std::int64_t n = z.side * z.side, side = z.side;
    constexpr std::int64_t f = sizeof(float);
    const auto one = [n] { return Inputs{uniform({n})}; };
    const auto two = [n] { return Inputs{uniform({n}), uniform({n})}; };
    const auto square = [side] { return Inputs{uniform({side, side})}; };
    cases.push_back(
        {group("add", z), two, [](const Inputs& x) { return ops::add(x[0], x[1]); }, 3 * n * f, "add"});
    cases.push_back({group("add_bcast", z),
                     [side] {
                       return Inputs{uniform({side, side}), uniform({side})};
                     },
                     [](const Inputs& x) { return ops::add(x[0], x[1]); }, (2 * n + side) * f, "copy"});
    // out=: the result written into a tensor made once (NumPy: np.add(a, b, out=c)).
    cases.push_back({group("add_out", z),
                     [n] {
                       return Inputs{uniform({n}), uniform({n}), ops::zeros({n})};
                     },
                     [](const Inputs& x) { return ember::eval_into(ops::add(x[0], x[1]), x[2]); }, 3 * n * f,
                     "add"});
    // where(c, x, y) with c (n, n) bool, x a row (n,) and y a column (n, 1)
    cases.push_back(
        {group("where_bcast", z),
         [side] {
           return Inputs{ops::greater(uniform({side, side}), 0.0), uniform({side}), uniform({side, 1})};
         },
         [](const Inputs& x) { return ops::where(x[0], x[1], x[2]); }, n + (n + 2 * side) * f, "copy"});
    cases.push_back(
        {group("abs", z), one, [](const Inputs& x) { return ops::abs(x[0]); }, 2 * n * f, "copy"});
    cases.push_back(
        {group("exp", z), one, [](const Inputs& x) { return ops::exp(x[0]); }, 2 * n * f, "copy"});
    cases.push_back({group("log", z), [n] { return Inputs{ops::add(uniform({n}), 2.0)}; },  // on [1, 3)
                     [](const Inputs& x) { return ops::log(x[0]); }, 2 * n * f, "copy"});
    cases.push_back({group("exp", z, "f64"), [n] { return Inputs{uniform({n}, DType::float64)}; },
                     [](const Inputs& x) { return ops::exp(x[0]); }, 2 * n * 8, "copy"});
    cases.push_back({group("sum", z), one, [](const Inputs& x) { return ops::sum(x[0]); }, n * f, "read"});
    cases.push_back({group("sum_axis0", z), square, [](const Inputs& x) { return ops::sum(x[0], {{0}}); },
                     (n + side) * f, "read"});
    cases.push_back({group("sum_axis1", z), square, [](const Inputs& x) { return ops::sum(x[0], {{1}}); },
                     (n + side) * f, "read"});
    // ember's transpose and slice return new contiguous tensors: NumPy's x.T.copy() and x[...].copy().
    cases.push_back({group("transpose_copy", z), square, [](const Inputs& x) { return ops::transpose(x[0]); },
                     2 * n * f, "copy"});
    cases.push_back({group("concatenate", z),
                     [n] {
                       return Inputs{uniform({n / 2}), uniform({n / 2})};
                     },
                     [](const Inputs& x) {
                       return ops::concatenate({x[0], x[1]});
                     },
                     2 * n * f, "copy"});
    // x[1:-1, ::2]
    // every other element of rows 1 to side - 2: those rows' every line is read
    cases.push_back({group("slice", z), square,
                     [](const Inputs& x) {
                       return ops::slice(x[0], {{1, -1, 1}, {std::nullopt, std::nullopt, 2}});
                     },
                     (side - 2) * (side + side / 2) * f, "copy"});
    cases.push_back({group("random_uniform", z), [] { return Inputs{}; },
                     [n](const Inputs&) { return ops::random_uniform({n}); }});
    cases.push_back({group("random_normal", z), [] { return Inputs{}; },
                     [n](const Inputs&) { return ops::random_normal({n}); }});
    cases.push_back({group("random_exponential", z), [] { return Inputs{}; },
                     [n](const Inputs&) { return ops::random_exponential({n}); }});
    cases.push_back({group("random_gamma", z), [] { return Inputs{}; },
                     [n](const Inputs&) { return ops::random_gamma({n}, 2.0); }});
  }
  for (const Size& z : kSortSizes) {
    const std::int64_t n = z.side * z.side;
    cases.push_back({group("sort", z), [n] { return Inputs{uniform({n})}; },
                     [](const Inputs& x) { return ops::sort(x[0]); }});
  }
  for (std::int64_t n : {256, 1024}) {
    cases.push_back({"matmul_" + std::to_string(n) + "_f32",
                     [n] {
                       return Inputs{uniform({n, n}), uniform({n, n})};
                     },
                     [](const Inputs& x) { return ops::matmul(x[0], x[1]); }});
  }
  // A dense layer, relu(x @ w + b): element-wise work right after OpenBLAS's threads, as a network's loop has
  // it (host threads that kept spinning would take a core from the next matmul).
  cases.push_back(
      {"dense_relu_256_f32",
       [] {
         return Inputs{uniform({256, 256}), uniform({256, 256}), uniform({256}), ops::zeros({})};
       },
       [](const Inputs& x) { return ops::maximum(ops::add(ops::matmul(x[0], x[1]), x[2]), x[3]); }});
  for (std::int64_t n : {128, 512}) {
    cases.push_back({"solve_" + std::to_string(n) + "_f64",
                     [n] {
                       // diagonally dominant: well conditioned
                       const Tensor a = ops::add(uniform({n, n}, DType::float64),
                                                 ops::multiply(ops::eye(n, std::nullopt, 0, DType::float64),
                                                               static_cast<double>(n)));
                       return Inputs{a, uniform({n}, DType::float64)};
                     },
                     [](const Inputs& x) { return ops::solve(x[0], x[1]); }});
  }
  return cases;
}

// ---- raw Eigen: the fastest plain way, output allocated once ----------------------------------------------

// Runs body() in the timing loop; the arrays it writes were sized before.
template <class Body>
void time_raw(benchmark::State& state, Body&& body) {
  body();
  for (auto _ : state) {
    body();
    benchmark::ClobberMemory();
  }
}

void register_eigen_raw() {
  const auto reg = [](const std::string& name, std::function<void(benchmark::State&)> f) {
    benchmark::RegisterBenchmark((name + "/eigen_raw").c_str(), std::move(f))->Unit(benchmark::kMillisecond);
  };
  for (const Size& z : kSizes) {
    const Eigen::Index n = z.side * z.side, side = z.side;
    reg(group("add", z), [n](benchmark::State& st) {
      const Eigen::ArrayXf a = Eigen::ArrayXf::Random(n), b = Eigen::ArrayXf::Random(n);
      Eigen::ArrayXf c(n);
      time_raw(st, [&] { c = a + b; });
    });
    reg(group("add_bcast", z), [side](benchmark::State& st) {
      const RowArray a = RowArray::Random(side, side);
      const Eigen::Array<float, 1, Eigen::Dynamic> b = Eigen::Array<float, 1, Eigen::Dynamic>::Random(side);
      RowArray c(side, side);
      time_raw(st, [&] { c = a.rowwise() + b; });
    });
    reg(group("abs", z), [n](benchmark::State& st) {
      const Eigen::ArrayXf a = Eigen::ArrayXf::Random(n);
      Eigen::ArrayXf c(n);
      time_raw(st, [&] { c = a.abs(); });
    });
    reg(group("exp", z), [n](benchmark::State& st) {
      const Eigen::ArrayXf a = Eigen::ArrayXf::Random(n);
      Eigen::ArrayXf c(n);
      time_raw(st, [&] { c = a.exp(); });
    });
    reg(group("sum", z), [n](benchmark::State& st) {
      const Eigen::ArrayXf a = Eigen::ArrayXf::Random(n);
      float s = 0;
      time_raw(st, [&] { benchmark::DoNotOptimize(s = a.sum()); });
    });
    reg(group("sum_axis0", z), [side](benchmark::State& st) {
      const RowArray a = RowArray::Random(side, side);
      Eigen::Array<float, 1, Eigen::Dynamic> c(side);
      time_raw(st, [&] { c = a.colwise().sum(); });
    });
    reg(group("sum_axis1", z), [side](benchmark::State& st) {
      const RowArray a = RowArray::Random(side, side);
      Eigen::ArrayXf c(side);
      time_raw(st, [&] { c = a.rowwise().sum(); });
    });
    reg(group("transpose_copy", z), [side](benchmark::State& st) {
      const RowArray a = RowArray::Random(side, side);
      RowArray c(side, side);
      time_raw(st, [&] { c = a.transpose(); });
    });
    reg(group("concatenate", z), [n](benchmark::State& st) {
      const Eigen::ArrayXf a = Eigen::ArrayXf::Random(n / 2), b = Eigen::ArrayXf::Random(n / 2);
      Eigen::ArrayXf c(n);
      time_raw(st, [&] { c << a, b; });
    });
    reg(group("slice", z), [side](benchmark::State& st) {
      const RowArray a = RowArray::Random(side, side);
      RowArray c(side - 2, side / 2);
      using Strided = Eigen::Map<const RowArray, 0, Eigen::Stride<Eigen::Dynamic, 2>>;
      time_raw(st, [&] {
        c = Strided(a.data() + side, side - 2, side / 2, Eigen::Stride<Eigen::Dynamic, 2>(side, 2));
      });
    });
  }
  for (const Size& z : kSortSizes) {
    const Eigen::Index n = z.side * z.side;
    reg(group("sort", z), [n](benchmark::State& st) {
      const Eigen::ArrayXf a = Eigen::ArrayXf::Random(n);
      Eigen::ArrayXf c(n);
      time_raw(st, [&] {
        c = a;
        std::sort(c.data(), c.data() + n);
      });
    });
  }
  for (Eigen::Index n : {256, 1024}) {
    reg("matmul_" + std::to_string(n) + "_f32", [n](benchmark::State& st) {
      using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      const M a = M::Random(n, n), b = M::Random(n, n);
      M c(n, n);
      time_raw(st, [&] { c.noalias() = a * b; });
    });
  }
  for (Eigen::Index n : {128, 512}) {
    reg("solve_" + std::to_string(n) + "_f64", [n](benchmark::State& st) {
      const Eigen::MatrixXd a =
          Eigen::MatrixXd::Random(n, n) + static_cast<double>(n) * Eigen::MatrixXd::Identity(n, n);
      const Eigen::VectorXd b = Eigen::VectorXd::Random(n);
      Eigen::PartialPivLU<Eigen::MatrixXd> lu(n);
      Eigen::VectorXd x(n);
      time_raw(st, [&] {
        lu.compute(a);
        x.noalias() = lu.solve(b);
      });
    });
  }
}

void BM_matmul_cblas_raw(benchmark::State& state) {
  std::vector<float> a(kMatmulSize * kMatmulSize), b(a.size()), c(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i % 97) / 97.0f;
    b[i] = static_cast<float>(i % 89) / 89.0f;
  }
  const int n = static_cast<int>(kMatmulSize);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f,
                c.data(), n);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * 2 * kMatmulSize * kMatmulSize * kMatmulSize);
}

void BM_dispatch_eigen_raw(benchmark::State& state) {
  Eigen::ArrayXf a = Eigen::ArrayXf::Constant(1, 1.0f), b = Eigen::ArrayXf::Constant(1, 2.0f), c(1);
  for (auto _ : state) {
    c = a + b;
    benchmark::DoNotOptimize(c.data());
  }
}

// The OpenCL floor without ember: a 1-element add kernel enqueued on the first device of the first platform
// (the one ember's opencl backend takes as opencl:0 when it is alone) and waited for with clFinish, as
// ops::synchronize does. On pocl's CPU device that is a hand-over to its worker threads and back, whatever
// the kernel does; ember's dispatch_add_1/ember_opencl row shows what ember adds to it.
void BM_dispatch_opencl_raw(benchmark::State& state) {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) {
    state.SkipWithError("no OpenCL device");
    return;
  }
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  const char* source =
      "__kernel void add(__global const float* a, __global const float* b, __global float* c) {"
      "  size_t i = get_global_id(0); c[i] = a[i] + b[i]; }";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  err = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
  cl_kernel kernel = err == CL_SUCCESS ? clCreateKernel(program, "add", &err) : nullptr;
  const float one = 1.0f;
  cl_mem buffers[3];
  for (cl_mem& m : buffers) {
    m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(float),
                       const_cast<float*>(&one), &err);
  }
  if (kernel == nullptr) {
    state.SkipWithError("the OpenCL add kernel did not build");
  } else {
    for (cl_uint i = 0; i < 3; ++i) clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]);
    const std::size_t global = 1;
    for (auto _ : state) {
      clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
      clFinish(queue);
    }
    clReleaseKernel(kernel);
  }
  for (cl_mem m : buffers) clReleaseMemObject(m);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
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

// The two fused expressions written as single Eigen expressions into a reused output.
void BM_fusion_eigen_raw(benchmark::State& state, bool chain) {
  Eigen::ArrayXf x = (Eigen::ArrayXf::Random(kAddSize) + 1.0f), y = Eigen::ArrayXf::Random(kAddSize),
                 c(kAddSize);
  time_raw(state, [&] {
    if (chain) {
      c = (-(((x * y + 1.0f).abs().sqrt() - y) * x)).exp() * 0.5f + x;
    } else {
      c = (-x).exp() + (x * x + y * x * y).sqrt() * 0.5f;
    }
  });
  state.SetItemsProcessed(state.iterations() * kAddSize);
}

}  // namespace

int main(int argc, char** argv) {
  const auto backends = ember::registered_backends();
  // The thread count of ember's host ops, which bench/report.sh gives PyTorch too (torch.set_num_threads).
  const int threads = ember::host_threads_info().threads;
  benchmark::AddCustomContext("ember_host_threads", std::to_string(threads));
  ember_bench::register_memory_bandwidth(threads);
  register_eigen_raw();
  benchmark::RegisterBenchmark("matmul_1024_f32/cblas_raw", BM_matmul_cblas_raw)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("dispatch_add_1/eigen_raw", BM_dispatch_eigen_raw);
  benchmark::RegisterBenchmark("dispatch_add_1/opencl_raw", BM_dispatch_opencl_raw);
  benchmark::RegisterBenchmark("fusion_expr_16M_f32/eigen_raw", BM_fusion_eigen_raw, false)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("fusion_chain10_16M_f32/eigen_raw", BM_fusion_eigen_raw, true)
      ->Unit(benchmark::kMillisecond);
  static const std::vector<EmberCase> cases = ember_cases();
  for (const auto& b : backends) {
    for (const EmberCase& c : cases) {
      benchmark::RegisterBenchmark((c.group + "/ember_" + b).c_str(), BM_ember_case, b, c)
          ->Unit(benchmark::kMillisecond);
    }
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
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
