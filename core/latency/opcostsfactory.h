// The one place that turns a workspace stack into operator costs: its measured tables when it
// has them, the empirical model (spec sheet + fitted utilisation) otherwise.
#pragma once

#include "core/latency/opcosts.h"
#include "core/latency/utilisationmodel.h"
#include "core/model/workspace.h"

#include <memory>

namespace acsel
{

// Tables: loads the stack's CSVs (about 0.1 s for the largest). Empirical: needs the
// utilisation model (datasets/utilisation.json, loadUtilisationFile). Throws LoadError when
// the tables are malformed or an empirical stack is asked for without a model.
std::unique_ptr<OpCosts> makeOpCosts(const Workspace& ws, const Stack& stack,
                                     const UtilisationModel* utilisation);

} // namespace acsel
