/* An accelerator backend: a few ops, an aborting default, and a predicate with a case per op. */
#include "tiny.h"

static void accel_launch(const char *kernel, struct tiny_node *node) {
  (void)kernel;
  for (int i = 0; i < node->n; ++i) node->dst[i] = node->a[i];
}

void tiny_accel_compute(struct tiny_node *node) {
  switch (node->op) {
    case TINY_OP_ADD:
      accel_launch("add", node);
      break;
    case TINY_OP_MUL:
      accel_launch("mul", node);
      break;
    case TINY_OP_DIV:
      accel_launch("div", node);
      break;
    default: {
      tiny_log("accel: unsupported op");
      TINY_FAIL("op not supported by accel");
    }
  }
}

bool tiny_accel_supports(enum tiny_op op) {
  switch (op) {
    case TINY_OP_ADD:
    case TINY_OP_MUL:
      return true;
    case TINY_OP_DIV:
      return false; /* the kernel loses precision */
    case TINY_OP_SUB:
      return false;
    default:
      return false;
  }
}
