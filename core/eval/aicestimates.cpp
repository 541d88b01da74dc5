#include "core/eval/aicestimates.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"

#include <set>

namespace acsel
{
namespace
{

std::vector<AicEstimate> read(CsvReader csv)
{
    const int cId = csv.requireColumn("id");
    const int cSystem = csv.requireColumn("system");
    const int cBackend = csv.requireColumn("backend");
    const int cStatus = csv.requireColumn("aic_agg_status");
    const int cTtft = csv.requireColumn("aic_agg_ttft_ms");
    const int cTpot = csv.requireColumn("aic_agg_tpot_ms");
    std::vector<AicEstimate> out;
    std::set<std::string, std::less<>> ids;
    while (csv.next()) {
        AicEstimate e;
        e.line = csv.lineNumber();
        e.id = csv.field(cId);
        if (e.id.empty())
            throw LoadError(csv.name(), csv.where(cId), "expected a non-empty row id");
        if (!ids.insert(e.id).second)
            throw LoadError(csv.name(), csv.where(cId), "row id '" + e.id + "' appears twice");
        e.system = csv.field(cSystem);
        e.backend = csv.field(cBackend);
        const std::string_view status = csv.field(cStatus);
        if (status == "ok") {
            e.ttftMs = csv.positiveNumber(cTtft);
            e.tpotMs = csv.positiveNumber(cTpot);
        } else if (status != "refused") {
            throw LoadError(csv.name(), csv.where(cStatus),
                            "expected ok or refused, found '" + std::string(status) + "'");
        }
        out.push_back(std::move(e));
    }
    if (out.empty())
        throw LoadError(csv.name(), "", "no estimate rows");
    return out;
}

} // namespace

std::vector<AicEstimate> loadAicEstimatesCsv(const std::string& path)
{
    return read(CsvReader::fromFile(path));
}

std::vector<AicEstimate> parseAicEstimatesCsv(std::string text, const std::string& name)
{
    return read(CsvReader::fromString(std::move(text), name));
}

} // namespace acsel
