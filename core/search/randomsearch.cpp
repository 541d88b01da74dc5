#include "core/search/randomsearch.h"

#include "core/search/samplingrun.h"

#include <random>

namespace acsel
{

SearcherInfo RandomSearch::describe()
{
    return {.name = "rand",
            .savedName = "random",
            .label = "Random",
            .summary = "Random legal configurations, each gated, until the evaluation budget",
            .paperBaseline = true,
            .sampling = true,
            .make = [] { return std::make_unique<RandomSearch>(); }};
}

namespace
{

// A uniformly random legal recipe: band count weighted by how many recipes it has, cuts and
// choices uniform, neighbours distinct; redrawn until some algorithm fits.
BandRecipe drawRecipe(const ConfigSpace& space, std::mt19937_64& rng)
{
    const int L = space.numLayers();
    const auto& choices = space.bandChoices();
    const auto n = static_cast<int>(choices.size());
    const int maxBands = n > 1 ? space.options().maxBands : 1;
    double weight[3] = {static_cast<double>(n), 0, 0};
    if (maxBands >= 2 && L >= 2)
        weight[1] = (L - 1.0) * n * (n - 1.0);
    if (maxBands >= 3 && L >= 3)
        weight[2] = (L - 1.0) * (L - 2.0) / 2.0 * n * (n - 1.0) * (n - 1.0);
    std::discrete_distribution<int> bandsDist({weight[0], weight[1], weight[2]});
    while (true) {
        const int bands = bandsDist(rng) + 1;
        int cuts[2] = {L, L};
        if (bands == 2) {
            cuts[0] = std::uniform_int_distribution<int>(1, L - 1)(rng);
        } else if (bands == 3) {
            do {
                cuts[0] = std::uniform_int_distribution<int>(1, L - 1)(rng);
                cuts[1] = std::uniform_int_distribution<int>(1, L - 1)(rng);
            } while (cuts[0] == cuts[1]);
            if (cuts[0] > cuts[1])
                std::swap(cuts[0], cuts[1]);
        }
        BandRecipe r;
        int begin = 0, previous = -1;
        for (int b = 0; b < bands; ++b) {
            int pick;
            do {
                pick = std::uniform_int_distribution<int>(0, n - 1)(rng);
            } while (pick == previous);
            previous = pick;
            const int end = b + 1 < bands ? cuts[b] : L;
            const FormatScope& c = choices[static_cast<std::size_t>(pick)];
            r.push({begin, end, c.format, c.scope});
            begin = end;
        }
        if (ConfigSpace::hasFittingAlgorithm(r))
            return r;
    }
}

} // namespace

SearchResult RandomSearch::run(const Engine& e, const Request& q, const SearchOptions& o,
                               const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    SamplingRun run(name(), e, q, o, progress, stop);
    while (!run.done()) {
        const int c = run.randomContext();
        const BandRecipe r = drawRecipe(run.table().space(c), run.rng());
        const std::vector<Algorithm> algos = ConfigSpace::fittingAlgorithms(r);
        const Algorithm a =
            algos[std::uniform_int_distribution<std::size_t>(0, algos.size() - 1)(run.rng())];
        run.gate(run.table().config(c, r, a));
    }
    return run.finish();
}

} // namespace acsel
