// A program outside the ember tree, built against an installed ember
// (tests/ember/install/install_test.cmake): with find_package(Ember CONFIG) (CMakeLists.txt beside it) and
// with `pkg-config --cflags --libs ember`. On every backend the installed library has, it computes a product,
// a reduction, a solve and a fused element-wise expression with known exact results, prints one line per
// backend and exits 1 on a wrong value.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <ember/backend.hpp>
#include <ember/ember.hpp>

namespace ops = ember::ops;

namespace {

bool same(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = got[i] - want[i];
    if (d > 1e-9 || d < -1e-9) return false;
  }
  return true;
}

// The checks on the current backend; the first wrong result's description, empty when all are right.
std::string check() {
  const auto a = ops::from_data(std::vector<double>{2, 1, 1, 3}, {2, 2});
  const auto b = ops::from_data(std::vector<double>{1, 2, 3, 4}, {2, 2});
  if (!same(ops::to_host<double>(ops::matmul(a, b)), {5, 8, 10, 14})) return "matmul";
  if (ops::item<double>(ops::sum(b)) != 10.0) return "sum";
  // [[2, 1], [1, 3]] x = [3, 5]: x = [0.8, 1.4]
  if (!same(ops::to_host<double>(ops::solve(a, ops::from_data(std::vector<double>{3, 5}, {2}))),
            {0.8, 1.4})) {
    return "solve";
  }
  // float32, large enough to run as one fused program on the host backends: (x * 2 + 1) - x = x + 1
  const auto x = ops::arange(0, 4096, 1, ember::DType::float32);
  const auto y = ops::subtract(ops::add(ops::multiply(x, 2.0), 1.0), x);
  if (ops::item<double>(ops::sum(y)) != 4096.0 * 4095.0 / 2.0 + 4096.0) return "fused expression";
  return "";
}

}  // namespace

int main() {
  try {
    int wrong = 0;
    for (const std::string& name : ember::registered_backends()) {
      ember::Backend& backend = ember::get_backend(name);
      if (!backend.is_available()) {
        std::printf("%s: unavailable (%s)\n", name.c_str(), backend.unavailable_reason().c_str());
        continue;
      }
      ember::BackendScope scope(name);
      const std::string failed = check();
      std::printf("%s: %s\n", name.c_str(), failed.empty() ? "ok" : ("wrong " + failed).c_str());
      wrong += failed.empty() ? 0 : 1;
    }
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
