#include "core/search/gate.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace acsel
{

std::string_view toString(GateVerdict v)
{
    switch (v) {
    case GateVerdict::Admitted:
        return "admitted";
    case GateVerdict::Memory:
        return "memory";
    case GateVerdict::NotExportable:
        return "not exportable";
    case GateVerdict::Ttft:
        return "TTFT";
    case GateVerdict::Tpot:
        return "TPOT";
    }
    return "?";
}

double memoryBudgetBytes(const Request& q, double capacityBytes)
{
    return std::min(q.memBudgetGiB * 1024.0 * 1024.0 * 1024.0, capacityBytes);
}

double memoryBudgetBytes(const Request& q, const Platform& p)
{
    return memoryBudgetBytes(q, p.memCapacityBytes);
}

namespace
{

std::string over(const char* what, double value, double budget, const char* unit)
{
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s %.3g %s exceeds the budget %.3g %s", what, value, unit,
                  budget, unit);
    return buf;
}

} // namespace

std::optional<double> admittedMemoryBytes(const Engine& e, const Config& c, const Request& q)
{
    const Workspace& ws = e.workspace();
    const auto stackIndex = ws.findStack(q.stack);
    if (!stackIndex)
        throw std::invalid_argument("unknown stack '" + q.stack + "'");
    const double memory = e.memoryBytes(c, q);
    if (memory >
        memoryBudgetBytes(q, ws.platformOf(ws.stacks[static_cast<std::size_t>(*stackIndex)])))
        return std::nullopt;
    const std::optional<EngineMemory> engine = e.engineMemory(c, q);
    if (engine && !engine->loads())
        return std::nullopt;
    Prediction p; // the gate's rule for the larger of the two
    p.memoryBytes = memory;
    p.engineMemoryBytes = engine ? engine->totalBytes : 0.0;
    return p.admittedMemoryBytes();
}

GateResult fullGate(const Engine& e, const Config& c, const Request& q)
{
    GateResult g;
    const Workspace& ws = e.workspace();
    const auto stackIndex = ws.findStack(q.stack);
    if (!stackIndex) {
        g.verdict = GateVerdict::NotExportable;
        g.reason = "unknown stack '" + q.stack + "'";
        return g;
    }
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*stackIndex)];
    if (std::string problem = e.exportProblem(c, stack); !problem.empty()) {
        g.verdict = GateVerdict::NotExportable;
        g.reason = std::move(problem);
        return g;
    }
    g.prediction.rmqd = e.rmqd(c);
    g.prediction.memoryBytes = e.memoryBytes(c, q);
    const double budget = memoryBudgetBytes(q, ws.platformOf(stack));
    if (g.prediction.memoryBytes > budget) {
        g.verdict = GateVerdict::Memory;
        g.reason = over("memory", g.prediction.memoryBytes / (1 << 30), budget / (1 << 30), "GiB");
        return g;
    }
    if (const auto engine = e.engineMemory(c, q)) {
        g.prediction.engineMemoryBytes = engine->totalBytes;
        if (!engine->loads()) {
            g.verdict = GateVerdict::Memory;
            g.reason = engineMemoryProblem(*engine);
            return g;
        }
    }
    const LatencyMs raw = e.rawLatency(c, q);
    const LatencyMs cal = e.calibration(q.stack).apply(raw);
    g.prediction.rawTtftMs = raw.ttft;
    g.prediction.rawTpotMs = raw.tpot;
    g.prediction.ttftMs = cal.ttft;
    g.prediction.tpotMs = cal.tpot;
    if (cal.ttft > q.ttftBudgetMs) {
        g.verdict = GateVerdict::Ttft;
        g.reason = over("TTFT", cal.ttft, q.ttftBudgetMs, "ms");
    } else if (cal.tpot > q.tpotBudgetMs) {
        g.verdict = GateVerdict::Tpot;
        g.reason = over("TPOT", cal.tpot, q.tpotBudgetMs, "ms");
    }
    return g;
}

std::string budgetProblem(const Prediction& p, const Request& q, double capacityBytes)
{
    const double budget = memoryBudgetBytes(q, capacityBytes);
    if (p.memoryBytes > budget)
        return over("memory", p.memoryBytes / (1 << 30), budget / (1 << 30), "GiB");
    if (p.ttftMs > q.ttftBudgetMs)
        return over("TTFT", p.ttftMs, q.ttftBudgetMs, "ms");
    if (p.tpotMs > q.tpotBudgetMs)
        return over("TPOT", p.tpotMs, q.tpotBudgetMs, "ms");
    return {};
}

} // namespace acsel
