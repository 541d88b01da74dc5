// How acsel search and acsel recommend say why nothing fits (core/search/nearestmiss.h): one
// sentence per budget, the same in the text output (stderr), summary.md and the --json
// document's "nearest_miss" array.
#pragma once

#include "core/data/configjson.h"
#include "core/search/nearestmiss.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace acsel::cli
{

struct NearestMissInput {
    const Engine& engine;
    const Request& asked; // the budgets as given, before the margin
    const BudgetMargin& margin;
    const NearestMiss& miss;
    std::string note; // the prediction note of the answers' documents
    // When memory rules out every configuration (app/common/memoryfloor.h): its sentence.
    std::string memoryFloor;
};

// The heading and one line per budget, e.g. "TTFT binds: the lowest is 2291.43 ms; at --ttft
// 2291.5 the answer is Llama-3.1-70B, ... (TTFT 2291.43 ms, TPOT 38.20 ms, 76.12 GiB (engine
// 77.50 GiB at --gpu-memory-utilization 0.969), RMQD 0.01234)", or why loosening it alone
// admits nothing; then the memory floor's sentence, when there is one.
std::vector<std::string> nearestMissLines(const NearestMissInput& in);

// {"budget": "ttft", "unit": "ms", "asked": 2000, "lowest": ..., "suggested": ..., "answer":
// the configuration document at the suggested budget, or null; "reason" when none}, per budget.
// The memory floor's sentence is the document's "memory_floor" (searchcommand.cpp).
nlohmann::ordered_json nearestMissJson(const NearestMissInput& in);

// "margin 10%: gated at TTFT <= 1800.00 ms, TPOT <= 36.00 ms, memory <= 72.00 GiB (the budgets
// given: TTFT 2000.00 ms, TPOT 40.00 ms, memory 80.00 GiB)"; empty without a margin.
std::string marginNote(const Request& asked, const Request& gated, const BudgetMargin& margin);

} // namespace acsel::cli
