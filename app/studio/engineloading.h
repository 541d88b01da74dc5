// Loading a workspace with its real engine for the window, and the engine-side data its docks
// show (held-out quality error, the stack's measured rows against the estimate).
#pragma once

#include "core/model/workspace.h"
#include "core/search/confidencegate.h"
#include "core/search/workspaceengine.h"
#include "explorerhooks.h"
#include "widgets/fitqualityplot.h"

#include <memory>
#include <optional>
#include <string>

namespace acsel::studio
{

// The probability the card's and Compare's latency intervals hold (the CLI's predict default).
inline constexpr double kCardIntervalLevel = 0.9;

// A workspace with its real engine: the workspace (spec-only stacks join it), the engine over
// it (FMC from fmcFile if given, the quality surrogate fitted on the workspace's quality set)
// and the hooks the window runs. Throws LoadError (or another std::exception) on bad input.
// confidence: the confidence gate's P (core/search/confidencegate.h, as acsel search
// --confidence) for requests like `at` (its concurrency and GPUs), applied when the FMC file
// has intervals; kNoConfidence: the median lines.
struct LoadedEngine {
    std::shared_ptr<const acsel::WorkspaceEngine> engine;
    std::shared_ptr<const acsel::Workspace> workspace; // aliases engine->workspace()
    ExplorerHooks hooks;
    bool intervals = false; // the FMC file has intervals: the confidence gate applies
};
LoadedEngine loadEngine(const std::string& workspaceFile, const std::string& tablesDir,
                        const std::string& fmcFile, double confidence = acsel::kNoConfidence,
                        const acsel::Request& at = {});

// The quality surrogate's MdAPE (percent) on the held-out rows of the workspace's quality set;
// nullopt when the workspace names no quality set or it has no held-out row.
std::optional<double> heldoutQualityMdape(const acsel::WorkspaceEngine& engine);

// The measured end-to-end rows of the request's stack (AIC silicon CSV) against the engine's
// raw estimates for them (the serving model of the request's mode), TTFT and TPOT, with the
// stack's FMC line and MdAPE when a calibration is loaded. note says where the rows come from,
// or why there are none (a malformed file is named there with its error).
struct StackFits {
    std::vector<acsel::gui::FitSeries> series; // empty: no measured row of the stack
    std::string note;
};
StackFits stackFits(const acsel::WorkspaceEngine& engine, const acsel::Request& q);
// The typical error half of the card's "How sure" line (RecipeCard says whether there is an
// interval), from the same rows as the Surrogate fit tab: the MdAPE of TTFT and TPOT on the
// stack's measured rows, calibrated when an FMC line is loaded, else of the raw estimate; or
// that no measured row says it.
std::string howSure(const StackFits& fits);
// <tables dir>/silicon/dense_tp1.csv when it exists (the layout of ../shared/aic), else "".
std::string siliconFileOf(const acsel::Workspace& ws);

} // namespace acsel::studio
