#include "core/data/moetables.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"

#include <algorithm>
#include <tuple>

namespace acsel
{
namespace
{

int positive(const CsvReader& csv, int col, std::int64_t max)
{
    const std::int64_t v = csv.integer(col);
    if (v < 1 || v > max)
        throw LoadError(csv.name(), csv.where(col),
                        "expected an integer from 1 to " + std::to_string(max) + ", found '" +
                            std::string(csv.field(col)) + "'");
    return static_cast<int>(v);
}

auto key(const MoeRow& r)
{
    return std::tuple(r.format, r.hidden, r.inter, r.topk, r.experts, r.moeTp, r.moeEp, r.tokens);
}

AicTable<MoeRow> read(CsvReader csv, const std::string& distribution)
{
    AicTable<MoeRow> t;
    t.info.file = csv.name();
    const int cDtype = csv.requireColumn("moe_dtype");
    const int cTokens = csv.requireColumn("num_tokens");
    const int cHidden = csv.requireColumn("hidden_size");
    const int cInter = csv.requireColumn("inter_size");
    const int cTopk = csv.requireColumn("topk");
    const int cExperts = csv.requireColumn("num_experts");
    const int cTp = csv.requireColumn("moe_tp_size");
    const int cEp = csv.requireColumn("moe_ep_size");
    const int cDist = csv.requireColumn("distribution");
    const int cLat = csv.requireColumn("latency");
    constexpr std::int64_t kBig = std::int64_t{1} << 24;
    int otherDtype = 0, otherDistribution = 0;
    std::vector<MoeRow> rows;
    while (csv.next()) {
        ++t.info.rowsRead;
        if (csv.field(cDist) != distribution) {
            ++otherDistribution;
            continue;
        }
        const auto f = parseFormat(csv.field(cDtype));
        if (!f) {
            ++otherDtype;
            continue;
        }
        MoeRow r{*f,
                 positive(csv, cHidden, kBig),
                 positive(csv, cInter, kBig),
                 positive(csv, cTopk, 4096),
                 positive(csv, cExperts, 4096),
                 positive(csv, cTp, 1024),
                 positive(csv, cEp, 4096),
                 positive(csv, cTokens, kBig),
                 kernelLatencyMs(csv, cLat)};
        rows.push_back(r);
    }
    if (t.info.rowsRead == 0)
        throw LoadError(csv.name(), "", "no data rows after the header");
    std::stable_sort(rows.begin(), rows.end(),
                     [](const MoeRow& a, const MoeRow& b) { return key(a) < key(b); });
    for (const MoeRow& r : rows) {
        if (!t.rows.empty() && key(t.rows.back()) == key(r))
            ++t.info.duplicatesDropped;
        else
            t.rows.push_back(r);
    }
    t.info.rowsKept = static_cast<int>(t.rows.size());
    t.info.rowsSkipped = otherDtype + otherDistribution;
    if (otherDistribution > 0)
        t.info.notes.push_back(std::to_string(otherDistribution) + " rows of a distribution " +
                               "other than " + distribution + " skipped");
    if (otherDtype > 0)
        t.info.notes.push_back(std::to_string(otherDtype) +
                               " rows of a moe_dtype we have no format for skipped");
    if (t.info.duplicatesDropped > 0)
        t.info.notes.push_back(std::to_string(t.info.duplicatesDropped) +
                               " duplicate keys resolved (first row)");
    if (t.rows.empty())
        t.info.notes.push_back("no row of distribution " + distribution +
                               " and a modelled moe_dtype: MoE blocks costed as GEMMs");
    return t;
}

} // namespace

AicTable<MoeRow> loadMoeTable(const std::string& path, const std::string& distribution)
{
    return read(CsvReader::fromFile(path), distribution);
}

AicTable<MoeRow> parseMoeTable(std::string text, const std::string& name,
                               const std::string& distribution)
{
    return read(CsvReader::fromString(std::move(text), name), distribution);
}

} // namespace acsel
