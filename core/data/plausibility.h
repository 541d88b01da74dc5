// The physical plausibility bounds of measured and specified quantities, stated once: every
// loader refuses a value outside them at load, naming the file and the field, and never clamps
// it (docs/DATA.md, "Plausibility bounds"). Each bound is far outside any real value, so only
// a damaged or mistyped file meets it.
#pragma once

#include <cstdint>

namespace acsel::plausible
{

// A measured kernel time in ms: at least a nanosecond (a denormal such as 1e-300 is no
// measurement) and at most 1e6 ms, 17 minutes (the largest in the AIC tables is about 1.4e3 ms).
inline constexpr double kMinKernelMs = 1e-6;
inline constexpr double kMaxKernelMs = 1e6;

// An operator table's shape integer (m, n, k, batch_size, isl, num_heads, num_key_value_heads,
// head_dim) is in [1, 2^30] and a generation step in [0, 2^30): the KV length isl + step and
// the products the grids form stay within an int.
inline constexpr std::int64_t kMaxShape = std::int64_t{1} << 30;

// A GPU's memory-bound kernels reach this fraction of the spec bandwidth (system.yaml's
// mem_bw_empirical_scaling_factor, the platforms file's bw_scaling): above 1 every
// memory-bound latency would fall below the speed of light.
inline constexpr double kMinBwScaling = 0.01;
inline constexpr double kMaxBwScaling = 1.0;

// The fixed launch cost of one memory operation, in seconds: at most 10 ms.
inline constexpr double kMaxMemConstantLatencyS = 1e-2;

} // namespace acsel::plausible
