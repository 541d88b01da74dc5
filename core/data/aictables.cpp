#include "core/data/aictables.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"
#include "core/data/plausibility.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace acsel
{

double kernelLatencyMs(const CsvReader& csv, int col)
{
    const double v = csv.positiveNumber(col);
    if (v < plausible::kMinKernelMs || v > plausible::kMaxKernelMs)
        throw LoadError(csv.name(), csv.where(col),
                        "expected a latency in [1e-6, 1e6] ms, found '" +
                            std::string(csv.field(col)) + "'");
    return v;
}

namespace
{

// kernel_source values of one file, interned at load (a handful per file).
class KernelNames
{
public:
    int intern(std::string_view name)
    {
        for (std::size_t i = 0; i < names_.size(); ++i)
            if (names_[i] == name) {
                ++counts_[i];
                return static_cast<int>(i);
            }
        names_.emplace_back(name);
        counts_.push_back(1);
        return static_cast<int>(names_.size() - 1);
    }
    int count(int id) const { return counts_[static_cast<std::size_t>(id)]; }

private:
    std::vector<std::string> names_;
    std::vector<int> counts_;
};

int positiveInt(const CsvReader& csv, int col)
{
    const std::int64_t v = csv.integer(col);
    if (v <= 0 || v > plausible::kMaxShape)
        throw LoadError(csv.name(), csv.where(col),
                        "expected a positive integer up to 2^30, found '" +
                            std::string(csv.field(col)) + "'");
    return static_cast<int>(v);
}

// A table that yields no row would make every configuration infeasible later, far from its
// cause: refused here, naming what was missing.
void requireRows(const CsvReader& csv, int rowsRead, std::size_t rowsUsable,
                 const std::string& what)
{
    if (rowsRead == 0)
        throw LoadError(csv.name(), "", "no data rows after the header");
    if (rowsUsable == 0)
        throw LoadError(csv.name(), "",
                        "none of the " + std::to_string(rowsRead) + " rows is usable (" + what +
                            ")");
}

KvFormat attnDtype(const CsvReader& csv, int col)
{
    if (auto k = parseKvFormat(csv.field(col)))
        return *k;
    throw LoadError(csv.name(), csv.where(col),
                    "expected bfloat16 or fp8, found '" + std::string(csv.field(col)) + "'");
}

// Sets t's rows to one row per key: the majority kernel's, then the first in file order; the
// table's info counts and notes the rows dropped.
template <class Row, class KeyFn>
void keepOnePerShape(AicTable<Row>& t, const std::vector<Row>& rows, const std::vector<int>& kernel,
                     const KernelNames& names, KeyFn key)
{
    std::vector<std::size_t> order(rows.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto ka = key(rows[a]), kb = key(rows[b]);
        if (ka != kb)
            return ka < kb;
        return names.count(kernel[a]) > names.count(kernel[b]); // stable: file order next
    });
    t.rows.clear();
    t.rows.reserve(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && key(rows[order[i]]) == key(rows[order[i - 1]])) {
            ++t.info.duplicatesDropped;
            continue;
        }
        t.rows.push_back(rows[order[i]]);
    }
    t.info.rowsKept = static_cast<int>(t.rows.size());
    if (t.info.duplicatesDropped > 0)
        t.info.notes.push_back(
            std::to_string(t.info.duplicatesDropped) +
            " duplicate shapes resolved (majority kernel_source, then first row)");
}

AicTable<GemmRow> readGemm(CsvReader csv)
{
    AicTable<GemmRow> t;
    t.info.file = csv.name();
    const int cKernel = csv.requireColumn("kernel_source");
    const int cDtype = csv.requireColumn("gemm_dtype");
    const int cM = csv.requireColumn("m"), cN = csv.requireColumn("n"), cK = csv.requireColumn("k");
    const int cLat = csv.requireColumn("latency");
    KernelNames names;
    std::vector<GemmRow> rows;
    std::vector<int> kernel;
    std::vector<std::string> skippedDtypes;
    while (csv.next()) {
        ++t.info.rowsRead;
        const std::string_view dtype = csv.field(cDtype);
        const auto f = parseFormat(dtype);
        if (!f) {
            ++t.info.rowsSkipped;
            if (std::find(skippedDtypes.begin(), skippedDtypes.end(), dtype) == skippedDtypes.end())
                skippedDtypes.emplace_back(dtype);
            continue;
        }
        rows.push_back({*f, positiveInt(csv, cM), positiveInt(csv, cN), positiveInt(csv, cK),
                        kernelLatencyMs(csv, cLat)});
        kernel.push_back(names.intern(csv.field(cKernel)));
    }
    requireRows(csv, t.info.rowsRead, rows.size(), "expected a gemm_dtype of " + formatChoices());
    for (const std::string& d : skippedDtypes)
        t.info.notes.push_back("gemm_dtype '" + d + "' is not modelled: its rows are skipped");
    keepOnePerShape(t, rows, kernel, names, [](const GemmRow& r) {
        return std::make_tuple(static_cast<int>(r.format), r.m, r.n, r.k);
    });
    return t;
}

AicTable<AttentionRow> readAttention(CsvReader csv, bool generation)
{
    AicTable<AttentionRow> t;
    t.info.file = csv.name();
    const int cKernel = csv.requireColumn("kernel_source");
    const int cBatch = csv.requireColumn("batch_size");
    const int cIsl = csv.requireColumn("isl");
    const int cHeads = csv.requireColumn("num_heads");
    const int cKvHeads = csv.requireColumn("num_key_value_heads");
    const int cHeadDim = csv.requireColumn("head_dim");
    const int cAttn = csv.requireColumn("attn_dtype");
    const int cKv = csv.requireColumn("kv_cache_dtype");
    const int cStep = csv.requireColumn("step");
    const int cLat = csv.requireColumn("latency");
    const auto cWindow = csv.column("window_size"); // absent: full attention, as AIC
    const auto cBeam = csv.column("beam_width");
    KernelNames names;
    std::vector<AttentionRow> rows;
    std::vector<int> kernel;
    int windowed = 0, beams = 0;
    while (csv.next()) {
        ++t.info.rowsRead;
        if (cWindow && csv.integer(*cWindow) != 0) {
            ++windowed;
            continue;
        }
        if (cBeam && csv.integer(*cBeam) != 1) {
            ++beams;
            continue;
        }
        AttentionRow r{};
        r.attnDtype = attnDtype(csv, cAttn);
        r.kvDtype = attnDtype(csv, cKv);
        r.kvHeads = positiveInt(csv, cKvHeads);
        r.headDim = positiveInt(csv, cHeadDim);
        r.heads = positiveInt(csv, cHeads);
        r.batch = positiveInt(csv, cBatch);
        const std::int64_t step = csv.integer(cStep);
        // Bounded like the other integers (isl <= 2^30), so that isl + step fits an int: an
        // unbounded step was truncated into a zero or negative KV length (fuzz_aictables).
        if (step < 0 || step >= plausible::kMaxShape)
            throw LoadError(csv.name(), csv.where(cStep),
                            "expected a step in [0, 2^30), found '" +
                                std::string(csv.field(cStep)) + "'");
        if (!generation && step != 0)
            throw LoadError(csv.name(), csv.where(cStep),
                            "context attention rows must have step 0 (prefill without prefix)");
        r.seq = positiveInt(csv, cIsl) + static_cast<int>(step);
        r.ms = kernelLatencyMs(csv, cLat);
        rows.push_back(r);
        kernel.push_back(names.intern(csv.field(cKernel)));
    }
    requireRows(csv, t.info.rowsRead, rows.size(),
                "expected rows with window_size 0 and beam_width 1");
    t.info.rowsSkipped = windowed + beams;
    if (windowed > 0)
        t.info.notes.push_back(std::to_string(windowed) + " sliding-window rows skipped");
    if (beams > 0)
        t.info.notes.push_back(std::to_string(beams) + " beam_width != 1 rows skipped");
    keepOnePerShape(t, rows, kernel, names, [](const AttentionRow& r) {
        return std::make_tuple(static_cast<int>(r.attnDtype), static_cast<int>(r.kvDtype),
                               r.kvHeads, r.headDim, r.heads, r.seq, r.batch);
    });
    return t;
}

} // namespace

AicTable<GemmRow> parseGemmTable(std::string text, const std::string& name)
{
    return readGemm(CsvReader::fromString(std::move(text), name));
}

AicTable<AttentionRow> parseAttentionTable(std::string text, const std::string& name,
                                           bool generation)
{
    return readAttention(CsvReader::fromString(std::move(text), name), generation);
}

AicTable<GemmRow> loadGemmTable(const std::string& path)
{
    return readGemm(CsvReader::fromFile(path, kOperatorTableLimit));
}

AicTable<AttentionRow> loadContextAttentionTable(const std::string& path)
{
    return readAttention(CsvReader::fromFile(path, kOperatorTableLimit), false);
}

AicTable<AttentionRow> loadGenerationAttentionTable(const std::string& path)
{
    return readAttention(CsvReader::fromFile(path, kOperatorTableLimit), true);
}

} // namespace acsel
