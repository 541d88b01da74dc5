// Every budget triple of one workload answered exactly from an index built once.
//
// A workload is a request without its budgets (stack, model set, isl, osl, concurrency, serving
// mode) and a search space (SearchOptions). The index keeps the configurations that can be the
// answer for some budgets: walking the candidates in increasing predicted RMQD, a candidate c
// is left out when an earlier member f precedes it in the answer order under every budget and
// is admitted whenever c is: f's full estimate is no slower than c's (or its FracMix lower
// bound) in TTFT and TPOT, f needs no more memory than c's as the gate compares it, and f's
// RMQD is lower at float precision (or equal with f no worse on every later key of
// tierule.h). Then for any budgets, admitted(c) implies
// admitted(f) and f comes first, so the answer, the first admitted configuration in the
// answer order, is always a member. Members are full-gated once, while building; a query
// scans them in RMQD order and stops after the first admitted one's RMQD: no enumeration, no
// full gate. Needs FracMix to be a lower bound (Engine::fracMixIsLowerBound: static
// batching, and continuous batching at each recipe's running count) and a monotone
// calibration: `applies`.
#pragma once

#include "core/search/searcher.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace acsel
{

struct BudgetIndexStats {
    std::int64_t candidates = 0; // legal recipes within the device's memory, every context
    std::int64_t fullGates = 0;  // while building
    std::int64_t walks = 0;      // passes over the candidates while building
    double buildSeconds = 0;
};

class BudgetIndex
{
public:
    // Whether an index answers q's workload exactly (FracMix a lower bound, monotone FMC).
    static bool applies(const Engine& e, const Request& q);
    // The largest space indexed: a build walks it several times (32 walks for the GUI
    // default's 6.6M candidates), so beyond this (a 1024-layer model has 3-4 billion) it
    // would take minutes; such budgets are searched instead.
    static constexpr std::int64_t kMaxCandidates = 100'000'000;

    // Builds the index of q's workload (its budgets are ignored) over the space of `o`; empty
    // when cancelled. Throws std::invalid_argument for an unknown stack or where !applies, and
    // std::length_error for a space of more than kMaxCandidates. `roundSize`: the candidates a
    // walk keeps to decide (0: 2^15); the tests use tiny rounds to walk every path.
    static std::optional<BudgetIndex> build(const Engine& e, const Request& q,
                                            const SearchOptions& o, const ProgressFn& progress,
                                            const std::atomic<bool>& stop,
                                            std::int64_t roundSize = 0);

    // Whether q differs from the indexed request in its budgets at most, on the engine's
    // workspace and calibration the index was built with.
    bool answers(const Engine& e, const Request& q) const;
    // ExactSearch's answer for q's budgets over the indexed space (config, gate as the full
    // gate gives it); candidates is the space's size, no soft or full evaluation is made.
    // Precondition: answers(e, q).
    SearchResult answer(const Request& q) const;

    std::size_t members() const { return members_.size(); }
    const BudgetIndexStats& stats() const { return stats_; }

private:
    struct Member {
        Config config;
        double rmqd = 0;       // the search's RMQD (FracMixTable), the answer order's key
        Prediction prediction; // full estimate, calibrated, budget-free
    };

    BudgetIndex() = default;

    const Workspace* workspace_ = nullptr;
    Request workload_; // the built request, budgets cleared
    Calibration calibration_;
    double deviceCapacity_ = 0;
    std::vector<Member> members_; // non-decreasing RMQD
    BudgetIndexStats stats_;
};

} // namespace acsel
