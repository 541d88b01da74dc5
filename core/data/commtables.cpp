#include "core/data/commtables.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"

#include <algorithm>
#include <map>
#include <utility>

namespace acsel
{
namespace
{

// The collector's NCCL op order (collect_comm.sh): all_reduce is the fourth run.
constexpr int kNcclRuns = 4;
constexpr int kAllReduceRun = 3;

int gpuCount(const CsvReader& csv, int col)
{
    const std::int64_t v = csv.integer(col);
    if (v < 2 || v > 1024)
        throw LoadError(csv.name(), csv.where(col),
                        "expected a GPU count from 2 to 1024, found '" +
                            std::string(csv.field(col)) + "'");
    return static_cast<int>(v);
}

double messageSize(const CsvReader& csv, int col)
{
    const std::int64_t v = csv.integer(col);
    if (v < 1 || v > (std::int64_t{1} << 40))
        throw LoadError(csv.name(), csv.where(col),
                        "expected a message size from 1 to 2^40 elements, found '" +
                            std::string(csv.field(col)) + "'");
    return static_cast<double>(v);
}

// Keeps the first row of every (gpus, elements), sorted by that key.
void keepFirst(AicTable<CommRow>& t, std::vector<CommRow> rows)
{
    std::stable_sort(rows.begin(), rows.end(), [](const CommRow& a, const CommRow& b) {
        return std::pair(a.gpus, a.elements) < std::pair(b.gpus, b.elements);
    });
    for (const CommRow& r : rows) {
        if (!t.rows.empty() && t.rows.back().gpus == r.gpus && t.rows.back().elements == r.elements)
            ++t.info.duplicatesDropped;
        else
            t.rows.push_back(r);
    }
    t.info.rowsKept = static_cast<int>(t.rows.size());
    if (t.info.duplicatesDropped > 0)
        t.info.notes.push_back(std::to_string(t.info.duplicatesDropped) +
                               " duplicate sizes resolved (first row)");
}

void requireRows(const CsvReader& csv, const AicTable<CommRow>& t, const std::string& what)
{
    if (t.info.rowsRead == 0)
        throw LoadError(csv.name(), "", "no data rows after the header");
    if (t.rows.empty())
        throw LoadError(csv.name(), "",
                        "none of the " + std::to_string(t.info.rowsRead) + " rows is usable (" +
                            what + ")");
}

AicTable<CommRow> readCustom(CsvReader csv)
{
    AicTable<CommRow> t;
    t.info.file = csv.name();
    const int cKernel = csv.requireColumn("kernel_source");
    const int cDtype = csv.requireColumn("allreduce_dtype");
    const int cGpus = csv.requireColumn("num_gpus");
    const int cSize = csv.requireColumn("message_size");
    const int cLat = csv.requireColumn("latency");
    const auto cBackend = csv.column("backend");
    const auto cImpl = csv.column("implementation");
    std::vector<CommRow> rows;
    int eager = 0, otherDtype = 0;
    while (csv.next()) {
        ++t.info.rowsRead;
        const bool isEager = csv.field(cKernel).ends_with("_eager") ||
                             (cBackend && csv.field(*cBackend).ends_with("_eager")) ||
                             (cImpl && csv.field(*cImpl).ends_with("_eager"));
        if (isEager) {
            ++eager;
            continue;
        }
        const std::string_view dtype = csv.field(cDtype);
        if (dtype != "bfloat16" && dtype != "float16" && dtype != "half") {
            ++otherDtype;
            continue;
        }
        rows.push_back({gpuCount(csv, cGpus), messageSize(csv, cSize), kernelLatencyMs(csv, cLat)});
    }
    t.info.rowsSkipped = eager + otherDtype;
    if (eager > 0)
        t.info.notes.push_back(std::to_string(eager) + " eager-mode rows skipped (CUDA graphs)");
    if (otherDtype > 0)
        t.info.notes.push_back(std::to_string(otherDtype) +
                               " rows of an allreduce_dtype other than bfloat16 skipped");
    keepFirst(t, std::move(rows));
    requireRows(csv, t, "expected CUDA-graph rows of allreduce_dtype bfloat16");
    return t;
}

AicTable<CommRow> readNccl(CsvReader csv)
{
    AicTable<CommRow> t;
    t.info.file = csv.name();
    const int cDtype = csv.requireColumn("nccl_dtype");
    const int cGpus = csv.requireColumn("num_gpus");
    const int cSize = csv.requireColumn("message_size");
    const int cLat = csv.requireColumn("latency");
    const auto cOp = csv.column("op_name");
    struct Run {
        int runs = 0;
        double lastSize = 0;
        int firstLine = 0;
    };
    std::map<int, Run> runs; // by num_gpus, half rows only
    std::vector<CommRow> rows;
    while (csv.next()) {
        ++t.info.rowsRead;
        if (csv.field(cDtype) != "half") {
            ++t.info.rowsSkipped;
            continue;
        }
        const CommRow r{gpuCount(csv, cGpus), messageSize(csv, cSize), kernelLatencyMs(csv, cLat)};
        if (cOp) {
            if (csv.field(*cOp) == "all_reduce")
                rows.push_back(r);
            else
                ++t.info.rowsSkipped;
            continue;
        }
        Run& run = runs[r.gpus];
        if (run.runs == 0 || r.elements <= run.lastSize)
            ++run.runs;
        if (run.firstLine == 0)
            run.firstLine = csv.lineNumber();
        run.lastSize = r.elements;
        if (run.runs == kAllReduceRun + 1)
            rows.push_back(r);
        else
            ++t.info.rowsSkipped;
    }
    for (const auto& [gpus, run] : runs)
        if (run.runs != kNcclRuns)
            throw LoadError(csv.name(), "line " + std::to_string(run.firstLine),
                            "without an op_name column, expected 4 runs of rising message_size "
                            "for nccl_dtype half and num_gpus " +
                                std::to_string(gpus) +
                                " (all_gather, alltoall, reduce_scatter, all_reduce), found " +
                                std::to_string(run.runs));
    if (!cOp && !runs.empty())
        t.info.notes.push_back("no op_name column: all_reduce taken as the fourth run of each "
                               "num_gpus (the collector's order)");
    keepFirst(t, std::move(rows));
    requireRows(csv, t, "expected all_reduce rows of nccl_dtype half");
    return t;
}

} // namespace

AicTable<CommRow> parseCustomAllReduceTable(std::string text, const std::string& name)
{
    return readCustom(CsvReader::fromString(std::move(text), name));
}

AicTable<CommRow> parseNcclAllReduceTable(std::string text, const std::string& name)
{
    return readNccl(CsvReader::fromString(std::move(text), name));
}

AicTable<CommRow> loadCustomAllReduceTable(const std::string& path)
{
    return readCustom(CsvReader::fromFile(path));
}

AicTable<CommRow> loadNcclAllReduceTable(const std::string& path)
{
    return readNccl(CsvReader::fromFile(path));
}

} // namespace acsel
