// The words the window puts beside its numbers: the banner's lines, the serving-model warning,
// the RMQD-extrapolation caveats and the note an exported configuration carries.
#pragma once

#include "core/model/workspace.h"
#include "core/search/workspaceengine.h"
#include "explorerhooks.h"

#include <QString>
#include <QStringList>
#include <string>

namespace acsel::studio
{

// What the banner above the plot says: synthetic quality, uncalibrated latency, missing
// engine, then the workspace's own notes. Empty when there is nothing to say.
// qualitySynthetic: the engine's flag (the data its surrogate was fitted on).
QStringList bannerLines(const acsel::Workspace& ws, const ExplorerHooks& hooks, bool fmcLoaded,
                        bool qualitySynthetic);

// The warning shown over the plot when the request's stack has an FMC line fitted on the other
// serving model than the request's (`acsel search` says the same on stderr): its calibrated
// latencies then correct the wrong raw estimate. Empty when they match or nothing is loaded.
QString servingModelMismatch(const acsel::WorkspaceEngine& engine, const acsel::Request& q);

// The warning shown with a configuration's prediction when the quality surrogate had no rows of
// its model (`acsel search` warns the same): its RMQD is then the shared trend of the other
// models. Empty when the model has rows (or the surrogate has no per-model offsets).
QString rmqdExtrapolationNote(const acsel::WorkspaceEngine& engine, const std::string& model);

// The note an exported configuration document carries on its predictions (as `acsel search
// --json` writes it): synthetic quality data, and an extrapolated RMQD for a model without
// quality rows. Empty when there is nothing to say.
std::string predictionsNote(const acsel::WorkspaceEngine& engine, const std::string& model);

// The banner's line naming every workspace model the surrogate has no rows of (their points'
// RMQD on the plot is extrapolated). Empty when there is none.
QString extrapolatedModelsLine(const acsel::WorkspaceEngine& engine);

} // namespace acsel::studio
