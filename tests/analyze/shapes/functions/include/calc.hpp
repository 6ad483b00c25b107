// calc: a flat API in the global namespace. Each op calc_<op> is implemented per backend as calc_<op>_<backend>;
// calc_scale is overloaded for float and double.
#pragma once

void calc_add(const float* a, const float* b, float* out, int n);
void calc_scale(const float* a, float factor, float* out, int n);
void calc_scale(const double* a, double factor, double* out, int n);
void calc_sum(const float* a, float* out, int n);
