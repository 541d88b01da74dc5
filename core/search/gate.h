// Gate(C, q): memory, exportability, then calibrated TTFT and TPOT against the budgets
// (docs/METHOD.md 4), with the reason for a rejection.
#pragma once

#include "core/model/prediction.h"
#include "core/search/engine.h"

#include <optional>
#include <string>

namespace acsel
{

enum class GateVerdict : std::uint8_t { Admitted, Memory, NotExportable, Ttft, Tpot };
std::string_view toString(GateVerdict v);

struct GateResult {
    GateVerdict verdict = GateVerdict::Admitted;
    Prediction prediction;
    std::string reason; // empty when admitted
    bool admitted() const { return verdict == GateVerdict::Admitted; }
};

// min(request budget, device capacity), bytes.
double memoryBudgetBytes(const Request& q, double capacityBytes);
double memoryBudgetBytes(const Request& q, const Platform& p);

// The memory the full gate compares with the budget, Prediction::admittedMemoryBytes (the
// larger of the estimate and the engine's total at its launch flag), without the latency:
// nullopt when the gate rejects the configuration on memory at q's budget (the estimate above
// it, or the engine cannot load it within it). Cheap next to the gate. Throws
// std::invalid_argument for an unknown stack.
std::optional<double> admittedMemoryBytes(const Engine& e, const Config& c, const Request& q);

// The full gate on one configuration. Memory is checked first: a configuration that does not
// fit is rejected before any latency is computed.
GateResult fullGate(const Engine& e, const Config& c, const Request& q);

// The gate's budget comparisons on predictions already made (a configuration document's,
// which holds no engine memory): the reason of the first budget exceeded, memory (against
// memoryBudgetBytes with the device's capacityBytes) before TTFT and TPOT; empty when all hold.
std::string budgetProblem(const Prediction& p, const Request& q, double capacityBytes);

} // namespace acsel
