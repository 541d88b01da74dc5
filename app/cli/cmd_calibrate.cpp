// acsel calibrate: fits FMC (log-space quantile regression of measured on raw estimated
// latency) for every stack present in a silicon measurements CSV, and writes the coefficients
// with their provenance (the row ids used) as JSON. Per stack and metric the form (identity,
// offset, line) is chosen by cross-validated loss on the profiles (fmcchoice.h); the output
// shows it with the losses and the 90 % predictive interval factor.
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "app/cli/workspaceargs.h"
#include "core/data/loaderror.h"
#include "core/latency/fmcfile.h"
#include "core/latency/siliconstudy.h"

#include <cmath>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

// Rows measuring the same thing on other backend versions (loadSiliconCsv refuses exact
// repeats): the fit's tables are one version, so they weigh twice in it.
std::string rowKey(const SiliconRow& r)
{
    return sweepKey(r) + "|" + std::to_string(r.batch);
}

// "offset: gamma 1 delta 0.4; 90% interval: estimate x/ 1.31
//      offset kept (leave-out loss on 5 of 5 profiles, 3 independent): ...; validation ...
//      90% interval at the concurrencies with 5+ validated profiles: c8 x 1.2 x/ 1.5; ..."
std::string describe(const FmcLine& l, const FmcFitInfo& info)
{
    std::ostringstream s;
    s << toString(info.form) << ": gamma " << l.gamma << " delta " << l.delta << "; ";
    if (info.spread.known())
        s << "90% interval: estimate x/ " << std::setprecision(3)
          << std::exp(info.spread.quantileOffset(0.95));
    else
        s << "no interval (fewer than 3 profiles)";
    s << "\n      " << info.why << "; validation " << toString(info.validation);
    if (!info.loads.empty()) {
        s << "\n      90% interval at the concurrencies with " << kFmcLoadMinProfiles
          << "+ validated profiles:";
        for (const FmcLoadSpread& ls : info.loads)
            s << " " << ls.load << " x " << std::exp(ls.centre) << " x/ "
              << std::exp(ls.spread.quantileOffset(0.95)) << ";";
    }
    return s.str();
}

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
    specs.push_back({"allow-few", "",
                     "also calibrate stacks with fewer than 3 rows or 2 independent ones (no "
                     "two of one sweep or concurrency): they keep the raw estimate"});
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
    std::vector<std::string> notes;    // rows held out by the memory check
    std::vector<std::string> warnings; // few profiles, duplicated rows
    std::vector<std::string> tooFew;   // stacks below the minimum, not calibrated
    const bool allowFew = args.flag("allow-few");
    for (std::size_t s = 0; s < ws.stacks.size(); ++s) {
        std::vector<double> est[2], meas[2];
        std::vector<FmcProfileKey> keys;
        FmcEntry e;
        std::vector<std::string> held;
        std::map<std::string, std::string> seen; // row key -> first id
        for (const PredictedSiliconRow& r : p.rows) {
            if (r.stack != static_cast<int>(s))
                continue;
            // Memory check first: a queued row calibrates only a model that predicts queueing.
            if (const std::string why = profileExclusion(r, *mode); !why.empty()) {
                held.push_back(r.row.id + ": " + why);
                continue;
            }
            const auto [first, fresh] = seen.emplace(rowKey(r.row), r.row.id);
            if (!fresh)
                warnings.push_back(ws.stacks[s].id + ": row " + r.row.id + " repeats " +
                                   first->second +
                                   " (same model, format, isl, osl, concurrency): it counts twice");
            for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                est[static_cast<int>(m)].push_back(r.estimate(m));
                meas[static_cast<int>(m)].push_back(r.measured(m));
            }
            keys.push_back({sweepKey(r.row), loadKey(r.row)});
            e.rowsUsed.push_back(r.row.id);
        }
        if (e.rowsUsed.empty())
            continue;
        for (const std::string& h : held)
            notes.push_back(ws.stacks[s].id + " row " + h);
        const int independent = independentProfiles(keys, keys.size());
        if (static_cast<int>(e.rowsUsed.size()) < kFmcMinProfiles ||
            independent < kFmcMinIndependent) {
            const std::string what = ws.stacks[s].id + ": " + std::to_string(e.rowsUsed.size()) +
                                     " row(s), " + std::to_string(independent) + " independent";
            if (!allowFew) {
                tooFew.push_back(what);
                continue;
            }
            warnings.push_back(what + " (--allow-few): below " + std::to_string(kFmcMinProfiles) +
                               " rows, " + std::to_string(kFmcMinIndependent) +
                               " of them independent, the raw estimate is kept and there may "
                               "be no interval");
        }
        e.stack = ws.stacks[s].id;
        e.mode = set.servingMode;
        e.tableVersion = ws.stacks[s].version;
        e.set(LatencyMetric::Ttft, chooseFmc(est[0], meas[0], tau, keys));
        e.set(LatencyMetric::Tpot, chooseFmc(est[1], meas[1], tau, keys));
        set.entries.push_back(std::move(e));
    }
    const std::string minimum =
        "FMC needs at least " + std::to_string(kFmcMinProfiles) + " rows per stack, " +
        std::to_string(kFmcMinIndependent) +
        " of them independent (neither of one concurrency sweep, i.e. model, format, isl and "
        "osl, nor of one concurrency)";
    if (set.entries.empty() && !tooFew.empty()) {
        std::string stacks;
        for (const std::string& t : tooFew)
            stacks += (stacks.empty() ? "" : "; ") + t;
        throw LoadError(measurements, "",
                        "too few rows to calibrate (" + stacks + "): " + minimum +
                            " (--allow-few writes them with the raw estimate and its interval)");
    }
    for (const std::string& t : tooFew)
        warnings.push_back(t + ": not calibrated (raw estimates): " + minimum +
                           " (--allow-few writes it with the raw estimate and its interval)");
    if (set.entries.empty())
        throw app::UsageError("acsel calibrate: no row of " + measurements +
                              " could be predicted (see acsel predict for the reasons)");
    Json j = fmcToJson(set);
    for (const SkippedSiliconRow& s : p.skipped)
        j["rows_skipped"].push_back({{"id", s.row.id}, {"reason", s.reason}});
    j["assumptions"] = p.assumptions;
    j["rows_held_out_queued"] = notes;
    j["warnings"] = warnings;
    writeOutput("calibrate", output, j.dump(2) + "\n", args.flag("force"), io);

    std::ostream& out = summaryStream(output, io);
    out << "FMC at tau " << tau << " on the " << set.servingMode << " model from " << measurements
        << "\n";
    for (const FmcEntry& e : set.entries) {
        out << "  " << e.stack << " (tables " << e.tableVersion << ", " << e.rowsUsed.size()
            << " rows):\n";
        for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot})
            out << "    " << (m == LatencyMetric::Ttft ? "TTFT" : "TPOT") << " "
                << describe(e.line(m), e.info(m)) << "\n";
    }
    for (const std::string& w : warnings)
        io.err << "warning: " << w << "\n";
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
