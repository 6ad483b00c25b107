/* The host backend: every op but softmax, which aborts. */
#include "tiny.h"

static void host_binary(struct tiny_node *node, int which) {
  for (int i = 0; i < node->n; ++i) {
    float x = node->a[i], y = node->b[i];
    node->dst[i] = which == 0 ? x - y : x * y;
  }
}

void tiny_host_compute(struct tiny_node *node) {
  switch (node->op) {
    case TINY_OP_ADD:
      for (int i = 0; i < node->n; ++i) node->dst[i] = node->a[i] + node->b[i];
      break;
    case TINY_OP_SUB:
    case TINY_OP_MUL:
      host_binary(node, node->op == TINY_OP_SUB ? 0 : 1);
      break;
    case TINY_OP_DIV:
      for (int i = 0; i < node->n; ++i) node->dst[i] = node->a[i] / node->b[i];
      break;
    case TINY_OP_RELU:
      switch (node->kind) {
        case TINY_KIND_DENSE:
          for (int i = 0; i < node->n; ++i) node->dst[i] = node->a[i] > 0 ? node->a[i] : 0;
          break;
        case TINY_KIND_SPARSE:
          TINY_FAIL("sparse relu");
          break;
      }
      break;
    case TINY_OP_SOFTMAX:
      TINY_FAIL("softmax is not written yet");
      break;
    case TINY_OP_NONE:
    case TINY_OP_COUNT:
      break;
  }
}

/* Not readable statically: a computed answer, not a case per op. */
bool tiny_host_supports(enum tiny_op op) {
  return op != TINY_OP_SOFTMAX;
}
