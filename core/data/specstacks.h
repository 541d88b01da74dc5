// GPUs without operator tables join a workspace as spec-only stacks: their platform comes
// from the spec-sheet platforms file and their latency from the empirical model
// (LatencySource::Empirical, see core/latency/opcostsfactory.h).
#pragma once

#include "core/data/platformsfile.h"
#include "core/model/workspace.h"

#include <string>

namespace acsel
{

// For every GPU of the platforms file that has no stack from operator tables in `ws`, adds
// its spec-sheet Platform and one stack per assumed backend ("<gpu>/<backend>", version
// "spec-sheet", formats = the chip's native formats, source Empirical), and a workspace note
// naming them. GPUs with tables keep their measured stacks only. Throws LoadError on a
// malformed platforms file.
void attachSpecOnlyStacks(Workspace& ws, const std::string& platformsFile);
void attachSpecOnlyStacks(Workspace& ws, const PlatformsFile& platforms);

} // namespace acsel
