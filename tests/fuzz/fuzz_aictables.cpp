// libFuzzer target: the AIC operator table loaders (core/data/aictables: gemm_perf.csv,
// context_attention_perf.csv, generation_attention_perf.csv). Every input goes through all
// three parsers, so one corpus covers the shared duplicate-key policy and each column set.
// Accepted rows are checked against the loaders' promises. The latency grids
// (core/latency/gemmtable, attentiontable) parse no text: they take these validated rows.
#include "core/data/aictables.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>

namespace
{

template <class Row> void checkInfo(const acsel::AicTable<Row>& t, const std::string& name)
{
    using acsel::fuzz::require;
    require(t.info.file == name, "the load info names the file");
    require(static_cast<int>(t.rows.size()) == t.info.rowsKept, "rowsKept counts the rows");
    require(t.info.rowsKept + t.info.duplicatesDropped + t.info.rowsSkipped == t.info.rowsRead,
            "every row read is kept, dropped as a duplicate or skipped");
    for (const Row& r : t.rows)
        require(std::isfinite(r.ms) && r.ms > 0, "an accepted latency is finite and positive");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string text = fuzz::text(data, size);
    const std::string gemm = "gemm_perf.csv";
    fuzz::loadOrLoadError(gemm, [&] {
        const AicTable<GemmRow> t = parseGemmTable(text, gemm);
        checkInfo(t, gemm);
        for (const GemmRow& r : t.rows)
            fuzz::require(r.m > 0 && r.n > 0 && r.k > 0, "accepted GEMM shapes are positive");
    });
    for (const bool generation : {false, true}) {
        const std::string name =
            generation ? "generation_attention_perf.csv" : "context_attention_perf.csv";
        fuzz::loadOrLoadError(name, [&] {
            const AicTable<AttentionRow> t = parseAttentionTable(text, name, generation);
            checkInfo(t, name);
            for (const AttentionRow& r : t.rows)
                fuzz::require(r.kvHeads > 0 && r.headDim > 0 && r.heads > 0 && r.seq > 0 &&
                                  r.batch > 0,
                              "accepted attention shapes are positive");
        });
    }
    return 0;
}
