#include "core/latency/benchmarkreplay.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <vector>

namespace acsel
{

namespace
{

struct InFlight {
    std::size_t client = 0;
    double sentMs = 0;
    long visibleFrom = 0; // first step that can schedule it
    int promptLeft = 0;   // prompt tokens not yet prefilled
    int tokens = 0;       // output tokens produced
    double firstTokenMs = 0;
};

// The prompt tokens each running request prefills in the next step (0: none), in admission
// order, and how many decodes that step carries.
struct StepPlan {
    std::vector<int> chunk;
    int prefillTokens = 0;
    int decodes = 0;
    double kvSum = 0; // context lengths of the decodes
};

StepPlan planStep(const std::vector<InFlight>& running, const ServingDefaults& d, int isl)
{
    StepPlan plan;
    plan.chunk.assign(running.size(), 0);
    int decoding = 0;
    double kvSum = 0;
    bool prefillWaiting = false;
    for (const InFlight& r : running) {
        if (r.promptLeft > 0) {
            prefillWaiting = true;
        } else {
            ++decoding;
            kvSum += isl + r.tokens;
        }
    }
    // Engines that never mix stall the decodes while a prompt waits (SGLang's default).
    if (d.mixesPrefillAndDecode || !prefillWaiting) {
        plan.decodes = decoding;
        plan.kvSum = kvSum;
    }
    int room = static_cast<int>(d.stepTokenBudget) - plan.decodes;
    for (std::size_t i = 0; i < running.size() && prefillWaiting; ++i) {
        const int left = running[i].promptLeft;
        if (left == 0)
            continue;
        const bool fits = left <= room || plan.prefillTokens == 0;
        const int take = d.chunkedPrefill ? std::min(left, std::max(room, 0)) : fits ? left : 0;
        if (take == 0)
            break; // first come first served: no prompt overtakes one that waits
        plan.chunk[i] = take;
        plan.prefillTokens += take;
        room -= take;
    }
    return plan;
}

} // namespace

BenchmarkReplay replayBenchmark(const StepModel& model, const ServingDefaults& d, int clients,
                                int slots, int isl, int osl, int rounds)
{
    if (clients < 1 || slots < 1 || isl < 1 || osl < 1 || rounds < 1)
        throw std::invalid_argument("a benchmark replay needs every count to be at least 1");
    std::vector<int> toSend(static_cast<std::size_t>(clients), rounds - 1);
    std::deque<InFlight> waiting; // sent, no slot yet, in sending order
    for (std::size_t c = 0; c < toSend.size(); ++c)
        waiting.push_back({c, 0.0, 0, isl, 0, 0.0});
    std::vector<InFlight> running; // admission order
    const long total = static_cast<long>(clients) * rounds;
    double now = 0, ttftSum = 0, tpotSum = 0;
    long finished = 0, step = 0;
    while (finished < total) {
        while (static_cast<int>(running.size()) < slots && !waiting.empty() &&
               waiting.front().visibleFrom <= step) {
            running.push_back(waiting.front());
            waiting.pop_front();
        }
        if (running.empty()) { // idle: the next requests are scheduled as they arrive
            const long next = waiting.front().visibleFrom;
            for (InFlight& w : waiting)
                if (w.visibleFrom == next)
                    w.visibleFrom = step;
            continue;
        }
        const StepPlan plan = planStep(running, d, isl);
        now += model.mixedFixedMs(static_cast<double>(plan.prefillTokens) / isl, isl, isl,
                                  plan.decodes);
        if (plan.decodes > 0)
            now += model.mixedAttentionMs(plan.decodes, plan.kvSum / plan.decodes);
        ++step;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < running.size(); ++i) {
            InFlight r = running[i];
            if (plan.chunk[i] > 0) {
                r.promptLeft -= plan.chunk[i];
                if (r.promptLeft == 0) {
                    r.tokens = 1;
                    r.firstTokenMs = now;
                }
            } else if (r.promptLeft == 0 && plan.decodes > 0) {
                ++r.tokens;
            }
            if (r.promptLeft > 0 || r.tokens < osl) {
                running[kept++] = r;
                continue;
            }
            ttftSum += r.firstTokenMs - r.sentMs;
            if (osl > 1)
                tpotSum += (now - r.firstTokenMs) / (osl - 1);
            ++finished;
            if (toSend[r.client] > 0) {
                --toSend[r.client];
                waiting.push_back({r.client, now, step + d.stepsBeforeOwnPrefill(), isl, 0, 0.0});
            }
        }
        running.resize(kept);
    }
    BenchmarkReplay out;
    out.meanTtftMs = ttftSum / static_cast<double>(total);
    out.meanTpotMs = tpotSum / static_cast<double>(total);
    out.steps = step;
    return out;
}

} // namespace acsel
