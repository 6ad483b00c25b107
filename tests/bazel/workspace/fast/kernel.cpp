#include "fast/kernel.hpp"

namespace fast {
float twice(float x) { return 2.0f * x; }
}  // namespace fast
