// emberlint's version: in reports, baselines and the result cache's key.
#pragma once

namespace emberlint {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace emberlint
