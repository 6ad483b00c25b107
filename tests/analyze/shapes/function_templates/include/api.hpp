// The frontend API: ops over the frontend's own Array<T>.
#pragma once

namespace api {

template <class T>
struct Array {
  T* data = nullptr;
  int size = 0;
};

template <class T>
void fill(Array<T>& a, T value);

template <class T>
T total(const Array<T>& a);

void reset(Array<float>& a);

}  // namespace api
