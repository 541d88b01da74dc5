// The one validity check of what a user gives for a request (a flag, a file, a field of the
// window's request panel) and of a configuration against its request, shared by the CLI and the
// window so that they never disagree: each problem is one sentence naming the field and what
// was expected; empty when valid.
#pragma once

#include "core/model/config.h"

#include <string>
#include <string_view>

namespace acsel
{

enum class RequestField : std::uint8_t {
    Isl,
    Osl,
    Concurrency,
    Gpus,
    TtftBudget,
    TpotBudget,
    MemoryBudget,
    Margin // the share kept inside every budget (BudgetMargin), in percent
};

struct FieldLimits {
    std::string_view name; // "concurrency", "TTFT budget"
    std::string_view unit; // "tokens", "ms", "GiB", or empty
    double min;            // the smallest value accepted
    double max;            // the largest (or, with belowMax, the bound values stay below)
    bool whole;            // whole numbers only
    bool belowMax = false; // max itself is refused
};

const FieldLimits& limitsOf(RequestField f);

// "concurrency 999999 is above the largest accepted, 65536"; empty when `value` is valid.
// Margin takes [0, 100), as BudgetMargin::valid and acsel search --margin.
std::string fieldProblem(RequestField f, double value);

struct ConfigProblem {
    std::string field;   // "batch" or "tp"; empty: none
    std::string message; // "batch 4 is below the request's concurrency 999 (...)"
    explicit operator bool() const { return !message.empty(); }
};

// A configuration the request cannot run: a batch below the concurrency (a batch must hold
// every concurrent request), a tensor-parallel degree above the request's GPUs.
ConfigProblem configProblem(const Config& c, const Request& q);

} // namespace acsel
