// A helper header that is not self-contained (as many real ones): it uses loom::Layer and loom::Blob without
// including layer.h, relying on its includer to have included it first. Alone it does not parse; through
// relu.h it does, so it is no failure of a run.
#pragma once

namespace loom {

inline float leaky(float x, float slope) {
  return x > 0.f ? x : x * slope;
}

inline void apply_leaky(Blob& blob, float slope) {
  for (float& v : blob.data) v = leaky(v, slope);
}

inline bool is_activation(const Layer* layer) {
  return layer != nullptr;
}

}  // namespace loom
