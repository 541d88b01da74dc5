// What a new session starts with: the stack, the filter and the request.
#pragma once

#include "core/model/workspace.h"
#include "explorerhooks.h"
#include "viewmodel/explorertypes.h"

#include <string>

namespace acsel::studio
{

// The stack a new session starts on: the first of the preferred stacks the workspace has,
// else the one with the most formats (ties: the first).
std::string defaultStack(const acsel::Workspace& ws);

// The Qwen3 models (else the first family), every format of the stack, every scope.
acsel::gui::SpaceFilter defaultFilter(const acsel::Workspace& ws, const std::string& stack);

// isl 1024, osl 256, concurrency 4, budgets 10 % above the predicted TTFT, TPOT and memory of
// the largest filtered model quantized uniformly to fp8 (else int8) that fits the device, so
// the frontier straddles them. Without a prediction hook, the Request defaults.
acsel::Request defaultRequest(const acsel::Workspace& ws, const ExplorerHooks& hooks,
                              const acsel::gui::SpaceFilter& filter, const std::string& stack);
// r with budgets by defaultRequest's rule for its stack, workload and the filter's models
// (what the window offers after a change of stack); r unchanged without a prediction.
acsel::Request withDerivedBudgets(const acsel::Workspace& ws, const ExplorerHooks& hooks,
                                  const acsel::gui::SpaceFilter& filter, acsel::Request r);

} // namespace acsel::studio
