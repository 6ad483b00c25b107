// The whole public API of ember.
#pragma once

#include "ember/device.hpp"
#include "ember/dtype.hpp"
#include "ember/error.hpp"
#include "ember/host.hpp"
#include "ember/lazy.hpp"
#include "ember/ops/comparison.hpp"
#include "ember/ops/device.hpp"
#include "ember/ops/dtype.hpp"
#include "ember/ops/math.hpp"
#include "ember/ops/random.hpp"
#include "ember/ops/solver.hpp"
#include "ember/ops/tensor.hpp"
#include "ember/scalar.hpp"
#include "ember/selection.hpp"
#include "ember/tensor.hpp"
