// The cpu backend: its own Array<T>, the ops as templates instantiated explicitly.
#include "api.hpp"

namespace cpu {

template <class T>
struct Array {
  T* data = nullptr;
  int size = 0;
};

template <class T>
void fill(Array<T>& a, T value) {
  for (int i = 0; i < a.size; ++i) a.data[i] = value;
}

template <class T>
T total(const Array<T>& a) {
  T sum{};
  for (int i = 0; i < a.size; ++i) sum += a.data[i];
  return sum;
}

void reset(Array<float>& a) {
  for (int i = 0; i < a.size; ++i) a.data[i] = 0;
}

template void fill<float>(Array<float>&, float);
template float total<float>(const Array<float>&);

}  // namespace cpu
