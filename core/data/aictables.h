// Loaders for AIC operator tables (gemm_perf.csv, context_attention_perf.csv,
// generation_attention_perf.csv; see docs/DATA.md 1). Columns are found by header
// name (the attention files come in three column orders). The result is plain rows with
// duplicate keys already resolved; the latency engine builds its grids from them.
//
// Duplicate-key policy (docs/DATA.md 1, "Oddities"): when one key (every column except
// kernel_source and latency) occurs more than once, the row of the file's MAJORITY kernel
// (the kernel_source with the most rows in the file) wins; among rows of the same kernel the
// first in file order wins. Upstream AIC keeps the first row in file order; the two differ
// only where a minority kernel comes first (rtx_pro_6000_server/sglang/0.5.14 context:
// upstream takes triton, we take flashinfer, the kernel that covers the whole grid).
#pragma once

#include "core/model/format.h"

#include <string>
#include <vector>

namespace acsel
{

struct GemmRow {
    Format format;
    int m, n, k;
    double ms;
};

// One attention measurement. seq = isl for context tables; KV length isl + step for
// generation tables (upstream's kv_seq_tokens).
struct AttentionRow {
    KvFormat attnDtype; // FMHA compute precision (bfloat16 / fp8)
    KvFormat kvDtype;   // KV cache storage
    int kvHeads, headDim, heads, seq, batch;
    double ms;
};

struct TableLoadInfo {
    std::string file;
    int rowsRead = 0;
    int rowsKept = 0;
    int duplicatesDropped = 0; // rows that lost under the duplicate-key policy
    int rowsSkipped = 0;       // rows of a dtype/window we do not model (reasons in notes)
    std::vector<std::string> notes;
};

template <class Row> struct AicTable {
    std::vector<Row> rows;
    TableLoadInfo info;
};

// Throw LoadError (file, line and column) on a missing column, a malformed number or a
// non-positive latency. GEMM rows of a gemm_dtype we have no Format for (fp8_static) and
// attention rows with window_size != 0 or beam_width != 1 are skipped and counted.
AicTable<GemmRow> loadGemmTable(const std::string& path);
AicTable<AttentionRow> loadContextAttentionTable(const std::string& path);
AicTable<AttentionRow> loadGenerationAttentionTable(const std::string& path);

// A measured kernel time in ms from a column of the current row, within the plausibility
// bounds (plausibility.h); LoadError naming the file, line and column otherwise. Every operator
// and communication table reads its latencies with it.
class CsvReader;
double kernelLatencyMs(const CsvReader& csv, int col);

// The same from text (tests): `name` stands for the file name in errors.
AicTable<GemmRow> parseGemmTable(std::string text, const std::string& name);
AicTable<AttentionRow> parseAttentionTable(std::string text, const std::string& name,
                                           bool generation);

} // namespace acsel
