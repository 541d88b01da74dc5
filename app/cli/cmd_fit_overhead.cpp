// acsel fit overhead: fits the request overhead of each measured release of one stack on a
// silicon measurements CSV (requestoverheadfit.h) and prints the entries of the workspace's
// request overheads file (datasets/request_overheads.json) as a JSON array, each saying how it
// was fitted and its MdAPE with each concurrency sweep left out.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "core/data/loaderror.h"
#include "core/latency/requestoverheadfit.h"

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

namespace acsel::cli
{
namespace
{

std::string percent(double v)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << v << " %";
    return s.str();
}

std::string fittedText(const OverheadFit& f, const std::string& file)
{
    std::string t = std::to_string(f.rows) + " unqueued rows of " + file +
                    " (acsel fit overhead); their TTFT MdAPE " + percent(f.mdapeWithout) +
                    " without it, " + percent(f.mdapeWith) + " with it";
    if (std::isnan(f.heldOutMdape))
        return t + "; one concurrency sweep: none to leave out";
    return t + ", " + percent(f.heldOutMdape) + " with each of its " + std::to_string(f.sweeps) +
           " concurrency sweeps left out";
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"measurements", "FILE", "measured rows (AIC silicon CSV format)"});
    specs.push_back({"stack", "ID", "the stack to fit, e.g. h100_sxm/trtllm"});
    specs.push_back({"release", "VERSION",
                     "fit only this backend_version (default: each release of the stack)"});
    const app::Args args("fit overhead", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string measurements = args.require("measurements");
    const std::string stackId = args.require("stack");
    const Workspace ws = loadWorkspaceFromArgs(args);
    if (!ws.findStack(stackId))
        throw app::UsageError("acsel fit overhead: --stack '" + stackId +
                              "': expected a stack of the workspace (acsel info lists them)");
    const std::vector<SiliconRow> rows = loadSiliconCsv(measurements);
    const SiliconPrediction p = predictSiliconRows(ws, rows);

    std::set<std::string> releases;
    if (auto only = args.value("release"))
        releases.insert(*only);
    else
        for (const PredictedSiliconRow& r : p.rows)
            if (ws.stacks[static_cast<std::size_t>(r.stack)].id == stackId &&
                !r.row.backendVersion.empty())
                releases.insert(r.row.backendVersion);

    const std::string file = std::filesystem::path(measurements).filename().string();
    // The file's key order (stack, release, overhead_ms, fitted), ready to paste.
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    std::string tooFew;
    for (const std::string& release : releases) {
        const std::vector<OverheadSample> samples = overheadSamples(p, ws, stackId, release);
        if (static_cast<int>(samples.size()) < kMinOverheadRows) {
            tooFew += (tooFew.empty() ? "" : ", ") + release + " " + std::to_string(samples.size());
            continue;
        }
        const OverheadFit f = fitRequestOverhead(samples);
        nlohmann::ordered_json entry;
        entry["stack"] = stackId;
        entry["release"] = release;
        entry["overhead_ms"] = f.overheadMs;
        entry["fitted"] = fittedText(f, file);
        entries.push_back(std::move(entry));
    }
    if (entries.empty())
        throw LoadError(measurements, "backend_version",
                        "expected a release of " + stackId + " with at least " +
                            std::to_string(kMinOverheadRows) + " rows the model does not queue (" +
                            (tooFew.empty() ? "no measured release" : tooFew) + ")");
    io.out << entries.dump(2) << "\n";
    if (!tooFew.empty())
        io.err << "not fitted (fewer than " << kMinOverheadRows << " unqueued rows): " << tooFew
               << "\n";
    return 0;
}

const RegisterCommand reg("fit overhead",
                          "fit a stack's request overhead per measured release on measured rows",
                          &run);

} // namespace
} // namespace acsel::cli
