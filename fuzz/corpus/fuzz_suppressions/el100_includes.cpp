// EL100 fixture: a frontend file that includes backend library headers and a backend's own header.
#include <Eigen/Core>  // expect: EL100
#include <cblas.h>  // expect: EL100
#include <CL/cl.h>  // expect: EL100

#include "backends/eigen/eigen_backend.hpp"  // expect: EL100
#include "common/linalg_types.hpp"
#include "ember/tensor.hpp"

#include <vector>

// Negatives: the frontend's own headers and the standard library above are silent; so is text that names a
// header: #include <Eigen/Core>
const char* kText = "#include <Eigen/Dense>";

#include <Eigen/Core>  // emberlint: ignore[EL100] a suppressed line stays silent

int plain_arithmetic(int n, int size) { return (n - 1) + size * 2; }
