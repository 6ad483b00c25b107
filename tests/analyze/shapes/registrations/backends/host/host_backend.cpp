#include "host/host_backend.hpp"

namespace forge {

namespace {
const Creator* g_creators[OpType_MAX + 1] = {};
}

bool HostBackend::addCreator(OpType type, const Creator* creator) {
  g_creators[type] = creator;
  return true;
}

namespace host {
Execution* make(const Op& op) {
  const Creator* c = g_creators[op.type];
  return c ? c->onCreate(op) : nullptr;
}
}  // namespace host

}  // namespace forge
