// Random toy workloads for the tests that check exact answers against brute force (ExactSearch,
// the budget index, the nearest miss): one generator, its draws in a fixed order, so a seed
// gives the same workloads in each.
#pragma once

#include "core/search/searcher.h"
#include "variantengine.h"

#include <random>
#include <vector>

namespace acsel::test
{

template <class T> T pick(std::mt19937_64& rng, const std::vector<T>& v)
{
    return v[static_cast<std::size_t>(rng() % v.size())];
}

struct ToyWorkload {
    VariantEngine engine;
    SearchOptions options;
    Request request;
};

// Ampere or Blackwell formats, batches tied in latency one time in three, uncalibrated one
// time in two; batches 1, 4 and 8, 1-3 bands, two of the formats (withScopes: the full scope
// and MLP or attention); toygpu/toy, isl 256, osl 64, concurrency 1, 2 or 4, static, no budgets.
inline ToyWorkload randomToyWorkload(std::mt19937_64& rng, bool withScopes = false)
{
    const std::vector<Format>& formats = rng() % 2 != 0 ? kAmpere : kBlackwell;
    ToyWorkload w{VariantEngine(formats, rng() % 3 == 0), {}, {}};
    if (rng() % 2 != 0)
        w.engine.cal = Calibration{};
    w.options.batches = {1, 4, 8};
    w.options.maxBands = 1 + static_cast<int>(rng() % 3);
    w.options.formats = {pick(rng, formats), pick(rng, formats)};
    if (withScopes)
        w.options.scopes = {Scope::Full, pick(rng, std::vector<Scope>{Scope::Mlp, Scope::Attn})};
    w.request.stack = "toygpu/toy";
    w.request.isl = 256;
    w.request.osl = 64;
    w.request.concurrency = pick(rng, std::vector<int>{1, 2, 4});
    return w;
}

} // namespace acsel::test
