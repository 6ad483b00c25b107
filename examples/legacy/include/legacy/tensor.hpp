// A dense row-major matrix of doubles: the one value type of the legacy library.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace legacy {

struct Tensor {
  std::size_t rows = 0, cols = 0;
  std::vector<double> data;

  Tensor() = default;
  Tensor(std::size_t r, std::size_t c, double fill = 0.0) : rows(r), cols(c), data(r * c, fill) {}
  Tensor(std::size_t r, std::size_t c, std::vector<double> values)
      : rows(r), cols(c), data(std::move(values)) {
    if (data.size() != r * c)
      throw std::invalid_argument("Tensor: " + std::to_string(data.size()) + " values for a " +
                                  std::to_string(r) + "x" + std::to_string(c) + " tensor");
  }
  std::size_t size() const { return data.size(); }
  double at(std::size_t r, std::size_t c) const { return data[r * cols + c]; }
};

}  // namespace legacy
