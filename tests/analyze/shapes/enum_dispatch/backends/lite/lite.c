/* A minimal backend that reports what it did: `default: return false;` declines every other op. */
#include "tiny.h"

bool tiny_lite_compute(struct tiny_node *node) {
  switch (node->op) {
    case TINY_OP_ADD:
      for (int i = 0; i < node->n; ++i) node->dst[i] = node->a[i] + node->b[i];
      return true;
    default:
      return false;
  }
}
