/* A tiny C tensor API whose ops are the enumerators of one enum, dispatched per backend by a switch. */
#ifndef TINY_H
#define TINY_H

#include <stdbool.h>

enum tiny_op {
  TINY_OP_NONE,
  TINY_OP_ADD,
  TINY_OP_SUB,
  TINY_OP_MUL,
  TINY_OP_DIV,
  TINY_OP_RELU,
  TINY_OP_SOFTMAX,
  TINY_OP_COUNT,
};

enum tiny_kind { TINY_KIND_DENSE, TINY_KIND_SPARSE };

struct tiny_node {
  enum tiny_op op;
  enum tiny_kind kind;
  int n;
  const float *a, *b;
  float *dst;
};

void tiny_fail(const char *file, int line, const char *what);
void tiny_log(const char *what);
#define TINY_FAIL(what) tiny_fail(__FILE__, __LINE__, what)

/* Every backend: compute one node; say whether it can. */
void tiny_host_compute(struct tiny_node *node);
bool tiny_host_supports(enum tiny_op op);
void tiny_accel_compute(struct tiny_node *node);
bool tiny_accel_supports(enum tiny_op op);
void tiny_remote_compute(struct tiny_node *node);
bool tiny_lite_compute(struct tiny_node *node);
void tiny_gpu_compute(struct tiny_node *node);
bool tiny_gpu_supports(enum tiny_op op);

#endif
