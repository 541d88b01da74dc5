// acsel bench search: the search's hot paths on one request, each against a naive baseline
// measured in the same run (FracMix vs the full estimate, the full gate vs the naive per-layer
// estimate, BandPareto and Exact vs full-gating every candidate).
#include "app/cli/command.h"
#include "app/cli/engineargs.h"
#include "core/latency/naiveestimate.h"
#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <ostream>
#include <random>

namespace acsel::cli
{
namespace
{

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

template <class F> double medianSeconds(F&& f, int samples)
{
    std::vector<double> s;
    for (int i = 0; i < samples; ++i) {
        const auto t0 = Clock::now();
        f();
        s.push_back(secondsSince(t0));
    }
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    specs.push_back(
        {"stack", "ID", "stack (default a100_sxm/trtllm, an Ampere stack like the paper's A6000)"});
    specs.push_back({"model", "NAME", "model (default Qwen3-8B)"});
    specs.push_back({"samples", "N", "timing samples per measurement (default 7)"});
    const app::Args args("bench search", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const auto engine = loadEngineFromArgs(args);
    const Workspace& ws = engine->workspace();
    const std::string stackId = args.valueOr("stack", "a100_sxm/trtllm");
    const auto si = ws.findStack(stackId);
    if (!si)
        throw app::UsageError("acsel bench search: unknown stack '" + stackId +
                              "' (acsel info lists them)");
    const auto mi = ws.findModel(args.valueOr("model", "Qwen3-8B"));
    if (!mi)
        throw app::UsageError("acsel bench search: unknown model (acsel info lists them)");
    const int samples = args.integer("samples", 7, 1, 1000);
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*si)];
    const ModelArch& arch = ws.models[static_cast<std::size_t>(*mi)];

    // A request around the model's uniform int8/fp8 point (TTFT 10% above it, TPOT at it), so
    // that the answer is a mix of that format and higher-precision bands.
    SearchOptions o;
    o.models = {*mi};
    Request q;
    q.stack = stackId;
    q.isl = 1024;
    q.osl = 256;
    q.concurrency = 8;
    q.memBudgetGiB = ws.platformOf(stack).memCapacityBytes / kGiB;
    Config anchor;
    anchor.model = *mi;
    anchor.batch = 8;
    const Format anchorFormat = stack.hasFormat(Format::Fp8)    ? Format::Fp8
                                : stack.hasFormat(Format::Int8) ? Format::Int8
                                                                : Format::Bf16;
    anchor.recipe = BandRecipe::uniform(arch.layers, anchorFormat);
    anchor.algorithm = anchorFormat == Format::Int8 ? Algorithm::SmoothQuant : Algorithm::Max;
    const LatencyMs anchorLatency =
        engine->calibration(stackId).apply(engine->rawLatency(anchor, q));
    q.ttftBudgetMs = 1.1 * anchorLatency.ttft;
    q.tpotBudgetMs = 1.0 * anchorLatency.tpot;

    volatile double sink = 0;
    const std::atomic<bool> noStop{false};
    // 1. FracMix table build.
    const double buildS = medianSeconds(
        [&] {
            FracMixTable t(*engine, q, o);
            sink = sink + static_cast<double>(t.uniformEstimates());
        },
        samples);
    const FracMixTable table(*engine, q, o);
    // 2. FracMix per candidate: enumerating one context's whole space and scoring every recipe
    // (latency and memory; then also the best-algorithm RMQD), vs the full estimate.
    std::vector<BandRecipe> recipes;
    table.space(0).forEachRecipe([&](const BandRecipe& r) { recipes.push_back(r); });
    const auto perRecipe = static_cast<double>(recipes.size());
    const double softS = medianSeconds(
                             [&] {
                                 table.space(0).forEachRecipe([&](const BandRecipe& r) {
                                     sink = sink + table.soft(0, r).rawTtft;
                                 });
                             },
                             samples) /
                         perRecipe;
    const double softQualityS =
        medianSeconds(
            [&] {
                table.space(0).forEachRecipe([&](const BandRecipe& r) {
                    sink = sink + table.soft(0, r).rawTtft + table.bestQuality(0, r).second;
                });
            },
            samples) /
        perRecipe;
    std::mt19937_64 rng(1);
    std::vector<Config> sample;
    for (int i = 0; i < 2000; ++i) {
        const BandRecipe& r = recipes[rng() % recipes.size()];
        sample.push_back(table.config(0, r, table.bestQuality(0, r).first));
    }
    const OpCosts& costs = engine->opCosts(*si);
    const double fullS = medianSeconds(
                             [&] {
                                 for (const Config& c : sample)
                                     sink = sink + fullGate(*engine, c, q).prediction.rmqd;
                             },
                             samples) /
                         2000.0;
    const double estimateS = medianSeconds(
                                 [&] {
                                     for (const Config& c : sample)
                                         sink = sink + engine->rawLatency(c, q).ttft;
                                 },
                                 samples) /
                             2000.0;
    const double naiveS =
        medianSeconds(
            [&] {
                for (int i = 0; i < 200; ++i)
                    sink = sink +
                           estimateLatencyNaive(costs, arch, sample[static_cast<std::size_t>(i)], q)
                               .ttftMs;
            },
            samples) /
        200.0;
    // 3. Whole searches, vs full-gating every candidate of the space (projected from the
    // measured full-gate time: actually running it would take minutes).
    SearchResult bp, exact;
    const double bpS =
        medianSeconds([&] { bp = BandPareto().run(*engine, q, o, {}, noStop); }, samples);
    const double exactS =
        medianSeconds([&] { exact = ExactSearch().run(*engine, q, o, {}, noStop); }, samples);
    const double bruteS = static_cast<double>(exact.candidates) * fullS;

    io.out << std::fixed << std::setprecision(2);
    io.out << "request: " << stackId << ", " << arch.name << ", isl " << q.isl << ", osl " << q.osl
           << ", concurrency " << q.concurrency << ", TTFT <= " << q.ttftBudgetMs
           << " ms, TPOT <= " << q.tpotBudgetMs << " ms (1.1 x and 1.0 x uniform " << toString(anchorFormat)
           << ")\n";
    io.out << "space: " << exact.candidates << " band recipes over " << table.contexts().size()
           << " contexts (batch x KV format); " << recipes.size() << " in one context\n\n";
    io.out << "FracMix per candidate:        " << softS * 1e9 << " ns   (full estimate "
           << estimateS * 1e9 << " ns: " << estimateS / softS << "x); with RMQD "
           << softQualityS * 1e9 << " ns\n";
    io.out << "full gate per candidate:      " << fullS * 1e6
           << " us   (naive per-layer estimate alone " << naiveS * 1e6 << " us: " << naiveS / fullS
           << "x)\n";
    io.out << "FracMix table build:          " << buildS * 1e3 << " ms   ("
           << table.uniformEstimates() << " uniform full estimates)\n";
    io.out << "BandPareto per request:       " << bpS * 1e3 << " ms   (" << bp.softEvaluations
           << " soft, " << bp.fullEvaluations << " full; brute force " << bruteS
           << " s: " << bruteS / bpS << "x)\n";
    io.out << "Exact per request:            " << exactS * 1e3 << " ms   (" << exact.fullEvaluations
           << " full gates; brute force " << bruteS << " s: " << bruteS / exactS << "x)\n";
    io.out << "answers: BP " << (bp.config ? bp.config->recipe.describe() : std::string("none"))
           << " RMQD " << std::setprecision(5) << bp.gate.prediction.rmqd << "; Exact "
           << (exact.config ? exact.config->recipe.describe() : std::string("none")) << " RMQD "
           << exact.gate.prediction.rmqd << "\n";
    return sink == -1.0 ? 1 : 0;
}

const RegisterCommand reg("bench search",
                          "time FracMix, the full gate, BandPareto and Exact vs naive baselines",
                          &run);

} // namespace
} // namespace acsel::cli
