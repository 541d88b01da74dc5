// acsel calibrate: fits FMC (log-space quantile regression of measured on raw estimated
// latency) for every stack present in a silicon measurements CSV, and writes the coefficients
// with their provenance (the row ids used) as JSON.
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "app/cli/workspaceargs.h"
#include "core/latency/fmcfile.h"
#include "core/latency/siliconstudy.h"

#include <ostream>

namespace acsel::cli
{
namespace
{

int run(const std::vector<std::string>& rawArgv, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(rawArgv);
    auto specs = workspaceOptions();
    specs.push_back({"measurements", "FILE", "end-to-end measurements (AIC silicon CSV format)"});
    specs.push_back(
        {"tau", "Q", "quantile of the fit (default 0.5: median; > 0.5 is conservative)"});
    specs.push_back(
        {"output", "FILE", "FMC coefficients JSON to write (also -o; '-' for standard output)"});
    specs.push_back({"force", "", "overwrite an existing output file"});
    specs.push_back({"mode", "MODE",
                     "serving model of the raw estimates: continuous (default: AIC silicon "
                     "rows are continuous-batching benchmarks) or static"});
    const app::Args args("calibrate", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string measurements = args.require("measurements");
    const std::string output = args.require("output");
    const double tau = args.number("tau", 0.5, 0.01, 0.99);
    checkOutputPath("calibrate", output, args.flag("force"));
    const std::string modeName = args.valueOr("mode", "continuous");
    const auto mode = parseServingMode(modeName);
    if (!mode)
        throw app::UsageError("acsel calibrate: --mode '" + modeName +
                              "': expected static or continuous");
    const Workspace ws = loadWorkspaceFromArgs(args);
    if (ws.stacks.empty())
        throw app::UsageError("acsel calibrate: no operator tables (pass --tables DIR)");
    const SiliconPrediction p = predictSiliconRows(ws, loadSiliconCsv(measurements), *mode);

    FmcSet set;
    set.tau = tau;
    set.servingMode = std::string(toString(*mode));
    set.measurements = measurements;
    std::vector<std::string> notes; // rows held out by the memory check
    for (std::size_t s = 0; s < ws.stacks.size(); ++s) {
        std::vector<double> est[2], meas[2];
        FmcEntry e;
        std::vector<std::string> held;
        for (const PredictedSiliconRow& r : p.rows) {
            if (r.stack != static_cast<int>(s))
                continue;
            // Memory check first: a queued row calibrates only a model that predicts queueing.
            if (const std::string why = profileExclusion(r, *mode); !why.empty()) {
                held.push_back(r.row.id + ": " + why);
                continue;
            }
            for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                est[static_cast<int>(m)].push_back(r.estimate(m));
                meas[static_cast<int>(m)].push_back(r.measured(m));
            }
            e.rowsUsed.push_back(r.row.id);
        }
        if (e.rowsUsed.empty())
            continue;
        for (const std::string& h : held)
            notes.push_back(ws.stacks[s].id + " row " + h);
        e.stack = ws.stacks[s].id;
        e.mode = set.servingMode;
        e.tableVersion = ws.stacks[s].version;
        e.ttft = fitFmc(est[0], meas[0], tau);
        e.tpot = fitFmc(est[1], meas[1], tau);
        set.entries.push_back(std::move(e));
    }
    if (set.entries.empty())
        throw app::UsageError("acsel calibrate: no row of " + measurements +
                              " could be predicted (see acsel predict for the reasons)");
    Json j = fmcToJson(set);
    for (const SkippedSiliconRow& s : p.skipped)
        j["rows_skipped"].push_back({{"id", s.row.id}, {"reason", s.reason}});
    j["assumptions"] = p.assumptions;
    j["rows_held_out_queued"] = notes;
    writeOutput("calibrate", output, j.dump(2) + "\n", args.flag("force"), io);

    std::ostream& out = summaryStream(output, io);
    out << "FMC at tau " << tau << " on the " << set.servingMode << " model from " << measurements
        << "\n";
    for (const FmcEntry& e : set.entries)
        out << "  " << e.stack << " (tables " << e.tableVersion << ", " << e.rowsUsed.size()
            << " rows): TTFT gamma " << e.ttft.gamma << " delta " << e.ttft.delta << "; TPOT gamma "
            << e.tpot.gamma << " delta " << e.tpot.delta << "\n";
    for (const std::string& n : notes)
        out << "  not used: " << n << "\n";
    for (const PredictedSiliconRow& r : p.rows)
        if (r.serving.queued() && *mode == ServingMode::Continuous)
            out << "  used (queueing predicted, " << r.serving.concurrency << " > "
                << r.serving.running << " KV slots): " << r.row.id << "\n";
    for (const SkippedSiliconRow& s : p.skipped)
        out << "  skipped " << s.row.id << ": " << s.reason << "\n";
    if (!isStandardOutput(output))
        out << "wrote " << output << "\n";
    return 0;
}

const RegisterCommand reg("calibrate", "fit FMC latency calibration per stack from measurements",
                          &run);

} // namespace
} // namespace acsel::cli
