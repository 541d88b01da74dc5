#include "app/cli/siliconnotes.h"

#include <nlohmann/json.hpp>

namespace acsel::cli
{

void printSiliconNotes(const SiliconPrediction& p, std::ostream& out)
{
    for (const SkippedSiliconRow& s : p.skipped)
        out << "excluded row " << s.row.id << " (line " << s.row.line << "): " << s.reason << "\n";
    for (const std::string& a : p.assumptions)
        out << "assumed: " << a << "\n";
}

void addSiliconNotes(const SiliconPrediction& p, Json& j)
{
    j["skipped_rows"] = Json::array();
    for (const SkippedSiliconRow& s : p.skipped)
        j["skipped_rows"].push_back({{"id", s.row.id}, {"reason", s.reason}});
    j["assumptions"] = p.assumptions;
}

} // namespace acsel::cli
