// Where the explorer window's cold start goes, stage by stage, on the real workspace: workspace
// load, engine (quality surrogate fit), the stack's operator tables, the FracMix table, the
// point scoring (Explorer::build) and the BandPareto search. Explorer::build is compared with
// the naive baseline of holding every scored point (the previous build, kept here) in the
// same run, and both must keep the same points.
// Run from the repository root:
//   build/release/tests/bench_explorer_build [workspace] [tables] [stack] [isl osl concurrency]
// Defaults: datasets/workspace.json, ../shared/aic, h100_sxm/trtllm, 1024 256 4 (the window's
// default workload); every Qwen3 model, every format of the stack, every scope.
// Not a pass/fail test: it prints times and the ratio.
#include "benchclock.h"
#include "core/data/workspacefile.h"
#include "core/model/units.h"
#include "core/search/explorer.h"
#include "core/search/paretofront.h"
#include "core/search/searcher.h"
#include "core/search/selectionsample.h"
#include "core/search/stopwatch.h"
#include "core/search/workspaceengine.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

using namespace acsel;
using acsel::bench::cpuMs;
using acsel::bench::median;

namespace
{
// The naive baseline: every band point is scored into one vector (about 64 bytes each,
// millions of them), then the kept ones are copied out.
std::vector<ExplorerPoint> naiveBuild(const Engine& e, const Request& q, const SearchOptions& o,
                                      std::size_t maxBandPoints)
{
    const FracMixTable table(e, q, o);
    std::vector<ExplorerPoint> uniform, band;
    std::vector<std::size_t> keep;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
        const std::size_t first = band.size();
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            const SoftScore s = table.soft(c, r);
            const LatencyMs cal = table.calibrated(s);
            const auto [algo, rmqd] = table.bestQuality(c, r);
            (r.isUniform() ? uniform : band)
                .push_back({r, static_cast<float>(cal.ttft), static_cast<float>(cal.tpot),
                            static_cast<float>(rmqd), static_cast<float>(s.memoryBytes / kGiB), c,
                            algo, r.isUniform()});
        });
        const std::size_t count = band.size() - first;
        std::vector<double> rmqd(count), ttft(count), tpot(count);
        for (std::size_t i = 0; i < count; ++i) {
            rmqd[i] = static_cast<double>(band[first + i].rmqd);
            ttft[i] = static_cast<double>(band[first + i].ttftMs);
            tpot[i] = static_cast<double>(band[first + i].tpotMs);
        }
        for (std::size_t i : paretoFront(ttft, rmqd))
            keep.push_back(first + i);
        for (std::size_t i : paretoFront(tpot, rmqd))
            keep.push_back(first + i);
    }
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    if (keep.size() > maxBandPoints)
        keep.resize(maxBandPoints);
    const std::size_t room = maxBandPoints - keep.size();
    if (room > 0) {
        std::vector<std::uint8_t> taken(band.size(), 0);
        for (std::size_t i : keep)
            taken[i] = 1;
        std::vector<std::size_t> rest;
        for (std::size_t i = 0; i < band.size(); ++i)
            if (!taken[i])
                rest.push_back(i);
        for (std::size_t position : selectionSample(rest.size(), room, o.seed))
            keep.push_back(rest[position]);
        std::sort(keep.begin(), keep.end());
    }
    for (std::size_t i : keep)
        uniform.push_back(band[i]);
    return uniform;
}

bool samePoints(const std::vector<ExplorerPoint>& a, const std::vector<ExplorerPoint>& b)
{
    return std::equal(
        a.begin(), a.end(), b.begin(), b.end(), [](const ExplorerPoint& x, const ExplorerPoint& y) {
            return x.recipe == y.recipe && x.ttftMs == y.ttftMs && x.tpotMs == y.tpotMs &&
                   x.rmqd == y.rmqd && x.memoryGiB == y.memoryGiB && x.context == y.context &&
                   x.algorithm == y.algorithm && x.uniform == y.uniform;
        });
}

} // namespace

int main(int argc, char** argv)
{
    const std::string wsFile = argc > 1 ? argv[1] : "datasets/workspace.json";
    const std::string tables = argc > 2 ? argv[2] : "../shared/aic";
    Request q;
    q.stack = argc > 3 ? argv[3] : "h100_sxm/trtllm";
    q.isl = argc > 4 ? std::stoi(argv[4]) : 1024;
    q.osl = argc > 5 ? std::stoi(argv[5]) : 256;
    q.concurrency = argc > 6 ? std::stoi(argv[6]) : 4;
    q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e12; // the build ignores budgets

    Stopwatch t;
    double cpu = cpuMs();
    Workspace ws = loadWorkspace(wsFile, tables);
    const double loadMs = t.seconds() * 1e3, loadCpu = cpuMs() - cpu;
    t = Stopwatch();
    cpu = cpuMs();
    const WorkspaceEngine engine(std::move(ws), {});
    const double engineMs = t.seconds() * 1e3, engineCpu = cpuMs() - cpu;
    const auto stack = engine.workspace().findStack(q.stack);
    if (!stack) {
        std::fprintf(stderr, "unknown stack %s\n", q.stack.c_str());
        return 2;
    }
    t = Stopwatch();
    static_cast<void>(engine.opCosts(*stack));
    const double tablesMs = t.seconds() * 1e3;

    SearchOptions o;
    for (std::size_t m = 0; m < engine.workspace().models.size(); ++m)
        if (engine.workspace().models[m].family == "qwen3")
            o.models.push_back(static_cast<int>(m));
    o.formats = engine.workspace().stacks[static_cast<std::size_t>(*stack)].formats;
    t = Stopwatch();
    const FracMixTable table(engine, q, o);
    const double tableMs = t.seconds() * 1e3;

    constexpr std::size_t kMaxBandPoints = 50000; // the window's display budget
    const std::atomic<bool> never{false};
    std::vector<double> ours, naive, oursCpu;
    bool same = true;
    Explorer::Stats stats;
    for (int run = 0; run < 3; ++run) {
        Explorer x;
        t = Stopwatch();
        cpu = cpuMs();
        x.build(engine, q, o, kMaxBandPoints, never);
        ours.push_back(t.seconds() * 1e3);
        oursCpu.push_back(cpuMs() - cpu);
        stats = x.stats();
        t = Stopwatch();
        const std::vector<ExplorerPoint> baseline = naiveBuild(engine, q, o, kMaxBandPoints);
        naive.push_back(t.seconds() * 1e3);
        same = same && samePoints(x.points(), baseline);
    }
    t = Stopwatch();
    const SearchResult bp = makeSearcher("bp")->run(
        engine, q, o, [](double) {}, never);
    const double searchMs = t.seconds() * 1e3;

    std::ifstream loadavg("/proc/loadavg");
    std::string load;
    std::getline(loadavg, load);
    std::printf("stack %s, isl %d, osl %d, concurrency %d; load average: %s\n", q.stack.c_str(),
                q.isl, q.osl, q.concurrency, load.c_str());
    std::printf("workspace load:                 %8.1f ms (CPU %.1f ms)\n", loadMs, loadCpu);
    std::printf("engine (quality surrogate fit): %8.1f ms (CPU %.1f ms)\n", engineMs, engineCpu);
    std::printf("operator tables of the stack:   %8.1f ms\n", tablesMs);
    std::printf("FracMix table (%zu contexts):   %8.1f ms\n", table.contexts().size(), tableMs);
    std::printf("Explorer::build, %lld scored, %lld kept: median %.1f ms (3 runs; CPU %.1f ms)\n",
                static_cast<long long>(stats.scored), static_cast<long long>(stats.kept),
                median(ours), median(oursCpu));
    std::printf("naive build (hold every point):  median %.1f ms; ratio naive / ours %.2fx; "
                "same points: %s\n",
                median(naive), median(naive) / median(ours), same ? "yes" : "NO");
    std::printf("BandPareto search, %lld candidates: %.1f ms\n",
                static_cast<long long>(bp.candidates), searchMs);
    return same ? 0 : 1;
}
