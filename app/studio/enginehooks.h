// ExplorerHooks over the core's search engine: the points come from acsel::Explorer (FracMix +
// FMC, exact memory, surrogate RMQD), predictions from the full gate, the recommendation from
// the chosen Searcher and the best uniform configuration from ExactSearch on one band. The
// window gets plain data; the engine never sees Qt.
#pragma once

#include "explorerhooks.h"
#include "viewmodel/explorerpoints.h"

#include <cstddef>
#include <memory>

namespace acsel
{
class Engine;
}

namespace acsel::studio
{

// The engine is shared with the worker threads (it must be safe for concurrent reads).
// maxBandPoints bounds the band configurations kept for display (Explorer::build).
ExplorerHooks makeEngineHooks(std::shared_ptr<const acsel::Engine> engine,
                              std::size_t maxBandPoints = acsel::gui::kDisplayedBandPoints);

} // namespace acsel::studio
