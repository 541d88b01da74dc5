#include "core/search/hillclimb.h"

#include "core/search/samplingrun.h"

#include <algorithm>
#include <limits>
#include <random>

namespace acsel
{

SearcherInfo HillClimb::describe()
{
    return {.name = "hc",
            .savedName = "hill_climb",
            .label = "Hill climbing",
            .summary = "Local moves from random starts, each gated, until the evaluation budget",
            .paperBaseline = true,
            .sampling = true,
            .make = [] { return std::make_unique<HillClimb>(); }};
}

namespace
{

// Merges equal neighbours so that the recipe is canonical; false if it is not legal.
bool normalise(BandRecipe& r)
{
    BandRecipe out;
    for (const Band& b : r) {
        Band band = b;
        if (band.format == Format::Bf16)
            band.scope = Scope::Full;
        if (out.size() > 0) {
            Band& last = out[out.size() - 1];
            if (last.format == band.format && last.scope == band.scope) {
                last.end = band.end;
                continue;
            }
        }
        out.push(band);
    }
    r = out;
    return r.validate(r.numLayers()).empty() && ConfigSpace::hasFittingAlgorithm(r);
}

bool offered(const std::vector<FormatScope>& choices, Format f, Scope s)
{
    return std::find(choices.begin(), choices.end(), FormatScope{f, s}) != choices.end();
}

// Formats one step away on the ladder.
std::vector<Format> ladderNeighbours(Format f, const std::vector<Format>& ladder)
{
    std::vector<Format> out;
    const auto it = std::find(ladder.begin(), ladder.end(), f);
    if (it == ladder.end())
        return out;
    if (it != ladder.begin())
        out.push_back(*(it - 1));
    if (it + 1 != ladder.end())
        out.push_back(*(it + 1));
    return out;
}

Scope scopeFor(Format f, Scope wanted)
{
    return f == Format::Bf16 ? Scope::Full : wanted;
}

} // namespace

std::vector<BandRecipe> recipeNeighbours(const BandRecipe& r,
                                         const std::vector<FormatScope>& choices,
                                         const std::vector<Format>& ladder)
{
    std::vector<BandRecipe> out;
    auto add = [&](BandRecipe n) {
        if (normalise(n) && !(n == r) && std::find(out.begin(), out.end(), n) == out.end())
            out.push_back(n);
    };
    for (int i = 0; i < r.size(); ++i) {
        const Band& b = r[i];
        for (Format f : ladderNeighbours(b.format, ladder)) {
            const Scope s = scopeFor(f, b.scope);
            if (offered(choices, f, s)) {
                BandRecipe n = r;
                n[i].format = f;
                n[i].scope = s;
                add(n);
            }
        }
        for (Scope s : kAllScopes) {
            if (s != b.scope && b.format != Format::Bf16 && offered(choices, b.format, s)) {
                BandRecipe n = r;
                n[i].scope = s;
                add(n);
            }
        }
        if (r.size() < BandRecipe::kMaxBands && b.layers() >= 2) {
            const int mid = b.begin + b.layers() / 2;
            for (Format f : ladderNeighbours(b.format, ladder)) {
                for (int half = 0; half < 2; ++half) {
                    const Scope s = scopeFor(f, b.scope == Scope::Full ? Scope::Full : b.scope);
                    if (!offered(choices, f, s))
                        continue;
                    BandRecipe n;
                    for (int j = 0; j < r.size(); ++j) {
                        if (j != i) {
                            n.push(r[j]);
                            continue;
                        }
                        Band first{b.begin, mid, b.format, b.scope};
                        Band second{mid, b.end, b.format, b.scope};
                        Band& changed = half == 0 ? first : second;
                        changed.format = f;
                        changed.scope = s;
                        n.push(first);
                        n.push(second);
                    }
                    add(n);
                }
            }
        }
        if (i + 1 < r.size()) {
            for (int delta : {-1, +1}) {
                BandRecipe n = r;
                n[i].end += delta;
                n[i + 1].begin += delta;
                if (n[i].layers() > 0 && n[i + 1].layers() > 0)
                    add(n);
            }
            for (int keep = 0; keep < 2; ++keep) {
                BandRecipe n;
                for (int j = 0; j < r.size(); ++j) {
                    if (j == i + 1)
                        continue;
                    Band band = r[j];
                    if (j == i) {
                        const Band& source = keep == 0 ? r[i] : r[i + 1];
                        band = {r[i].begin, r[i + 1].end, source.format, source.scope};
                    }
                    n.push(band);
                }
                add(n);
            }
        }
    }
    return out;
}

namespace
{

struct Scored {
    bool admitted = false;
    double value = std::numeric_limits<double>::infinity(); // RMQD if admitted, else violation
    bool betterThan(const Scored& o) const
    {
        if (admitted != o.admitted)
            return admitted;
        return value < o.value;
    }
};

} // namespace

SearchResult HillClimb::run(const Engine& e, const Request& q, const SearchOptions& o,
                            const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    SamplingRun run(name(), e, q, o, progress, stop);
    const FracMixTable& table = run.table();
    const auto contexts = static_cast<int>(table.contexts().size());

    std::vector<Format> ladder = searchFormats(table.stack(), o);
    std::sort(ladder.begin(), ladder.end(), [](Format a, Format b) {
        return facts(a).effectiveBits < facts(b).effectiveBits ||
               (facts(a).effectiveBits == facts(b).effectiveBits && a < b);
    });

    auto evaluate = [&](int c, const BandRecipe& r) {
        const GateResult& g = run.gate(table.config(c, r, table.bestQuality(c, r).first));
        Scored s;
        s.admitted = g.admitted();
        if (s.admitted) {
            s.value = g.prediction.rmqd;
        } else if (g.verdict != GateVerdict::NotExportable) {
            const Prediction& p = g.prediction;
            s.value = std::max({p.memoryBytes / table.memoryBudget(), p.ttftMs / q.ttftBudgetMs,
                                p.tpotMs / q.tpotBudgetMs});
        }
        return s;
    };

    // Start: the best uniform configuration of every context.
    int currentContext = 0;
    BandRecipe current;
    Scored currentScore;
    for (int c = 0; c < contexts && !run.done(); ++c) {
        for (const FormatScope& ch : table.space(c).bandChoices()) {
            const BandRecipe r =
                BandRecipe::uniform(table.space(c).numLayers(), ch.format, ch.scope);
            const Scored s = evaluate(c, r);
            if (s.betterThan(currentScore) || current.size() == 0) {
                currentScore = s;
                current = r;
                currentContext = c;
            }
            if (run.done())
                break;
        }
    }
    while (!run.done() && current.size() > 0) {
        const auto& choices = table.space(currentContext).bandChoices();
        Scored bestScore = currentScore;
        BandRecipe best;
        for (const BandRecipe& n : recipeNeighbours(current, choices, ladder)) {
            const Scored s = evaluate(currentContext, n);
            if (s.betterThan(bestScore)) {
                bestScore = s;
                best = n;
            }
            if (run.done())
                break;
        }
        if (best.size() > 0) {
            current = best;
            currentScore = bestScore;
        } else if (!run.done()) {
            // Stuck: restart from a random uniform configuration of a random context.
            currentContext = run.randomContext();
            const auto& ch = table.space(currentContext).bandChoices();
            const FormatScope pick =
                ch[std::uniform_int_distribution<std::size_t>(0, ch.size() - 1)(run.rng())];
            current = BandRecipe::uniform(table.space(currentContext).numLayers(), pick.format,
                                          pick.scope);
            currentScore = evaluate(currentContext, current);
        }
    }
    return run.finish();
}

} // namespace acsel
