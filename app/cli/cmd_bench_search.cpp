// acsel bench search: the search's hot paths on one request, each against a naive baseline
// measured in the same run (FracMix vs the full estimate, the full gate vs the naive per-layer
// estimate, BandPareto and Exact vs full-gating every candidate).
#include "app/cli/command.h"
#include "app/cli/engineargs.h"
#include "core/latency/naiveestimate.h"
#include "core/search/bandpareto.h"
#include "core/search/budgetindex.h"
#include "core/search/exactsearch.h"
#include "core/search/forwardingengine.h"
#include "core/search/fracmixtable.h"
#include "core/search/searchalgorithm.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <random>
#include <sstream>
#include <thread>

namespace acsel::cli
{
namespace
{

using Clock = std::chrono::steady_clock;

// The engine without its latency bound: Exact then prunes by memory only and full-gates in
// RMQD order, the reference the bounded search is checked against on the real tables.
class MemoryPrunedEngine final : public ForwardingEngine
{
public:
    using ForwardingEngine::ForwardingEngine;
    bool fracMixIsLowerBound(const Request&) const override { return false; }
};

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

// CPU time of every thread of the process (the searches walk their contexts on several
// threads): on a loaded machine the wall time mostly measures the load.
double cpuSeconds(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
double wallSeconds()
{
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

// The process's peak resident set since the last reset (VmHWM, kB), and its reset.
long peakRssKiB()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtol(line.c_str() + 6, nullptr, 10);
    return -1;
}
void resetPeakRss()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

struct SuiteCase {
    std::string name;
    std::string stack;
    std::vector<std::string> models; // empty: all
    ServingMode mode = ServingMode::Static;
    int concurrency = 4;
    std::vector<std::string> algorithms{"bp", "exact"};
    // Budgets: the default request's unless the case's model needs others.
    double ttftMs = 800, tpotMs = 40, memoryGiB = 32;
};

// The fixed suite: the request of datasets/requests/default.json (isl 1024, osl 256,
// TTFT 800 ms, TPOT 40 ms, 32 GiB) on the named stacks and models.
int runSuite(const WorkspaceEngine& engine, CommandIo& io)
{
    const Workspace& ws = engine.workspace();
    const std::vector<std::string> qwen{"Qwen3-0.6B", "Qwen3-1.7B", "Qwen3-8B", "Qwen3-32B"};
    const std::vector<SuiteCase> cases{
        {"GUI default (4 Qwen3, thor/vllm)", "jetson_agx_thor/vllm", qwen},
        {"recommend (6 models, thor/vllm)", "jetson_agx_thor/vllm", {}},
        {"h200_sxm Qwen3-8B", "h200_sxm/trtllm", {"Qwen3-8B"}},
        {"h200_sxm 6 models", "h200_sxm/trtllm", {}},
        {"b200_sxm/trtllm 6 models", "b200_sxm/trtllm", {}},
        {"continuous thor Qwen3-8B",
         "jetson_agx_thor/vllm",
         {"Qwen3-8B"},
         ServingMode::Continuous,
         4,
         {"bp", "exact"}},
        {"b200_sxm Llama-3.1-70B",
         "b200_sxm/trtllm",
         {"Llama-3.1-70B"},
         ServingMode::Static,
         4,
         {"bp", "exact"},
         800,
         40,
         180},
        // The MoE model on the edge board, at docs/SEARCH.md's MoE request (TTFT 2000 ms, TPOT
        // 60 ms, 100 GiB: its 61 GB of bf16 weights fit only the board).
        {"thor Qwen3-30B-A3B (MoE)",
         "jetson_agx_thor/vllm",
         {"Qwen3-30B-A3B"},
         ServingMode::Static,
         4,
         {"bp", "exact"},
         2000,
         60,
         100},
    };
    const std::atomic<bool> noStop{false};
    io.out << std::fixed << std::setprecision(1);
    io.out << "searches on " << std::max(1u, std::thread::hardware_concurrency())
           << " threads (one per hardware thread); the scan on one\n"
           << "case | algo | candidates | full gates | search ms (wall) | search CPU ms (all "
              "threads) | peak RSS MB | FracMix scan ms (wall) | ratio (wall) | answer\n";
    volatile double sink = 0;
    // Returns the search's CPU milliseconds (all threads).
    const auto runCase = [&](const std::string& name, const Request& q, const SearchOptions& o,
                             const std::string& algo) {
        resetPeakRss();
        double t0 = wallSeconds();
        const double cpu0 = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
        const SearchResult r = makeSearcher(algo)->run(engine, q, o, {}, noStop);
        const double searchMs = (wallSeconds() - t0) * 1e3;
        const double searchCpuMs = (cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0) * 1e3;
        const long rss = peakRssKiB();
        // The enumeration floor: the FracMix table and one soft score per candidate.
        t0 = wallSeconds();
        const FracMixTable table(engine, q, o);
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
            table.space(c).forEachRecipe(
                [&](const BandRecipe& rec) { sink = sink + table.soft(c, rec).rawTtft; });
        const double scanMs = (wallSeconds() - t0) * 1e3;
        io.out << name << " | " << algo << " | " << r.candidates << " | " << r.fullEvaluations
               << " | " << searchMs << " | " << searchCpuMs << " | "
               << static_cast<double>(rss) / 1024 << " | " << scanMs << " | " << searchMs / scanMs
               << " | "
               << (r.config ? ws.models[static_cast<std::size_t>(r.config->model)].name + " b" +
                                  std::to_string(r.config->batch) + " " +
                                  r.config->recipe.describe(
                                      ws.models[static_cast<std::size_t>(r.config->model)].isMoe())
                            : std::string("none"))
               << "\n";
        return searchCpuMs;
    };
    Request base;
    base.isl = 1024;
    base.osl = 256;
    for (const SuiteCase& c : cases) {
        Request q = base;
        q.ttftBudgetMs = c.ttftMs;
        q.tpotBudgetMs = c.tpotMs;
        q.memBudgetGiB = c.memoryGiB;
        q.stack = c.stack;
        q.mode = c.mode;
        q.concurrency = c.concurrency;
        SearchOptions o;
        for (const std::string& m : c.models)
            o.models.push_back(*ws.findModel(m));
        for (const std::string& a : c.algorithms)
            runCase(c.name, q, o, a);
    }
    // A budget-only change on the GUI default: without an index, the whole search again.
    Request q = base;
    q.stack = "jetson_agx_thor/vllm";
    q.concurrency = 4;
    q.ttftBudgetMs = 600;
    q.tpotBudgetMs = 30;
    SearchOptions o;
    for (const std::string& m : qwen)
        o.models.push_back(*ws.findModel(m));
    runCase("budget-only change (GUI default, TTFT 600, TPOT 30)", q, o, "bp");
    const double exactCpuMs =
        runCase("budget-only change (GUI default, TTFT 600, TPOT 30)", q, o, "exact");

    // The same change answered by the workload's index (built once; any budgets after it),
    // and, as evidence on the real tables, Exact's answer on 50 random budget triples.
    resetPeakRss();
    const double t0 = wallSeconds();
    const double cpu0 = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const std::optional<BudgetIndex> index = BudgetIndex::build(engine, q, o, {}, noStop);
    const double buildMs = (wallSeconds() - t0) * 1e3;
    const double buildCpuMs = (cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0) * 1e3;
    const long rss = peakRssKiB();
    const double queryMs =
        medianSeconds([&] { sink = sink + index->answer(q).wallSeconds; }, 101) * 1e3;
    std::mt19937_64 rng(15);
    std::uniform_real_distribution<double> ttft(100, 2000), tpot(5, 80), memory(4, 64);
    int same = 0;
    constexpr int kTriples = 50;
    for (int i = 0; i < kTriples; ++i) {
        Request b = q;
        b.ttftBudgetMs = ttft(rng);
        b.tpotBudgetMs = tpot(rng);
        b.memBudgetGiB = memory(rng);
        same += index->answer(b).config == ExactSearch().run(engine, b, o, {}, noStop).config;
    }
    // Continuous batching: Exact pruning by the running-count bound against Exact pruning by
    // memory only (seconds each), on the suite's budgets and two random triples.
    Request cq = base;
    cq.stack = "jetson_agx_thor/vllm";
    cq.mode = ServingMode::Continuous;
    cq.concurrency = 4;
    SearchOptions co;
    co.models = {*ws.findModel("Qwen3-8B")};
    const MemoryPrunedEngine memoryPruned(engine);
    int continuousSame = 0;
    double boundedMs = 0, memoryOnlyMs = 0;
    constexpr int kContinuous = 3;
    for (int i = 0; i < kContinuous; ++i) {
        Request b = cq;
        if (i > 0) {
            b.ttftBudgetMs = ttft(rng);
            b.tpotBudgetMs = tpot(rng);
            b.memBudgetGiB = memory(rng);
        }
        double t = wallSeconds();
        const SearchResult bounded = ExactSearch().run(engine, b, co, {}, noStop);
        boundedMs += (wallSeconds() - t) * 1e3;
        t = wallSeconds();
        const SearchResult reference = ExactSearch().run(memoryPruned, b, co, {}, noStop);
        memoryOnlyMs += (wallSeconds() - t) * 1e3;
        continuousSame += bounded.config == reference.config;
    }

    // Tensor parallelism: the same request with 8 GPUs of the node (degrees 1, 2, 4, 8 in the
    // space, up to 4x the candidates) against 1 GPU, Exact, in this run.
    std::ostringstream tp;
    tp << std::fixed << std::setprecision(1);
    for (const char* stack : {"h100_sxm/trtllm", "h100_sxm/vllm"}) {
        Request one = base;
        one.stack = stack;
        one.concurrency = 4;
        double ms[2] = {0, 0};
        SearchResult r[2];
        for (int i = 0; i < 2; ++i) {
            Request g = one;
            g.gpus = i == 0 ? 1 : 8;
            const double t = wallSeconds();
            r[i] = ExactSearch().run(engine, g, {}, {}, noStop);
            ms[i] = (wallSeconds() - t) * 1e3;
        }
        tp << stack << " 6 models | " << r[0].candidates << " -> " << r[1].candidates << " | "
           << ms[0] << " -> " << ms[1] << " | " << ms[1] / ms[0] << " | "
           << (r[1].config
                   ? ws.models[static_cast<std::size_t>(r[1].config->model)].name + " tp" +
                         std::to_string(r[1].config->tp) + " " + r[1].config->recipe.describe()
                   : std::string("none"))
           << "\n";
    }

    io.out << "\ntensor parallel: exact with 8 GPUs against 1 (same request) | candidates | "
              "search ms (wall) | ratio | answer with 8 GPUs\n"
           << tp.str();
    io.out << "\nbudget index of the GUI default workload: built in " << buildMs << " ms (wall), "
           << buildCpuMs << " ms CPU (all threads: " << buildCpuMs / exactCpuMs
           << " x exact's on the budget-only change above), " << index->members() << " members of "
           << index->stats().candidates << " candidates, " << index->stats().fullGates
           << " full gates, " << index->stats().walks << " walks, peak RSS "
           << static_cast<double>(rss) / 1024 << " MB\n"
           << std::setprecision(3) << "budget-only change (GUI default, TTFT 600, TPOT 30) | "
           << "index | " << index->stats().candidates << " | 0 | " << queryMs
           << " ms (median of 101) | the same answer as exact on " << same << " of " << kTriples
           << " random budget triples (TTFT 100-2000 ms, TPOT 5-80 ms, 4-64 GiB)\n"
           << std::setprecision(1) << "continuous thor Qwen3-8B: exact gives the answer of exact "
           << "pruning by memory only on " << continuousSame << " of " << kContinuous
           << " budget triples (the suite's and two random), in " << boundedMs << " ms against "
           << memoryOnlyMs << " ms in all\n";
    return sink == -1.0 ? 1 : 0;
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    specs.push_back(
        {"stack", "ID", "stack (default a100_sxm/trtllm, an Ampere stack like the paper's A6000)"});
    specs.push_back({"model", "NAME", "model (default Qwen3-8B)"});
    specs.push_back({"samples", "N", "timing samples per measurement (default 7)"});
    specs.push_back({"suite", "", "the fixed request set of docs/SEARCH.md instead, one run each"});
    const app::Args args("bench search", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    // The gate's interval is the one at a request's concurrency; the suite has many requests.
    if (args.flag("suite") && args.value("confidence"))
        throw app::UsageError("acsel bench search: --confidence gates one request; the --suite "
                              "runs many (leave one of them out)");
    const auto engine = loadEngineFromArgs(args);
    if (args.flag("suite"))
        return runSuite(*engine, io);
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
    applyConfidence(args, *engine, q);
    Config anchor;
    anchor.model = *mi;
    anchor.batch = 8;
    const Format anchorFormat = stack.hasFormat(Format::Fp8)    ? Format::Fp8
                                : stack.hasFormat(Format::Int8) ? Format::Int8
                                                                : Format::Bf16;
    anchor.recipe = BandRecipe::uniform(arch.layers, anchorFormat);
    anchor.algorithm = uniformAlgorithm(anchorFormat);
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
           << " ms, TPOT <= " << q.tpotBudgetMs << " ms (1.1 x and 1.0 x uniform "
           << toString(anchorFormat) << ")\n";
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
           << " soft, " << bp.fullEvaluations << " full; brute force projected " << bruteS
           << " s: " << bruteS / bpS << "x)\n";
    io.out << "Exact per request:            " << exactS * 1e3 << " ms   (" << exact.fullEvaluations
           << " full gates; brute force projected " << bruteS << " s: " << bruteS / exactS
           << "x)\n";
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
