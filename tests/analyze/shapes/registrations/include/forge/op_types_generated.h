// Generated from schema/ops.fbs by the schema compiler: do not edit.
#pragma once

namespace forge {

enum OpType : int {
  OpType_Input = 0,
  OpType_Add = 1,
  OpType_Sub = 2,
  OpType_Mul = 3,
  OpType_Conv = 4,
  OpType_Relu = 5,
  OpType_Softmax = 6,
  OpType_Diag = 7,
  OpType_Diag_MaskInf = 8,
  OpType_MAX = OpType_Diag_MaskInf
};

}  // namespace forge
