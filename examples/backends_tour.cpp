// The same small computation on every registered backend, with the numbers side by side.
#include <cstdio>
#include <exception>

#include "ember/ember.hpp"

namespace ops = ember::ops;

int main() {
  try {
    std::printf("ember backends: ");
    for (const auto& name : ember::registered_backends()) std::printf("%s ", name.c_str());
    std::printf("\ncurrent backend: %s\n\n", ember::current_backend_name().c_str());
    for (const auto& name : ember::registered_backends()) {
      ember::BackendScope scope(name);
      ops::set_seed(42);
      const ember::Tensor a = ops::random_normal({256, 256}, 0.0, 1.0, ember::DType::float64);
      const ember::Tensor spd =
          ops::add(ops::matmul(a, ops::transpose(a)), ops::eye(256, std::nullopt, 0, ember::DType::float64));
      const ember::Tensor b = ops::linspace(-1.0, 1.0, 256);
      const ember::Tensor x = ops::solve(spd, b);
      const double residual = ops::item<double>(ops::norm(ops::subtract(ops::matmul(spd, x), b)));
      const double mean = ops::item<double>(ops::mean(a));
      const double logdet = ops::item<double>(ops::sum(ops::log(ops::diagonal(ops::cholesky(spd))))) * 2.0;
      std::printf("%-8s normal(seed 42) mean % .12f   log det(A A^T + I) %.9f   |A x - b| %.3e\n",
                  name.c_str(), mean, logdet, residual);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ember example failed: %s\n", e.what());
    return 1;
  }
}
