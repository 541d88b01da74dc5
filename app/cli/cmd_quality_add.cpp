// acsel quality add: merges measured rows (the CSV measure_rmqd writes, or any quality set)
// into a quality set, refusing unknown models, malformed rows and configurations measured
// twice, and saves it atomically. A SET that does not exist yet is created from the rows.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "app/common/paths.h"
#include "core/data/workspacefile.h"
#include "core/quality/qualitymerge.h"

#include <filesystem>
#include <ostream>

namespace acsel::cli
{
namespace
{

constexpr const char* kName = "quality add";

bool samePath(const std::string& a, const std::string& b)
{
    std::error_code ec;
    return std::filesystem::weakly_canonical(a, ec) == std::filesystem::weakly_canonical(b, ec);
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    std::vector<app::OptionSpec> specs{workspaceOptions().front()}; // quality needs no tables
    const app::Args args("quality add", argv, specs, 1 << 20);
    if (args.helpRequested()) {
        io.out << "usage: acsel quality add SET ROWS... [--workspace FILE]\n"
                  "  SET   the quality set to extend (JSON, or CSV for a .csv name); created "
                  "when it does not exist\n"
                  "  ROWS  quality-set files with the rows to add (e.g. measure_rmqd's rows.csv)\n"
               << args.usage();
        return 0;
    }
    const std::vector<std::string>& pos = args.positional();
    if (pos.size() < 2)
        throw app::UsageError("acsel quality add: expected SET and at least one ROWS file");
    const std::string wsPath = app::resolveWorkspacePath(args.valueOr("workspace", ""));
    if (wsPath.empty())
        throw app::UsageError("acsel quality add: no workspace found: pass --workspace FILE");
    const Workspace ws = loadWorkspace(wsPath, "");
    const std::string& setPath = pos.front();

    std::vector<QualitySet> added;
    for (std::size_t i = 1; i < pos.size(); ++i)
        added.push_back(loadQualitySet(pos[i], ws.models)); // unknown models refused here
    const bool exists = std::filesystem::exists(setPath);
    QualitySet set;
    if (exists) {
        set = loadQualitySet(setPath, ws.models);
    } else {
        set.file = setPath;
        set.synthetic = added.front().synthetic;
        set.provenance = added.front().provenance;
    }
    const std::size_t before = set.rows.size();
    for (const QualitySet& rows : added) {
        mergeQualityRows(set, rows, ws.models);
        if (exists || &rows != &added.front())
            set.provenance += "; then " + std::to_string(rows.rows.size()) + " rows from " +
                              rows.file + ": " + rows.provenance;
    }
    writeQualitySet(set, ws.models, setPath);

    int train = 0;
    for (const QualityRow& r : set.rows)
        train += r.split == Split::Train ? 1 : 0;
    io.out << (exists ? "added " : "created " + setPath + " with ") << set.rows.size() - before
           << " " << (set.synthetic ? "SYNTHETIC" : "measured") << " rows"
           << (exists ? " to " + setPath : "") << ": " << set.rows.size() << " rows, " << train
           << " training, " << set.rows.size() - static_cast<std::size_t>(train) << " held-out\n";
    if (!ws.qualityFile.empty() && samePath(ws.qualityFile, setPath))
        io.out << "this is the workspace's quality set: its surrogate refits on the next load "
                  "(acsel search, acsel report quality, acsel-studio)\n";
    else
        io.out << "fit and check it: acsel report quality --workspace " << wsPath << " --quality "
               << setPath << "\n(the workspace's own set is "
               << (ws.qualityFile.empty() ? "not set" : ws.qualityFile)
               << "; point its \"quality\" entry at " << setPath
               << " to have the search refit on it)\n";
    return 0;
}

const RegisterCommand reg(kName,
                          "merge measured RMQD rows into a quality set (refuses duplicates and "
                          "unknown models; atomic save)",
                          &run);

} // namespace
} // namespace acsel::cli
