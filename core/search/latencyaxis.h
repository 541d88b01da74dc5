// The latency axis of the quality-latency view: TTFT, TPOT or the normalised latency
// max(TTFT/L1, TPOT/L2) (docs/METHOD.md 4). One type for the core explorer and the GUI's plot; a
// header of its own so the plot does not pull in the search.
#pragma once

#include <cstdint>

namespace acsel
{

enum class LatencyAxis : std::uint8_t { Ttft, Tpot, Normalised };

} // namespace acsel
