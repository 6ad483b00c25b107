// loom: a layer library. Each op is a Layer subclass in src/layer/; an architecture or API specializes it
// with a subclass of its own in src/layer/<arch>/ that overrides the forward methods.
#pragma once

#include <vector>

namespace loom {

struct Blob {
  std::vector<float> data;
};

struct Options {
  int threads = 1;
};

class Layer {
 public:
  virtual ~Layer() = default;
  virtual int create_pipeline(const Options& opt);
  virtual int forward(const Blob& bottom, Blob& top, const Options& opt) const;
  virtual int forward(const std::vector<Blob>& bottoms, std::vector<Blob>& tops, const Options& opt) const;
  virtual int forward_inplace(Blob& blob, const Options& opt) const;
};

}  // namespace loom
