// Defaults shared by the CLI, the GUI and the evaluation (docs/METHOD.md 5: the paper's grid).
#pragma once

#include <array>

namespace acsel
{

inline constexpr std::array<int, 5> kDefaultBatches = {1, 4, 8, 16, 32};

} // namespace acsel
