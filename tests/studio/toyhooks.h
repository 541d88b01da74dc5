// The toy engine (tests/core/toyengine.h) behind the window's engine hooks, with the Space
// filter of both its models, its formats and the given scopes, and its request: what the
// studio tests of the search, the budget index and the card's advice share.
#pragma once

#include "../core/toyengine.h"
#include "app/studio/enginehooks.h"

#include <atomic>
#include <memory>
#include <vector>

namespace acsel::test
{

inline const std::atomic<bool> kNeverStop{false};

struct ToyHooks {
    std::shared_ptr<const ToyEngine> engine;
    studio::ExplorerHooks hooks;
    gui::SpaceFilter filter;

    explicit ToyHooks(const std::vector<Format>& formats,
                      const std::vector<Scope>& scopes = {kAllScopes.begin(), kAllScopes.end()})
        : engine(std::make_shared<const ToyEngine>(formats)),
          hooks(studio::makeEngineHooks(engine)), filter{{0, 1}, formats, scopes}
    {
    }

    // The toy stack's workload (isl 512, osl 64, concurrency 1, the default budgets).
    static Request request()
    {
        Request q;
        q.stack = "toygpu/toy";
        q.isl = 512;
        q.osl = 64;
        return q;
    }

    // What the window's search gives for q with Exact.
    gui::SearchOutcome search(const Request& q, const BudgetMargin& margin = {}) const
    {
        return hooks.search(
            q, filter, gui::SearchAlgorithm("exact"), margin, [](double) {}, kNeverStop);
    }
};

} // namespace acsel::test
