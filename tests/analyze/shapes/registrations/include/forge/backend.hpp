// The interface every backend implements: an execution per op, made by the creator the backend registered.
#pragma once

#include "forge/op_types_generated.h"

namespace forge {

struct Op {
  OpType type = OpType_Input;
  int arity = 1;
};

class Execution {
 public:
  virtual ~Execution() = default;
  virtual int run() = 0;
};

class Creator {
 public:
  virtual ~Creator() = default;
  virtual Execution* onCreate(const Op& op) const = 0;
};

namespace host {
// The host's execution of any op: what a backend delegates to when it has none of its own.
Execution* make(const Op& op);
}  // namespace host

}  // namespace forge
