// One interface for every searcher: a request, options (space, budget, seed), a progress
// callback and a stop flag in; the chosen configuration with its counts and time out.
#pragma once

#include "core/search/gate.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

struct SearchOptions {
    std::vector<int> models;         // workspace model indices; empty = every model
    std::vector<int> batches;        // candidate batch sizes; empty = kDefaultBatches
    std::vector<KvFormat> kvFormats; // empty = every KV format the stack has
    // Tensor-parallel degrees; empty = every degree up to the request's GPUs that the model's
    // heads and the stack's all-reduce data allow (searchTps).
    std::vector<int> tps;
    std::vector<Format> formats; // empty = every format the stack has
    std::vector<Scope> scopes{kAllScopes.begin(), kAllScopes.end()};
    int maxBands = 3;
    double eta = 0.05; // BandPareto soft-screen slack
    std::uint64_t seed = 1;
    std::int64_t maxEvaluations = 0; // full gates (Rand, HC); 0 = no limit
    double maxSeconds = 0;           // wall time (Rand, HC); 0 = no limit
    // Threads walking the contexts (BandPareto, Exact); 0 = one per hardware thread. The
    // answer and every count are the same for any number.
    int threads = 0;
};

struct SearchResult {
    std::string algorithm;
    std::optional<Config> config;     // empty: no configuration admitted
    GateResult gate;                  // the full gate of the returned configuration
    std::int64_t softEvaluations = 0; // FracMix scores
    std::int64_t fullEvaluations = 0; // full gates
    std::int64_t candidates = 0;      // size of the space searched
    double wallSeconds = 0;
    bool cancelled = false;
};

using ProgressFn = std::function<void(double fraction)>;

class Searcher
{
public:
    virtual ~Searcher() = default;
    virtual std::string name() const = 0;
    virtual SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                             const ProgressFn& progress, const std::atomic<bool>& stop) const = 0;
};

// A registered searcher by either name ("bp" or "band_pareto"); nullptr for another name.
std::unique_ptr<Searcher> makeSearcher(std::string_view name);

} // namespace acsel
