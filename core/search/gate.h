// Gate(C, q): memory, exportability, then calibrated TTFT and TPOT against the budgets
// (docs/METHOD.md 4), with the reason for a rejection.
#pragma once

#include "core/search/engine.h"

#include <string>

namespace acsel
{

enum class GateVerdict : std::uint8_t { Admitted, Memory, NotExportable, Ttft, Tpot };
std::string_view toString(GateVerdict v);

struct Prediction {
    double ttftMs = 0, tpotMs = 0; // calibrated
    double rawTtftMs = 0, rawTpotMs = 0;
    double memoryBytes = 0;
    // What the stack's engine takes at the memory flag `acsel launch` prints (0: no engine
    // model); admitted configurations have both memories within the budget.
    double engineMemoryBytes = 0;
    double rmqd = 0;
    double admittedMemoryBytes() const
    {
        return memoryBytes > engineMemoryBytes ? memoryBytes : engineMemoryBytes;
    }
};

struct GateResult {
    GateVerdict verdict = GateVerdict::Admitted;
    Prediction prediction;
    std::string reason; // empty when admitted
    bool admitted() const { return verdict == GateVerdict::Admitted; }
};

// min(request budget, device capacity), bytes.
double memoryBudgetBytes(const Request& q, double capacityBytes);
double memoryBudgetBytes(const Request& q, const Platform& p);

// The full gate on one configuration. Memory is checked first: a configuration that does not
// fit is rejected before any latency is computed.
GateResult fullGate(const Engine& e, const Config& c, const Request& q);

} // namespace acsel
