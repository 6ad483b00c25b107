// EL001 fixture: a whole-file suppression that is used, and a string that looks like a suppression.
// emberlint: ignore-file[EL101]
#include "common/linalg_types.hpp"

const char* kText = "// emberlint: ignore[EL101] in a string is not a suppression";
const char* kRaw = R"x(// NOLINT(emberlint-EL101) in a raw string neither)x";
long use() { return Eigen::MatrixXd(1, 1).rows(); }  // expect: EL102
