// The results folder's frontier plot (frontier.png, frontier.svg), drawn by the window's own
// plot widget (widgets/paretoplot.h) on Qt's offscreen platform: the same cloud of candidate
// configurations, budget line, frontier and marks as the GUI, with its provenance caption.
// With the GUI left out of the build (ACSEL_BUILD_GUI=OFF) there is no plot code to draw with;
// the folder then gets every other file and says why it has no plot.
#pragma once

#include "core/search/gate.h"
#include "core/search/searcher.h"

#include <optional>
#include <string>

namespace acsel::cli
{

struct FrontierPlotInput {
    const Engine& engine;
    const Request& request;
    const SearchOptions& options;
    std::optional<Prediction> answer;      // marked as the recommendation
    std::optional<Prediction> bestUniform; // marked as the best uniform configuration
    std::string latencySource;             // added to the caption: raw or calibrated
};

struct FrontierPlot {
    std::string png, svg;    // the files' bytes
    std::string caption;     // the provenance line under the plot
    std::string unavailable; // why there is no plot (then png and svg are empty)
};

FrontierPlot renderFrontierPlot(const FrontierPlotInput& in);

} // namespace acsel::cli
