// Plain data the explorer hands to the widgets: one scored point per candidate configuration,
// the configurations themselves, and what the points mean. No Qt, so a worker thread can build
// it and the GUI thread only swaps a pointer.
#pragma once

#include "core/model/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace acsel::gui
{

// What the plot colours its points by (the plot's combo, the window's state, session files).
enum class ColourBy { Model, FormatFamily };

// One candidate configuration as the plot sees it. Predictions do not depend on the budgets,
// so moving a budget slider only re-classifies points (see plotscoring.h).
struct PlotPoint {
    double ttftMs = 0;
    double tpotMs = 0;
    double rmqd = 0;
    double memoryGiB = 0;
    std::uint32_t configId = 0; // index into PointSet::configs (stable across sorting)
    std::uint16_t model = 0;    // index into PointSet::modelNames
    acsel::Format family = acsel::Format::Bf16; // lowest-bit format of the recipe
    bool uniform = true;                        // one band
};

struct PointSet {
    std::vector<PlotPoint> points;
    std::vector<acsel::Config> configs; // configs[p.configId]
    std::vector<std::string> modelNames;
    // Where the numbers come from; shown next to the plot. Synthetic data says so here.
    std::string provenance;
    bool synthetic = false;
};

// The lowest-bit (most aggressive) format of a recipe: what "colour by format family" shows.
acsel::Format formatFamily(const acsel::BandRecipe& r);

} // namespace acsel::gui
