#include "lint/project/known_libraries.hpp"

#include <algorithm>
#include <cctype>

#include "lint/support/glob.hpp"
#include "lint/support/source_text.hpp"

namespace emberlint {

namespace {

struct Compiled {
  const KnownLibrary* library;
  std::vector<Glob> exact, folded;  // the header globs as written, and lower-cased
};

const std::vector<Compiled>& compiled() {
  static const std::vector<Compiled> kCompiled = [] {
    std::vector<Compiled> out;
    for (const KnownLibrary& l : known_libraries()) {
      Compiled c{&l, {}, {}};
      for (const auto& h : l.headers) {
        c.exact.emplace_back(h);
        c.folded.emplace_back(ascii_lower(h));
      }
      out.push_back(std::move(c));
    }
    return out;
  }();
  return kCompiled;
}

}  // namespace

const std::vector<KnownLibrary>& known_libraries() {
  static const std::vector<KnownLibrary> kLibraries = {
      {"Eigen", "eigen", {"eigen"}, {"Eigen/**", "unsupported/Eigen/**"}, {"Eigen"}, {}, false},
      {"oneDNN",
       "dnnl",
       {"dnnl", "onednn"},
       {"dnnl*.h", "dnnl*.hpp", "oneapi/dnnl/**"},
       {"dnnl"},
       {"dnnl_*"},
       true},
      {"SYCL",
       "sycl",
       {"sycl", "dpcpp"},
       {"sycl/**", "CL/sycl.hpp", "oneapi/**", "dpct/**"},
       {"sycl", "dpct"},
       {},
       true},
      {"OpenCL", "opencl", {"opencl"}, {"CL/**", "OpenCL/**"}, {"cl"}, {"cl[A-Z]*"}, true},
      {"CLBlast", "opencl", {"clblast"}, {"clblast*.h"}, {"clblast"}, {}, true},
      {"clFFT", "clfft", {"clfft"}, {"clFFT.h", "clFFT*.h"}, {}, {"clfft[A-Z]*"}, true},
      // Boost.Compute's backend is usually a folder named compute/ under a backend(s)/ folder: "compute"
      // alone is too common a word to make a folder a backend.
      {"Boost.Compute",
       "compute",
       {"boostcompute"},
       {"boost/compute.hpp", "boost/compute/**"},
       {"boost::compute"},
       {},
       true},
      {"MKL", "mkl", {"mkl"}, {"mkl*.h"}, {}, {"mkl_*", "cblas_*"}, true},
      {"BLAS",
       "blas",
       {"blas", "openblas", "cblas"},
       {"cblas.h", "cblas_*.h", "openblas*"},
       {},
       {"cblas_*", "openblas_*"},
       false},
      {"NNPACK", "nnpack", {"nnpack"}, {"nnpack.h", "nnpack/**"}, {}, {"nnp_*"}, true},
      {"LAPACK", "blas", {"lapack"}, {"lapacke*.h", "lapack.h"}, {}, {"LAPACKE_*"}, false},
      {"FFTW",
       "fftw",
       {"fftw", "fftw3"},
       {"fftw3*.h", "fftw.h"},
       {},
       {"fftw_*", "fftwf_*", "fftwl_*"},
       false},
      {"Accelerate",
       "accelerate",
       {"accelerate"},
       {"Accelerate/**", "vecLib/**"},
       {},
       {"cblas_*", "vDSP_*"},
       true},
      {"CUDA",
       "cuda",
       {"cuda", "cu", "cufft", "cublas", "cudnn", "cusparse", "cusolver"},
       {"cuda*.h", "cuda/**", "cublas*.h", "cufft*.h", "curand*.h", "cusparse*.h", "cusolver*.h", "cudnn*.h",
        "nccl*.h", "nvml.h", "nvrtc*.h", "thrust/**", "cub/**", "mma.h", "cooperative_groups*"},
       {"cub", "thrust", "nvcuda"},
       {"cuda[A-Z]*", "cublas*", "cudnn*", "nvrtc*", "nccl*"},
       true},
      {"HIP",
       "hip",
       {"hip", "rocm", "rocfft", "rocblas", "hipfft", "hipblas", "rocsparse", "hipsparse"},
       {"hip/**", "hip_*.h", "rocblas*", "rocblas/**", "hipblas*", "hipblas/**", "rocsparse*", "rocsparse/**",
        "hipsparse*", "hipsparse/**", "rocm*/**", "rocprim/**", "rocfft*", "rocfft/**", "hipfft*",
        "hipfft/**"},
       {"rocprim", "hipcub"},
       {"hip[A-Z]*", "rocblas_*", "hipblas*", "rocfft_*"},
       true},
      {"MUSA", "musa", {"musa"}, {"musa*.h", "mublas*.h"}, {}, {"musa[A-Z]*"}, true},
      {"Vulkan", "vulkan", {"vulkan", "vk"}, {"vulkan/**"}, {"vk"}, {"vk[A-Z]*"}, true},
      {"Kompute", "kompute", {"kompute"}, {"kompute/**"}, {"kp"}, {}, true},
      {"WebGPU", "webgpu", {"webgpu", "wgpu"}, {"webgpu/**", "dawn/**"}, {"wgpu"}, {"wgpu*"}, true},
      {"Metal",
       "metal",
       {"metal", "mps"},
       {"Metal/**", "MetalKit/**", "MetalPerformanceShaders/**", "Foundation/**", "CoreFoundation/**",
        "QuartzCore/**", "metal_*", "Metal.hpp"},
       {"MTL", "NS", "CA"},
       {},
       true},
      {"CoreML", "coreml", {"coreml"}, {"CoreML/**"}, {}, {}, true},
      {"OpenVINO", "openvino", {"openvino"}, {"openvino/**"}, {"ov"}, {}, true},
      {"Android", "android", {"android", "nnapi"}, {"android/**"}, {}, {"ANeuralNetworks*"}, true},
      // Host-parallel runtimes an execution-space backend is written in (a folder named OpenMP/ or HPX/).
      {"OpenMP", "openmp", {"openmp"}, {"omp.h"}, {}, {"omp_*"}, false},
      {"OpenACC", "openacc", {"openacc"}, {"openacc.h"}, {}, {"acc_*"}, true},
      {"HPX", "hpx", {"hpx"}, {"hpx/**"}, {"hpx"}, {}, true},
      {"x86-intrinsics",
       "x86",
       {"x86", "x64", "amd64", "avx", "avx2", "avx512", "sse"},
       {"immintrin.h", "x86intrin.h", "xmmintrin.h", "emmintrin.h", "pmmintrin.h", "tmmintrin.h",
        "smmintrin.h", "nmmintrin.h", "wmmintrin.h", "ammintrin.h", "avx*intrin.h", "avx512*.h",
        "fmaintrin.h", "f16cintrin.h", "amxintrin.h"},
       {},
       {"_mm_*", "_mm256_*", "_mm512_*"},
       false},
      {"arm-intrinsics",
       "arm",
       {"arm", "arm64", "aarch64", "neon", "sve"},
       {"arm_neon.h", "arm_sve.h", "arm_fp16.h", "arm_bf16.h", "arm_acle.h", "arm_sme.h"},
       {},
       {},
       false},
      {"riscv-vector", "riscv", {"riscv", "rvv", "riscv64"}, {"riscv_vector.h"}, {}, {"__riscv_v*"}, false},
      {"loongarch-simd",
       "loongarch",
       {"loongarch", "loongarch64", "lsx", "lasx"},
       {"lsxintrin.h", "lasxintrin.h"},
       {},
       {"__lsx_*", "__lasx_*"},
       false},
      {"mips-msa", "mips", {"mips", "msa"}, {"msa.h"}, {}, {"__msa_*"}, false},
      {"powerpc-altivec",
       "powerpc",
       {"ppc", "powerpc", "vsx", "altivec"},
       {"altivec.h"},
       {},
       {"vec_*"},
       false},
      {"wasm-simd", "wasm", {"wasm"}, {"wasm_simd128.h"}, {}, {"wasm_*"}, false},
  };
  return kLibraries;
}

const KnownLibrary* library_of_include(std::string_view spelled, bool ignore_case) {
  const std::string folded = ignore_case ? ascii_lower(spelled) : std::string();
  const std::string_view name = ignore_case ? std::string_view(folded) : spelled;
  for (const Compiled& c : compiled()) {
    const auto& globs = ignore_case ? c.folded : c.exact;
    // The whole spelling ("vulkan/vulkan.h" for vulkan/**), or its file name for a glob of file names
    // ("nvidia/cuda_fp16.h" for cuda*.h): a project's own "layer/vulkan/shader.h" is not Vulkan's.
    const std::string_view file =
        name.substr(name.rfind('/') == std::string_view::npos ? 0 : name.rfind('/') + 1);
    if (std::any_of(globs.begin(), globs.end(), [&](const Glob& g) {
          return g.matches_relative(name) ||
                 (g.pattern().find('/') == std::string::npos && g.matches_relative(file));
        }))
      return c.library;
  }
  return nullptr;
}

}  // namespace emberlint
