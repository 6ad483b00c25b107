#include "calc.hpp"

void calc_add_cpu(const float* a, const float* b, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] + b[i];
}

void calc_scale_cpu(const float* a, float factor, float* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] * factor;
}

void calc_scale_cpu(const double* a, double factor, double* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = a[i] * factor;
}

void calc_sum_cpu(const float* a, float* out, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += a[i];
  *out = s;
}
