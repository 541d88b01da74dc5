// Plain results the widgets display: a full prediction of one configuration, a search outcome,
// and the part of the space the user asked for. Filled by the engine (or a test), read by the
// widgets; no engine object crosses into widgets/.
#pragma once

#include "core/latency/fmcchoice.h"
#include "core/model/config.h"
#include "core/model/prediction.h"
#include "core/search/nearestmiss.h"
#include "core/search/searchalgorithm.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace acsel::gui
{

using Breakdown = std::vector<std::pair<std::string, double>>; // name -> value, display order

// A prediction as the window shows it: the core's numbers (acsel::Prediction) with the gate's
// verdict and the breakdowns.
struct PredictionView : acsel::Prediction {
    bool admitted = false;
    std::string verdict;       // the gate's reason ("admitted" or why not)
    Breakdown ttftBreakdownMs; // per operator class
    Breakdown tpotBreakdownMs;
    Breakdown memoryBreakdownGiB;
    // The FMC file's central interval of TTFT and TPOT holding intervalLevel (0.9: 90 %); none
    // without a file line with a spread for the stack (WorkspaceEngine::latencyInterval).
    std::optional<acsel::LatencyInterval> ttftInterval = std::nullopt, tpotInterval = std::nullopt;
    double intervalLevel = 0;
    // False when the request's stack cannot run it at all (a format it has no kernels or
    // costs for): the numbers are then NaN and the verdict says why.
    bool runnable = true;
    // What the stack's engine takes at the memory flag acsel launch sets, "79.20 GiB at
    // --gpu-memory-utilization 0.99" (core/export/launch.h, engineMemoryText); empty without an
    // engine model.
    std::string engineMemory = {};
};

// The searchers: core's one enum and name table.
using acsel::SearchAlgorithm;
using acsel::SearchAlgorithmChoice;
const char* toDisplayString(SearchAlgorithm a); // its label, "BandPareto", "Hill climbing", ...

struct SearchStats {
    SearchAlgorithm algorithm = acsel::defaultSearchAlgorithm();
    std::int64_t candidates = 0; // enumerated / drawn
    std::int64_t screened = 0;   // survived the cheap screen
    std::int64_t gated = 0;      // full gate evaluations
    // Answered from the workload's budget index of this many members (0: searched).
    std::int64_t indexMembers = 0;
    double seconds = 0;
};

struct SearchOutcome {
    std::optional<acsel::Config> best; // empty: no configuration meets the request
    PredictionView bestPrediction;
    std::optional<acsel::Config> bestUniform; // the best admitted uniform configuration
    PredictionView bestUniformPrediction;
    SearchStats stats;
    // Without an answer: why, per budget (computed with the search, on its worker thread).
    std::optional<acsel::NearestMiss> nearestMiss;
    // Without an answer, when memory rules out every configuration: the sentence acsel search
    // prints too (app/common/memoryfloor.h); else empty.
    std::string memoryFloor = {};
};

// One row of the sizing table (core/search/sizing.h): the answer with `gpus` GPUs of one node
// available; its Config::tp may be fewer.
struct SizingOutcome {
    int gpus = 1;
    std::optional<acsel::Config> best; // empty: no configuration meets the request
    PredictionView prediction;
};

// The part of the space to consider (SloPanel's check lists).
struct SpaceFilter {
    std::vector<int> models; // Workspace::models indices
    std::vector<acsel::Format> formats;
    std::vector<acsel::Scope> scopes;
    bool operator==(const SpaceFilter&) const = default;
};

} // namespace acsel::gui
