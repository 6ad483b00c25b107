#pragma once

#include "forge/backend.hpp"

namespace forge {

class HostBackend {
 public:
  static bool addCreator(OpType type, const Creator* creator);
};

}  // namespace forge

// One creator object per op, registered when the library loads.
#define REGISTER_HOST_OP_CREATOR(name, opType) \
  static name g_##name;                        \
  static const bool g_##name##_registered = ::forge::HostBackend::addCreator(opType, &g_##name)
