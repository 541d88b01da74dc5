// The results folder's frontier plot (frontier.png, frontier.svg), drawn by render/ (QPainter
// on Qt's offscreen platform, no widgets): the explorer's screened candidates as a cloud for
// context, and over it the same admitted frontier frontier.csv lists (full estimates), the
// budget, the answer and the best uniform configuration, with a provenance caption.
#pragma once

#include "core/search/gate.h"
#include "core/search/searcher.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel::cli
{

struct FrontierPlotInput {
    const Engine& engine;
    const Request& request;
    const SearchOptions& options;
    std::vector<Prediction> frontier;      // frontier.csv's configurations
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
