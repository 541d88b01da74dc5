#include "app/cli/nearestmisstext.h"

#include "app/cli/answerdetails.h"
#include "core/model/units.h"

#include <charconv>
#include <iomanip>
#include <locale>
#include <sstream>

namespace acsel::cli
{
namespace
{

std::string fixed(double v, int digits)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

// The shortest text that reads back as v: "10" or "12.5" (a percentage as given).
std::string shortest(double v)
{
    char buf[32];
    return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

// A budget's value in its unit: ms, or GiB from bytes.
std::string shown(BudgetKind b, double value, bool bytes)
{
    return fixed(bytes && b == BudgetKind::Memory ? value / kGiB : value, 2) + " " +
           std::string(unitOf(b));
}

std::string others(BudgetKind b)
{
    switch (b) {
    case BudgetKind::Ttft:
        return "TPOT and memory";
    case BudgetKind::Tpot:
        return "TTFT and memory";
    case BudgetKind::Memory:
        break;
    }
    return "TTFT and TPOT";
}

std::string key(BudgetKind b)
{
    switch (b) {
    case BudgetKind::Ttft:
        return "ttft";
    case BudgetKind::Tpot:
        return "tpot";
    case BudgetKind::Memory:
        break;
    }
    return "memory";
}

const Platform& gpuOf(const Workspace& ws, const Request& q)
{
    return ws.platformOf(ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))]);
}

// The request the answer at the suggested budget was gated at (the margin taken off).
Request suggestedAt(const NearestMissInput& in, const BudgetMiss& m)
{
    return in.margin.apply(withBudget(in.asked, m.budget, m.suggested),
                           gpuOf(in.engine.workspace(), in.asked));
}

// Why loosening b alone admits nothing.
std::string reasonNone(const NearestMissInput& in, BudgetKind b)
{
    if (b != BudgetKind::Memory)
        return "no configuration meets the " + others(b) + " budgets at any " +
               std::string(toString(b));
    const double device = gpuOf(in.engine.workspace(), in.asked).memCapacityBytes;
    const std::string whole = in.margin.percent > 0
                                  ? shortest(100 - in.margin.percent) + "% of the device (" +
                                        fixed(device / kGiB * (1 - in.margin.percent / 100), 2) +
                                        " GiB)"
                                  : "the whole device (" + fixed(device / kGiB, 2) + " GiB)";
    return "no configuration meets the TTFT and TPOT budgets even with " + whole;
}

std::string predictionText(const Engine& e, const Config& c, const Request& at, const Prediction& p)
{
    return "TTFT " + fixed(p.ttftMs, 2) + " ms, TPOT " + fixed(p.tpotMs, 2) + " ms, " +
           fixed(p.memoryBytes / kGiB, 2) + " GiB" + engineMemoryNote(e, c, at) + ", RMQD " +
           fixed(p.rmqd, 5);
}

} // namespace

std::vector<std::string> nearestMissLines(const NearestMissInput& in)
{
    const Workspace& ws = in.engine.workspace();
    std::vector<std::string> out{
        "nearest miss (one budget loosened, the other two kept; the exact search's answer "
        "there):"};
    const std::string withMargin =
        in.margin.percent > 0 ? " (with the " + shortest(in.margin.percent) + "% margin)" : "";
    for (const BudgetMiss& m : in.miss.budgets) {
        const std::string name(toString(m.budget));
        if (!m.lowest) {
            out.push_back("  " + name +
                          ": loosening it alone admits nothing: " + reasonNone(in, m.budget));
            continue;
        }
        std::string line = "  " + name + " binds: within the " + others(m.budget) +
                           " budgets the lowest is " + shown(m.budget, *m.lowest, true) +
                           "; at a " + name + " budget of " + fixed(m.suggested, 1) + " " +
                           std::string(unitOf(m.budget)) + withMargin + " the answer is ";
        if (m.answer.config)
            line += describeConfig(ws, *m.answer.config) + " (" +
                    predictionText(in.engine, *m.answer.config, suggestedAt(in, m),
                                   m.answer.gate.prediction) +
                    ")";
        else
            line += "none (the exact search found none there)";
        out.push_back(line);
    }
    if (!in.miss.anyBudgetAlone())
        out.push_back("  no single budget binds: loosen two or more, or widen the search space");
    if (!in.memoryFloor.empty())
        out.push_back("  " + in.memoryFloor);
    return out;
}

nlohmann::ordered_json nearestMissJson(const NearestMissInput& in)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    const Workspace& ws = in.engine.workspace();
    for (const BudgetMiss& m : in.miss.budgets) {
        nlohmann::ordered_json j;
        j["budget"] = key(m.budget);
        j["unit"] = unitOf(m.budget);
        j["asked"] = budgetOf(in.asked, m.budget);
        if (!m.lowest) {
            j["lowest"] = nullptr;
            j["suggested"] = nullptr;
            j["answer"] = nullptr;
            j["reason"] = reasonNone(in, m.budget);
        } else {
            j["lowest"] = m.budget == BudgetKind::Memory ? *m.lowest / kGiB : *m.lowest;
            j["suggested"] = m.suggested;
            if (m.answer.config) {
                j["answer"] = configDocumentJson(makeConfigDocument(
                    ws, *m.answer.config, suggestedAt(in, m), m.answer.gate.prediction, in.note));
            } else {
                j["answer"] = nullptr;
            }
        }
        out.push_back(std::move(j));
    }
    return out;
}

std::string marginNote(const Request& asked, const Request& gated, const BudgetMargin& margin)
{
    if (margin.percent == 0)
        return {};
    return "margin " + shortest(margin.percent) +
           "%: gated at TTFT <= " + fixed(gated.ttftBudgetMs, 2) +
           " ms, TPOT <= " + fixed(gated.tpotBudgetMs, 2) +
           " ms, memory <= " + fixed(gated.memBudgetGiB, 2) + " GiB (the budgets given: TTFT " +
           fixed(asked.ttftBudgetMs, 2) + " ms, TPOT " + fixed(asked.tpotBudgetMs, 2) +
           " ms, memory " + fixed(asked.memBudgetGiB, 2) + " GiB)";
}

} // namespace acsel::cli
