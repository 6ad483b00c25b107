// ember's error hierarchy. Every error names the op and the shapes/dtypes involved.
#pragma once

#include <stdexcept>
#include <string>

namespace ember {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that do not broadcast, bad axes, wrong ranks, empty reductions without identity.
class ShapeError : public Error {
 public:
  using Error::Error;
};

// A dtype the op does not accept, or an impossible cast.
class DTypeError : public Error {
 public:
  using Error::Error;
};

// Unknown or unavailable devices, tensors on different devices in one op.
class DeviceError : public Error {
 public:
  using Error::Error;
};

// Unknown backends, tensors from different backends in one op, allocation failures.
class BackendError : public Error {
 public:
  using Error::Error;
};

// Arguments whose values (not shapes or dtypes) are invalid: negative counts, probabilities outside [0, 1].
class ValueError : public Error {
 public:
  using Error::Error;
};

// Indices out of range in gather, scatter_add and friends (checked where the values are read).
class IndexError : public Error {
 public:
  using Error::Error;
};

// Numerical linear algebra failures: singular matrices, non positive-definite input to cholesky.
class LinAlgError : public Error {
 public:
  using Error::Error;
};

}  // namespace ember
