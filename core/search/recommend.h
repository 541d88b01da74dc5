// The recommend use case: one request in; the searcher's answer, the best uniform
// configuration, the next best distinct alternatives, the admitted frontier and the caveats
// out. acsel search and acsel recommend print it; the GUI shows it.
#pragma once

#include "core/search/budgetindex.h"
#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"
#include "core/search/workspaceengine.h"

#include <string>
#include <vector>

namespace acsel
{

struct RecommendRequest {
    Request request;
    SearchOptions options;
    SearchAlgorithm algorithm = defaultSearchAlgorithm();
    int top = 0;           // alternatives wanted after the answer
    bool frontier = false; // whether to compute the frontier
};

struct Alternative {
    Config config;
    GateResult gate; // admitted
};

struct Recommendation {
    SearchResult answer;
    std::optional<Alternative> bestUniform; // the best one-band configuration (Exact)
    // The best admitted configurations after the answer in the answer order (tierule.h), at
    // most RecommendRequest::top, distinct in (model, KV format, recipe) from the answer and
    // from each other (the same recipe at another batch is not an alternative), and none equal
    // to the answer or an earlier one in every prediction (samePredictions: the surrogates
    // cannot tell them apart).
    std::vector<Alternative> top;
    // Admitted configurations no other admitted one of the frontier beats in both RMQD and
    // calibrated normalised latency, by RMQD: the screened candidates' frontier of (FracMix +
    // FMC normalised latency, RMQD), each full-gated; of points equal in every prediction only
    // the first in the answer order.
    std::vector<Alternative> frontier;
    std::vector<std::string> notes; // caveats a reader of the answer must see
};

// How the note on an answer whose model has no quality rows begins (its model name follows).
inline constexpr const char* kExtrapolatedNote = "the quality data has no rows of ";
inline bool isExtrapolationNote(const std::string& note)
{
    return note.rfind(kExtrapolatedNote, 0) == 0;
}
// That note for a configuration of the model (Workspace::models index); empty when the quality
// data has rows of it or the engine is not a WorkspaceEngine (no per-model surrogate).
std::string extrapolationNote(const Engine& engine, int model);

// Throws std::invalid_argument for an unknown stack.
// The caveat on a model without quality rows needs WorkspaceEngine's surrogate; another
// engine gets only the synthetic-data one.
Recommendation recommend(const Engine& engine, const RecommendRequest& r,
                         const ProgressFn& progress, const std::atomic<bool>& stop);

// recommend() of an Exact request without alternatives, for any budgets of one workload, from
// two budget indexes built once (budgetindex.h): one of the request's space, one of its
// uniform configurations. Same answer, best uniform and notes; no enumeration per query.
class RecommendIndex
{
public:
    // Empty when cancelled; throws as BudgetIndex::build.
    static std::optional<RecommendIndex> build(const Engine& engine, const Request& q,
                                               const SearchOptions& o, const ProgressFn& progress,
                                               const std::atomic<bool>& stop);
    bool answers(const Engine& engine, const Request& q) const { return bands_.answers(engine, q); }
    // Precondition: answers(engine, q).
    Recommendation recommend(const Engine& engine, const Request& q) const;
    const BudgetIndex& bands() const { return bands_; }

private:
    RecommendIndex(BudgetIndex bands, BudgetIndex uniform)
        : bands_(std::move(bands)), uniform_(std::move(uniform))
    {
    }
    BudgetIndex bands_, uniform_;
};

} // namespace acsel
