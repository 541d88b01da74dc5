// acsel predict: raw (and with --fmc, calibrated) TTFT and TPOT and the memory estimate for
// every row of a silicon measurements CSV, with the calibration's predictive interval when the
// FMC file carries its spread; rows that cannot be predicted are listed with why.
#include "app/cli/command.h"
#include "app/cli/engineargs.h"
#include "app/cli/fmcmodewarning.h"
#include "app/cli/predictconfig.h"
#include "app/cli/workspaceargs.h"
#include "core/latency/fmcfile.h"
#include "core/latency/siliconstudy.h"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

std::string pctText(double level)
{
    std::ostringstream s;
    s << level * 100;
    return s.str();
}

std::string interval(const Json& iv)
{
    if (iv.is_null())
        return " [no interval]";
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << " [" << iv[0].get<double>() << ", "
      << iv[1].get<double>() << "]";
    return s.str();
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    if (asksForConfigPrediction(argv))
        return runPredictConfig(argv, io);
    auto specs = workspaceOptions();
    specs.push_back({"measurements", "FILE", "rows to predict (AIC silicon CSV format)"});
    specs.push_back({"fmc", "FILE", "FMC coefficients from acsel calibrate"});
    specs.push_back({"mode", "MODE",
                     "serving model: continuous (default: AIC silicon rows are "
                     "continuous-batching benchmarks) or static"});
    specs.push_back(
        {"level", "Q", "probability of the predictive interval printed with --fmc (default 0.9)"});
    specs.push_back({"json", "", "print JSON instead of text"});
    specs.push_back({"config", "FILE",
                     "instead of --measurements: one configuration JSON's predictions, "
                     "breakdowns and gate verdict (acsel predict --config FILE --help)"});
    const app::Args args("predict", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string measurements = args.require("measurements");
    std::optional<FmcSet> fmc;
    if (auto f = args.value("fmc"))
        fmc = loadFmcFile(*f);
    const double level = args.number("level", 0.9, 0.01, 0.999);
    const std::string modeName = args.valueOr("mode", "continuous");
    const auto mode = parseServingMode(modeName);
    if (!mode)
        throw app::UsageError("acsel predict: --mode '" + modeName +
                              "': expected static or continuous");
    const Workspace ws = loadWorkspaceFromArgs(args);
    if (fmc)
        warnFmcStacksOutside(*fmc, ws, *args.value("fmc"), io.err);
    const SiliconPrediction p = predictSiliconRows(ws, loadSiliconCsv(measurements), *mode);

    Json j;
    j["measurements"] = measurements;
    j["mode"] = std::string(toString(*mode));
    j["tables_dir"] = ws.tablesDir;
    j["assumptions"] = p.assumptions;
    j["rows"] = Json::array();
    j["skipped"] = Json::array();
    std::vector<std::string> uncalibrated;
    std::vector<std::string> mismatched; // stacks warned about (once each)
    for (const PredictedSiliconRow& r : p.rows) {
        const Stack& s = ws.stacks[static_cast<std::size_t>(r.stack)];
        const ModelArch& m = ws.models[static_cast<std::size_t>(r.config.model)];
        Json row{{"id", r.row.id},
                 {"line", r.row.line},
                 {"stack", s.id},
                 {"table_version", s.version},
                 {"model", m.name},
                 {"recipe", r.config.recipe.describe()},
                 {"kv", toString(r.config.kv)},
                 {"kv_source", r.kvReason},
                 {"batch", r.config.batch},
                 {"tp", r.config.tp},
                 {"isl", r.request.isl},
                 {"osl", r.request.osl},
                 {"ttft_raw_ms", r.estimate(LatencyMetric::Ttft)},
                 {"tpot_raw_ms", r.estimate(LatencyMetric::Tpot)},
                 {"ttft_static_ms", r.raw.ttftMs},
                 {"tpot_static_ms", r.raw.tpotMs},
                 {"ttft_continuous_ms", r.serving.latency.ttftMs},
                 {"tpot_continuous_ms", r.serving.latency.tpotMs},
                 {"kv_slots", r.serving.kv.requestsThatFit},
                 {"running", r.serving.running},
                 {"queue_wait_ms", r.serving.queueWaitMs},
                 {"memory_gib", r.memory.total() / kGiB},
                 {"fits_device", r.memory.fits(r.memory.capacityBytes)},
                 {"measured_ttft_ms", r.row.ttftMs},
                 {"measured_tpot_ms", r.row.tpotMs}};
        if (!r.attentionNote.empty())
            row["note"] = r.attentionNote;
        if (fmc) {
            if (const FmcEntry* e = fmc->find(s.id)) {
                for (LatencyMetric metric : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                    const std::string key = metric == LatencyMetric::Ttft ? "ttft" : "tpot";
                    const double est = r.estimate(metric);
                    const FmcFitInfo& info = e->info(metric);
                    row[key + "_fmc_ms"] = e->line(metric).apply(est);
                    row[key + "_fmc_form"] = std::string(toString(info.form));
                    const FmcRowSpread spread = info.row(loadKey(r.row));
                    if (spread.spread.known()) {
                        const LatencyInterval iv =
                            predictiveInterval(e->line(metric), spread, est, level);
                        row[key + "_interval_ms"] = {iv.lowMs, iv.highMs};
                    } else {
                        row[key + "_interval_ms"] = nullptr;
                    }
                }
                if (e->mode != toString(*mode)) {
                    row["fmc_mode_mismatch"] = "FMC fitted on the " + e->mode + " model";
                    if (std::find(mismatched.begin(), mismatched.end(), s.id) == mismatched.end()) {
                        mismatched.push_back(s.id);
                        io.err << fmcModeWarning(s.id, e->mode, *mode, "this prediction");
                    }
                }
            } else if (std::find(uncalibrated.begin(), uncalibrated.end(), s.id) ==
                       uncalibrated.end()) {
                uncalibrated.push_back(s.id);
            }
        }
        j["rows"].push_back(row);
    }
    for (const SkippedSiliconRow& s : p.skipped)
        j["skipped"].push_back({{"id", s.row.id}, {"line", s.row.line}, {"reason", s.reason}});
    if (fmc)
        j["stacks_without_fmc"] = uncalibrated;
    j["interval_level"] = level;
    if (args.flag("json")) {
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "raw = " << toString(*mode) << " operator estimate (docs/SERVING.md)"
           << (fmc ? "; fmc = calibrated [" + pctText(level) +
                         " % predictive interval; '[no interval]': too few profiles]"
                   : "; no interval: no calibration (pass --fmc)")
           << "; meas = measured (ms)\n";
    for (const std::string& a : p.assumptions)
        io.out << "assumed: " << a << "\n";
    io.out << std::fixed << std::setprecision(1);
    for (const Json& r : j["rows"]) {
        io.out << std::left << std::setw(18) << r["stack"].get<std::string>() << std::setw(15)
               << r["model"].get<std::string>() << std::right << " b" << std::setw(3)
               << r["batch"].get<int>() << " " << r["isl"].get<int>() << "x" << r["osl"].get<int>();
        if (r["tp"].get<int>() > 1)
            io.out << " tp" << r["tp"].get<int>();
        io.out << "  TTFT raw " << r["ttft_raw_ms"].get<double>();
        if (r.contains("ttft_fmc_ms"))
            io.out << " fmc " << r["ttft_fmc_ms"].get<double>() << interval(r["ttft_interval_ms"]);
        io.out << " meas " << r["measured_ttft_ms"].get<double>() << "  TPOT raw "
               << r["tpot_raw_ms"].get<double>();
        if (r.contains("tpot_fmc_ms"))
            io.out << " fmc " << r["tpot_fmc_ms"].get<double>() << interval(r["tpot_interval_ms"]);
        io.out << " meas " << r["measured_tpot_ms"].get<double>() << "  mem "
               << r["memory_gib"].get<double>()
               << (r["tp"].get<int>() > 1 ? " GiB/GPU  " : " GiB  ") << r["id"].get<std::string>()
               << "\n";
        if (r.contains("note"))
            io.out << "    note: " << r["note"].get<std::string>() << "\n";
    }
    for (const SkippedSiliconRow& s : p.skipped)
        io.out << "not predicted: " << s.row.id << " (line " << s.row.line << "): " << s.reason
               << "\n";
    for (const std::string& s : uncalibrated)
        io.out << "no FMC coefficients for " << s << ": raw only\n";
    return 0;
}

const RegisterCommand reg("predict",
                          "predict TTFT/TPOT/memory for measured rows (raw and FMC), or one "
                          "configuration's numbers and gate verdict (--config)",
                          &run);

} // namespace
} // namespace acsel::cli
