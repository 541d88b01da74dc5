// A stand-in engine for the explorer window until the latency, quality and search engines are
// wired in (acsel-studio --demo). Its numbers are SYNTHETIC and say so: latency from a plain
// roofline (decode bound by weight + KV bytes over bandwidth, prefill by FLOPs over the format's
// peak), memory from weights at effective bits + KV cache + runtime overhead, and quality from
// a made-up bit-deficit proxy, not the ACSeL surrogate. Its search is a brute-force minimum.
#pragma once

#include "core/model/workspace.h"
#include "widgets/explorerhooks.h"

#include <memory>

namespace acsel::studio
{

// The hooks share ownership of the workspace, so a worker still running keeps it alive.
acsel::gui::ExplorerHooks makeDemoExplorer(std::shared_ptr<const acsel::Workspace> ws);

} // namespace acsel::studio
