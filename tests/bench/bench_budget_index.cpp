// The budget index's build on the window's default workload against one Exact search of it, in
// the same run and on one thread: members, full gates, walks, CPU and the ratio of the two;
// then the build's wall time on every hardware thread, as the window builds it on a worker.
// Run from the repository root:
//   build/release/tests/bench_budget_index [workspace] [tables] [repeats]
// Defaults: datasets/workspace.json, ../shared/aic, 3 (the medians are printed).
// Not a pass/fail test.
#include "benchclock.h"
#include "core/data/workspacefile.h"
#include "core/search/budgetindex.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/stopwatch.h"
#include "core/search/workspaceengine.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace acsel;
using acsel::bench::cpuMs;
using acsel::bench::median;

int main(int argc, char** argv)
{
    const std::string wsFile = argc > 1 ? argv[1] : "datasets/workspace.json";
    const std::string tables = argc > 2 ? argv[2] : "../shared/aic";
    const int repeats = argc > 3 ? std::max(1, std::stoi(argv[3])) : 3;
    const WorkspaceEngine engine(loadWorkspace(wsFile, tables), {});
    // The window's default workload and budgets (as `acsel bench search --suite`).
    Request q;
    q.stack = "jetson_agx_thor/vllm";
    q.isl = 1024;
    q.osl = 256;
    q.concurrency = 4;
    q.ttftBudgetMs = 600;
    q.tpotBudgetMs = 30;
    SearchOptions o;
    o.threads = 1;
    for (const char* m : {"Qwen3-0.6B", "Qwen3-1.7B", "Qwen3-8B", "Qwen3-32B"})
        o.models.push_back(*engine.workspace().findModel(m));
    const std::atomic<bool> never{false};
    std::vector<double> exactCpu, indexCpu;
    std::size_t members = 0;
    BudgetIndexStats stats;
    bool same = true;
    for (int i = 0; i < repeats; ++i) {
        double cpu = cpuMs();
        const SearchResult exact = ExactSearch().run(engine, q, o, {}, never);
        exactCpu.push_back(cpuMs() - cpu);
        cpu = cpuMs();
        const std::optional<BudgetIndex> index = BudgetIndex::build(engine, q, o, {}, never);
        indexCpu.push_back(cpuMs() - cpu);
        members = index->members();
        stats = index->stats();
        same = same && index->answer(q).config == exact.config;
    }
    std::vector<double> wallMs;
    SearchOptions all = o;
    all.threads = 0;
    for (int i = 0; i < repeats; ++i) {
        const Stopwatch clock;
        same = same && BudgetIndex::build(engine, q, all, {}, never)->members() == members;
        wallMs.push_back(clock.seconds() * 1e3);
    }
    std::printf("GUI default workload, one thread, %d runs (medians): index build %.1f ms CPU, "
                "exact search %.1f ms CPU, ratio %.1fx; %zu members of %lld candidates, %lld "
                "full gates, %lld walks; same answer: %s\n",
                repeats, median(indexCpu), median(exactCpu), median(indexCpu) / median(exactCpu),
                members, static_cast<long long>(stats.candidates),
                static_cast<long long>(stats.fullGates), static_cast<long long>(stats.walks),
                same ? "yes" : "NO");
    std::printf("on %d threads: index build %.1f ms wall (median), %.1fx the exact search\n",
                searchThreads(all), median(wallMs), median(wallMs) / median(exactCpu));
    return same ? 0 : 1;
}
