// libFuzzer target: the tables-folder walk (discoverStacks) and the first read of a stack's
// tables. An input is system.yaml, gemm_perf.csv, context_attention_perf.csv and
// generation_attention_perf.csv, split at "--8<--" lines (fuzzfiles.h), written as
// <dir>/gpu/system.yaml and <dir>/gpu/vllm/1.0/*.csv. Errors may name any of those files (a
// LoadError names the file it is about). An accepted folder has one stack with a modelled
// format, a GPU whose spec is finite and positive with a bandwidth scaling in [0.01, 1], and
// tables whose every kept latency is a measurement within the plausibility bounds
// (core/data/plausibility.h). The folder then goes through the check `acsel info` runs
// (checkStackTables) and the operator costs a search builds: accepted means every lookup of a
// modelled format and a measured attention shape is finite and positive.
#include "core/data/aictables.h"
#include "core/data/plausibility.h"
#include "core/data/tablesdir.h"
#include "core/latency/tableopcosts.h"
#include "core/latency/tablescheck.h"
#include "tests/fuzz/fuzzcheck.h"
#include "tests/fuzz/fuzzfiles.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    static fuzz::FileSet files("tablesdir");
    const std::vector<std::string> names = {"gpu/system.yaml", "gpu/vllm/1.0/gemm_perf.csv",
                                            "gpu/vllm/1.0/context_attention_perf.csv",
                                            "gpu/vllm/1.0/generation_attention_perf.csv"};
    files.write(fuzz::text(data, size), names);
    try {
        const std::vector<DiscoveredStack> found = discoverStacks(files.dir());
        fuzz::require(found.size() == 1, "one version folder is one stack");
        const Platform& p = found[0].platform;
        fuzz::require(std::isfinite(p.memBandwidth) && p.memBandwidth > 0 &&
                          std::isfinite(p.memCapacityBytes) && p.memCapacityBytes > 0 &&
                          p.peakFlops(ComputeClass::Bf16) > 0,
                      "an accepted GPU has a finite positive spec");
        fuzz::require(p.memBwScaling >= 0.01 && p.memBwScaling <= 1,
                      "an accepted bandwidth scaling is a fraction");
        fuzz::require(!found[0].stack.formats.empty(), "an accepted stack has a format");
        const std::string dir = found[0].stack.tableDir + "/";
        const auto gemm = loadGemmTable(dir + "gemm_perf.csv");
        auto plausibleMs = [](double ms) {
            return ms >= plausible::kMinKernelMs && ms <= plausible::kMaxKernelMs;
        };
        for (const GemmRow& r : gemm.rows)
            fuzz::require(plausibleMs(r.ms), "a kept GEMM latency is a measurement");
        for (const bool generation : {false, true}) {
            const auto t = generation
                               ? loadGenerationAttentionTable(dir + "generation_attention_perf.csv")
                               : loadContextAttentionTable(dir + "context_attention_perf.csv");
            fuzz::require(!t.rows.empty(), "an accepted attention table has a row");
            for (const AttentionRow& r : t.rows)
                fuzz::require(plausibleMs(r.ms) && r.seq > 0,
                              "a kept attention row is a measurement");
        }
        const auto checked = checkStackTables({{&found[0].stack, &found[0].platform}});
        fuzz::require(checked.size() == 1 && checked[0].size() == 3 &&
                          checked[0][0].rowsKept == static_cast<int>(gemm.rows.size()),
                      "the stack check loads the tables the loaders read");
        const TableOpCosts costs = TableOpCosts::load(found[0].stack, found[0].platform);
        auto finitePositive = [](double v) { return std::isfinite(v) && v > 0; };
        for (Format f : found[0].stack.formats)
            for (const double m : {1.0, 64.0, 4096.0})
                fuzz::require(finitePositive(costs.gemmMs(f, m, 4096, 4096)),
                              "an accepted GEMM table gives a finite positive latency");
        const auto context = loadContextAttentionTable(dir + "context_attention_perf.csv");
        const AttentionRow& r = context.rows.front();
        fuzz::require(finitePositive(costs.contextAttentionMs(r.batch, r.seq, r.heads, r.kvHeads,
                                                              r.headDim, r.kvDtype)),
                      "a measured context attention shape gives a finite positive latency");
        fuzz::require(finitePositive(costs.memoryOpMs(1 << 20)),
                      "a memory operation takes a finite positive time");
    } catch (const LoadError& e) {
        bool named = e.file() == files.dir();
        for (const std::string& n : names)
            named = named || e.file() == files.path(n);
        fuzz::require(named, "a LoadError names one of the folder's files");
        fuzz::require(std::string_view(e.what()).find('\n') == std::string_view::npos,
                      "a LoadError is one line");
    }
    return 0;
}
