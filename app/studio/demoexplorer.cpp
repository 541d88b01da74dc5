#include "demoexplorer.h"

#include "core/model/configspace.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace acsel::studio
{

using namespace acsel::gui;

namespace
{
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr int kDemoMaxBands = 2; // keeps the demo space at a few thousand recipes per model

double bytesPerWeight(Format f)
{
    return facts(f).effectiveBits / 8.0;
}
bool quantizesAttn(Scope s)
{
    return s != Scope::Mlp;
}
bool quantizesMlp(Scope s)
{
    return s != Scope::Attn;
}

struct Roofline {
    double ttftMs, tpotMs, memoryGiB, rmqd;
    double weightGiB, kvGiB, runtimeGiB, gemmPrefillMs, attnPrefillMs, decodeWeightsMs, decodeKvMs;
};

Roofline roofline(const ModelArch& m, const Platform& plat, const Config& c, const Request& q)
{
    Roofline r{};
    const double attnP = static_cast<double>(m.attnLinearParams());
    const double mlpP = static_cast<double>(m.mlpLinearParams());
    const double tokens = static_cast<double>(c.batch) * q.isl;
    const double bw = plat.memBandwidth * plat.memBwScaling;
    double weights = 0;
    double rmqdSum = 0;
    for (const Band& b : c.recipe) {
        const double fa = quantizesAttn(b.scope) ? bytesPerWeight(b.format) : 2.0;
        const double fm = quantizesMlp(b.scope) ? bytesPerWeight(b.format) : 2.0;
        weights += b.layers() * (attnP * fa + mlpP * fm);
        // Prefill GEMMs at the format's peak when activations are quantized, else bf16 peak.
        const ComputeClass cc =
            facts(b.format).quantizesActivations ? facts(b.format).compute : ComputeClass::Bf16;
        const double peak =
            plat.peakFlops(cc) > 0 ? plat.peakFlops(cc) : plat.peakFlops(ComputeClass::Bf16);
        const double qShare =
            (quantizesAttn(b.scope) ? attnP : 0) + (quantizesMlp(b.scope) ? mlpP : 0);
        const double flopsQ = 2 * tokens * qShare;
        const double flopsB = 2 * tokens * (attnP + mlpP - qShare);
        r.gemmPrefillMs +=
            b.layers() * (flopsQ / peak + flopsB / plat.peakFlops(ComputeClass::Bf16)) * 1e3;
        // Synthetic quality proxy: squared bit deficit weighted by the quantized share, with the
        // first and last layers counted double (they are the sensitive ones).
        const double d = bitDeficit(b.format);
        for (int l = b.begin; l < b.end; ++l) {
            const double depth = (l < m.layers / 6 || l >= m.layers - m.layers / 6) ? 2.0 : 1.0;
            rmqdSum += depth * d * d * qShare / (attnP + mlpP);
        }
    }
    const double embed =
        static_cast<double>(m.embeddingParams()) * 2.0 * (m.tiedEmbeddings ? 1 : 2);
    weights += embed;
    const double kvPerToken =
        2.0 * m.layers * m.kvHeads * m.headDim * (c.kv == KvFormat::Fp8 ? 1.0 : 2.0);
    const double kv = kvPerToken * c.batch * (q.isl + q.osl);
    r.attnPrefillMs = 4.0 * c.batch * static_cast<double>(q.isl) * q.isl * m.heads * m.headDim *
                      m.layers / plat.peakFlops(ComputeClass::Bf16) * 1e3 /
                      2; // causal: half the square
    r.ttftMs = r.gemmPrefillMs + r.attnPrefillMs;
    r.decodeWeightsMs = weights / bw * 1e3;
    r.decodeKvMs = kvPerToken * c.batch * (q.isl + q.osl / 2.0) / bw * 1e3; // mean context
    r.tpotMs = r.decodeWeightsMs + r.decodeKvMs;
    r.weightGiB = weights / kGiB;
    r.kvGiB = kv / kGiB;
    r.runtimeGiB = plat.otherMemBytes / kGiB;
    r.memoryGiB = r.weightGiB + r.kvGiB + r.runtimeGiB;
    // Distance to the family's oracle shrinks with size; quantization adds a bit-deficit term
    // that bigger models absorb better.
    const double params = static_cast<double>(m.paramCount());
    const double base = 0.02 * std::pow(1e11 / params, 0.35);
    r.rmqd = base + 0.5 / std::log10(params) * rmqdSum / m.layers;
    return r;
}

Config withFittingAlgorithm(Config c)
{
    const std::vector<Algorithm> fits = ConfigSpace::fittingAlgorithms(c.recipe);
    if (!fits.empty())
        c.algorithm = fits.front();
    return c;
}

std::string verdictOf(const Roofline& r, const Request& q)
{
    char buf[160];
    if (r.memoryGiB > q.memBudgetGiB)
        std::snprintf(buf, sizeof buf, "memory %.1f GiB > budget %.1f GiB", r.memoryGiB,
                      q.memBudgetGiB);
    else if (r.ttftMs > q.ttftBudgetMs)
        std::snprintf(buf, sizeof buf, "TTFT %.1f ms > budget %.1f ms", r.ttftMs, q.ttftBudgetMs);
    else if (r.tpotMs > q.tpotBudgetMs)
        std::snprintf(buf, sizeof buf, "TPOT %.2f ms > budget %.2f ms", r.tpotMs, q.tpotBudgetMs);
    else
        return "admitted";
    return buf;
}

Prediction predictDemo(const Workspace& ws, const Config& c, const Request& q)
{
    Prediction p;
    const auto s = ws.findStack(q.stack);
    if (!s || c.model < 0 || static_cast<std::size_t>(c.model) >= ws.models.size()) {
        p.verdict = "unknown stack or model";
        return p;
    }
    const Roofline r = roofline(ws.models[static_cast<std::size_t>(c.model)],
                                ws.platformOf(ws.stacks[static_cast<std::size_t>(*s)]), c, q);
    p.ttftMs = r.ttftMs;
    p.tpotMs = r.tpotMs;
    p.memoryGiB = r.memoryGiB;
    p.rmqd = r.rmqd;
    p.verdict = verdictOf(r, q);
    p.admitted = p.verdict == "admitted";
    p.ttftBreakdownMs = {{"GEMMs (roofline)", r.gemmPrefillMs},
                         {"attention (roofline)", r.attnPrefillMs}};
    p.tpotBreakdownMs = {{"weights read", r.decodeWeightsMs}, {"KV cache read", r.decodeKvMs}};
    p.memoryBreakdownGiB = {
        {"weights", r.weightGiB}, {"KV cache", r.kvGiB}, {"runtime", r.runtimeGiB}};
    return p;
}

std::shared_ptr<const PointSet> scoreDemo(const Workspace& ws, const Request& q,
                                          const SpaceFilter& f)
{
    auto set = std::make_shared<PointSet>();
    set->synthetic = true;
    set->provenance = "DEMO, synthetic: roofline latency and a made-up quality proxy, not ACSeL "
                      "predictions (uniform and 2-band recipes)";
    const auto s = ws.findStack(q.stack);
    if (!s)
        return set;
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*s)];
    const Platform& plat = ws.platformOf(stack);
    SpaceOptions opt;
    for (Format fmt : stack.formats)
        if (std::find(f.formats.begin(), f.formats.end(), fmt) != f.formats.end())
            opt.formats.push_back(fmt);
    opt.scopes = f.scopes;
    opt.maxBands = kDemoMaxBands;
    for (const int mi : f.models) {
        const ModelArch& m = ws.models[static_cast<std::size_t>(mi)];
        const auto modelSlot = static_cast<std::uint16_t>(set->modelNames.size());
        set->modelNames.push_back(m.name);
        ConfigSpace space(m.layers, opt);
        Config c;
        c.model = mi;
        c.batch = q.concurrency;
        space.forEachRecipe([&](const BandRecipe& r) {
            c.recipe = r;
            const Config full = withFittingAlgorithm(c);
            const Roofline rl = roofline(m, plat, full, q);
            PlotPoint p{rl.ttftMs,
                        rl.tpotMs,
                        rl.rmqd,
                        rl.memoryGiB,
                        static_cast<std::uint32_t>(set->configs.size()),
                        modelSlot,
                        formatFamily(r),
                        r.isUniform()};
            set->points.push_back(p);
            set->configs.push_back(full);
        });
    }
    return set;
}

SearchOutcome searchDemo(const Workspace& ws, const Request& q, const SpaceFilter& f,
                         SearchAlgorithm a, const SearchRunner::ProgressFn& progress,
                         const std::atomic<bool>& stop)
{
    const auto t0 = std::chrono::steady_clock::now();
    SearchOutcome out;
    out.stats.algorithm = a;
    const auto set = scoreDemo(ws, q, f);
    double best = 1e300, bestU = 1e300;
    const std::size_t n = set->points.size();
    for (std::size_t i = 0; i < n; ++i) {
        if ((i & 1023) == 0) {
            if (stop.load())
                return out;
            progress(static_cast<double>(i) / static_cast<double>(n));
        }
        const PlotPoint& p = set->points[i];
        ++out.stats.candidates;
        if (p.ttftMs > q.ttftBudgetMs || p.tpotMs > q.tpotBudgetMs || p.memoryGiB > q.memBudgetGiB)
            continue;
        ++out.stats.screened;
        if (p.rmqd < best) {
            best = p.rmqd;
            out.best = set->configs[p.configId];
        }
        if (p.uniform && p.rmqd < bestU) {
            bestU = p.rmqd;
            out.bestUniform = set->configs[p.configId];
        }
    }
    if (out.best) {
        out.bestPrediction = predictDemo(ws, *out.best, q);
        ++out.stats.gated;
    }
    if (out.bestUniform) {
        out.bestUniformPrediction = predictDemo(ws, *out.bestUniform, q);
        ++out.stats.gated;
    }
    out.stats.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress(1.0);
    return out;
}
} // namespace

ExplorerHooks makeDemoExplorer(std::shared_ptr<const Workspace> w)
{
    ExplorerHooks h;
    h.scoreSpace = [w](const Request& q, const SpaceFilter& f) { return scoreDemo(*w, q, f); };
    h.predict = [w](const Config& c, const Request& q) { return predictDemo(*w, c, q); };
    h.search = [w](const Request& q, const SpaceFilter& f, SearchAlgorithm a,
                   const SearchRunner::ProgressFn& p,
                   const std::atomic<bool>& stop) { return searchDemo(*w, q, f, a, p, stop); };
    h.syntheticNote =
        "DEMO MODE: every number shown is synthetic (roofline latency, made-up quality "
        "proxy, brute-force search), not an ACSeL prediction.";
    return h;
}

} // namespace acsel::studio
