// acsel bench latency: the full per-band estimate of one configuration (median ns per call),
// against the naive per-layer baseline measured in the same run, plus the table load times.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "core/latency/naiveestimate.h"
#include "core/latency/servingmodel.h"
#include "core/latency/tableopcosts.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <ostream>

namespace acsel::cli
{
namespace
{

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Median over `samples` batches of `reps` calls, in ns per call.
template <class F> double medianNs(F&& f, int samples, int reps)
{
    std::vector<double> ns;
    for (int s = 0; s < samples; ++s) {
        const auto t0 = Clock::now();
        for (int r = 0; r < reps; ++r)
            f();
        ns.push_back(msSince(t0) * 1e6 / reps);
    }
    std::sort(ns.begin(), ns.end());
    return ns[ns.size() / 2];
}

// Three bands over the stack's formats: the two lowest non-bf16 formats and bf16 between.
Config threeBandConfig(const Stack& s, const ModelArch& m, int model)
{
    std::vector<Format> quant;
    for (Format f : s.formats)
        if (f != Format::Bf16)
            quant.push_back(f);
    if (quant.empty())
        throw app::UsageError("acsel bench latency: stack " + s.id + " has no quantized format");
    const Format a = quant[0], c = quant.size() > 1 ? quant[1] : quant[0];
    const int third = m.layers / 3;
    Config cfg;
    cfg.model = model;
    cfg.batch = 8;
    cfg.recipe =
        BandRecipe::fromCuts(m.layers, {third, 2 * third},
                             {{a, Scope::Full}, {Format::Bf16, Scope::Full}, {c, Scope::Mlp}});
    return cfg;
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"stack", "ID", "stack to bench (default h100_sxm/trtllm)"});
    specs.push_back({"model", "NAME", "model (default Qwen3-8B)"});
    specs.push_back({"reps", "N", "calls per timing sample of the fast path (default 2000)"});
    const app::Args args("bench latency", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const Workspace ws = loadWorkspaceFromArgs(args);
    const std::string stackId = args.valueOr("stack", "h100_sxm/trtllm");
    const auto si = ws.findStack(stackId);
    if (!si)
        throw app::UsageError("acsel bench latency: unknown stack '" + stackId +
                              "' (acsel info lists them)");
    const auto mi = ws.findModel(args.valueOr("model", "Qwen3-8B"));
    if (!mi)
        throw app::UsageError("acsel bench latency: unknown model (acsel info lists them)");
    const int reps = args.integer("reps", 2000, 1, 10000000);
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*si)];
    const ModelArch& arch = ws.models[static_cast<std::size_t>(*mi)];

    // Table loading: this stack, and the stack with the largest GEMM table.
    auto t0 = Clock::now();
    const TableOpCosts costs = TableOpCosts::load(stack, ws.platformOf(stack));
    const double loadMs = msSince(t0);
    const Stack* biggest = &stack;
    auto gemmSize = [](const Stack& s) {
        std::error_code ec;
        const auto n = std::filesystem::file_size(s.tableDir + "/gemm_perf.csv", ec);
        return ec ? std::uintmax_t{0} : n;
    };
    for (const Stack& s : ws.stacks)
        if (gemmSize(s) > gemmSize(*biggest))
            biggest = &s;
    t0 = Clock::now();
    const TableOpCosts big = TableOpCosts::load(*biggest, ws.platformOf(*biggest));
    const double bigLoadMs = msSince(t0);

    const Config cfg = threeBandConfig(stack, arch, *mi);
    Request req;
    req.stack = stack.id;
    req.isl = 1024;
    req.osl = 256;
    req.concurrency = cfg.batch;
    volatile double sink = 0;
    const LatencyEstimate fast = estimateLatency(costs, arch, cfg, req);
    const LatencyEstimate naive = estimateLatencyNaive(costs, arch, cfg, req);
    const double fastNs =
        medianNs([&] { sink = sink + estimateLatency(costs, arch, cfg, req).tpotMs; }, 31, reps);
    const double naiveNs =
        medianNs([&] { sink = sink + estimateLatencyNaive(costs, arch, cfg, req).tpotMs; }, 31,
                 std::max(1, reps / 50));

    io.out << std::fixed << std::setprecision(1);
    io.out << "stack " << stack.id << " (tables " << stack.version << "), " << arch.name
           << ", recipe " << cfg.recipe.describe() << ", batch " << cfg.batch << ", isl " << req.isl
           << ", osl " << req.osl << "\n";
    io.out << "estimate: TTFT " << std::setprecision(3) << fast.ttftMs << " ms, TPOT "
           << fast.tpotMs << " ms (" << fast.decodeSamples << " decode contexts); naive gives TTFT "
           << naive.ttftMs << " ms, TPOT " << naive.tpotMs << " ms\n"
           << std::setprecision(1);
    io.out << "full per-band estimate: " << fastNs << " ns median per call (31 samples x " << reps
           << " calls)\n";
    io.out << "naive per-layer baseline: " << naiveNs << " ns median per call\n";
    Request creq = req;
    creq.mode = ServingMode::Continuous;
    const ServingEstimate cont = estimateServing(costs, arch, cfg, creq);
    const double contNs = medianNs(
        [&] { sink = sink + estimateServing(costs, arch, cfg, creq).latency.tpotMs; }, 31, reps);
    io.out << "continuous-batching estimate (concurrency " << creq.concurrency << "): " << contNs
           << " ns median per call (" << contNs / fastNs << "x the static estimate); TTFT "
           << std::setprecision(3) << cont.latency.ttftMs << " ms, TPOT " << cont.latency.tpotMs
           << " ms\n"
           << std::setprecision(1);
    io.out << "speed-up: " << naiveNs / fastNs << "x\n";
    io.out << "table load " << stack.id << ": " << loadMs
           << " ms (gemm, context, generation, grids)\n";
    for (const TableLoadInfo& info : costs.loadInfo())
        for (const std::string& note : info.notes)
            io.out << "  " << info.file << ": " << note << "\n";
    io.out << "table load of the largest GEMM table's stack " << biggest->id << ": " << bigLoadMs
           << " ms (" << big.loadInfo()[0].rowsKept << " GEMM rows)\n";
    return sink == -1.0 ? 1 : 0;
}

const RegisterCommand reg("bench latency",
                          "time the full per-band latency estimate vs a naive baseline", &run);

} // namespace
} // namespace acsel::cli
