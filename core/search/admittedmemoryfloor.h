// A lower bound of the memory the gate compares with the budget (Prediction::
// admittedMemoryBytes: the larger of the estimate and the engine's total at its launch flag)
// from a lower bound of a recipe's estimate, without the engine's memory model per recipe.
// Where the engine's memory follows the estimate (Engine::engineMemoryFollowsEstimate: static
// batching), a context's estimate is its engine's weights W plus terms of the context alone, so
// an estimate m >= m' bounds W from below by m' less those terms, and the engine's total at
// that W (withWeights: the flag's rounding included) is no higher than at the recipe's own,
// being non-decreasing in W. The budget index compares candidates with its members' admitted
// memory: the estimate alone lies below it by the runtime, activation and KV terms the engine
// sizes otherwise and the flag's rounding, and let through five times the candidates to the
// exact memory and the dominance test.
#pragma once

#include "core/latency/enginememory.h"
#include "core/search/fracmixtable.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace acsel
{

class AdmittedMemoryFloor
{
public:
    AdmittedMemoryFloor(const Engine& e, const FracMixTable& table);

    // No higher than admittedMemoryBytes of any configuration of the context whose estimate
    // (Engine::memoryBytes) is at least `estimate` and that the engine loads; `estimate`
    // itself where the engine's memory does not follow it. Non-decreasing in `estimate`, so a
    // lower bound of a block's estimates gives one of the block's admitted memories.
    double of(int context, double estimate) const
    {
        return std::max(estimate, engineFloor(context, estimate));
    }
    // Its engine's part: no higher than the engine's total (withWeights) of any such
    // configuration, -infinity where that is not computed. Non-decreasing in `estimate`, and a
    // step function where the floor is above the estimate (vLLM's and SGLang's flag).
    double engineFloor(int context, double estimate) const;

private:
    struct Rule {
        std::optional<EngineMemory> engine; // of one configuration of the context
        double besideWeights = 0;           // its estimate less its engine's weights
    };
    std::vector<Rule> rules_; // per context
};

// AdmittedMemoryFloor::of, remembering per context the ranges of estimates seen to give one
// engine floor each: engineFloor(low) == engineFloor(high) makes it the floor of every
// estimate in [low, high] (it is non-decreasing), and its steps are few. The walks ask it for
// millions of recipes in no order of their estimates, nearly all within a step already seen.
// One per thread.
class AdmittedMemoryMemo
{
public:
    double of(const AdmittedMemoryFloor& floor, int context, double estimate);

private:
    struct Step {
        double low = 0, high = 0, floor = 0;
    };
    struct Steps {
        std::vector<Step> steps; // disjoint, increasing
        std::size_t last = 0;    // the step of the last hit: the next estimate is often in it
    };
    std::vector<Steps> contexts_;
};

} // namespace acsel
