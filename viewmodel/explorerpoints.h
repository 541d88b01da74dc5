// The plot's points from the core explorer: one PlotPoint per kept configuration, the models in
// the order the caller selected them, and the provenance line the plot shows (and every saved
// figure carries).
#pragma once

#include "viewmodel/plotdata.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace acsel
{
class Engine;
class Explorer;
} // namespace acsel

namespace acsel::gui
{

// How many band configurations the plot keeps for display (Explorer::build's maxBandPoints).
inline constexpr std::size_t kDisplayedBandPoints = 50000;

// No points yet, but the provenance of the engine's numbers (SYNTHETIC quality data says so).
std::shared_ptr<PointSet> emptyPointSet(const acsel::Engine& e);

// models: Workspace::models indices, in the order the legend lists them.
std::shared_ptr<PointSet> pointSetOf(const acsel::Engine& e, const std::vector<int>& models,
                                     const acsel::Explorer& ex);

} // namespace acsel::gui
