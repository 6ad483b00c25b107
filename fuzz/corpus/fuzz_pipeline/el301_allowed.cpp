// path: frontend/allowed/fuzz.cpp
// EL301: a file the config allows to extract scalars.
#include <ember/tensor.hpp>

double allowed(const ember::Tensor& t) { return ember::ops::item(t) + t.to_scalar(); }
