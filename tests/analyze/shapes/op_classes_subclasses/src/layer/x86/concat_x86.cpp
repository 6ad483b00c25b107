#include <stdexcept>

#include "concat_x86.h"

namespace loom {

int Concat_x86::forward(const std::vector<Blob>&, std::vector<Blob>&, const Options&) const {
  throw std::logic_error("Concat_x86::forward: not implemented");
}

}  // namespace loom
