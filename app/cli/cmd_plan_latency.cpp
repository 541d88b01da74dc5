// acsel plan latency: the few end-to-end profiles FMC needs on one stack (docs/METHOD.md 3:
// candidate runs sorted by their raw TTFT estimate, cut into K equal-count strata, one seeded
// draw per stratum, among the runs of a sweep and a concurrency not yet picked: selectIndependent),
// the serving-benchmark commands for the stack's backend, and the silicon CSV template `acsel
// calibrate --measurements` reads once the two measured columns are filled in.
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "app/cli/workspaceargs.h"
#include "core/eval/calibrationstudy.h"
#include "core/latency/siliconstudy.h"
#include "core/model/backend.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <locale>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

constexpr const char* kName = "plan latency";
constexpr int kWidthMaxProfiles = 16; // --width: K = 3 .. 16

// The grid the profiles are drawn from: short and long prompts and generations, single
// requests to a loaded server (AIC's silicon rows span the same ranges), at seven concurrencies
// so that up to seven profiles can be independent (fmcchoice.h).
constexpr int kIsl[] = {256, 1024, 4096};
constexpr int kOsl[] = {128, 512};
constexpr int kConcurrency[] = {1, 2, 4, 8, 16, 32, 64};

std::string num(double v)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::fixed << std::setprecision(2) << v;
    return s.str();
}

std::string checkpointVar(const ModelArch& arch, Format f)
{
    std::string v = "CKPT_" + arch.name + "_" + std::string(toString(f));
    for (char& c : v)
        c = std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(c)) : '_';
    return v;
}

// Server and benchmark commands per backend: templates, written from the engines' documented
// CLIs; not run here (no GPU), so the script says to check them against the installed version.
struct BackendCommands {
    std::string serve, bench;
    int port = 8000;
};

BackendCommands commandsFor(Backend backend)
{
    switch (backend) {
    case Backend::Vllm:
        return {"vllm serve \"$CKPT\" --port 8000 --max-num-seqs \"$C\" $QUANT_ARGS",
                "vllm bench serve --backend vllm --port 8000 --model \"$CKPT\" --dataset-name "
                "random --random-input-len \"$ISL\" --random-output-len \"$OSL\" --num-prompts "
                "$((C * 8)) --max-concurrency \"$C\" --ignore-eos --percentile-metrics ttft,tpot "
                "--metric-percentiles 50",
                8000};
    case Backend::Sglang:
        return {"python3 -m sglang.launch_server --model-path \"$CKPT\" --port 30000 "
                "--max-running-requests \"$C\" $QUANT_ARGS",
                "python3 -m sglang.bench_serving --backend sglang --port 30000 --dataset-name "
                "random --random-input-len \"$ISL\" --random-output-len \"$OSL\" "
                "--random-range-ratio 1 --num-prompts $((C * 8)) --max-concurrency \"$C\"",
                30000};
    case Backend::TrtLlm:
        break;
    }
    return {"trtllm-serve \"$CKPT\" --backend pytorch --port 8000 --max_batch_size \"$C\"",
            "python3 -m tensorrt_llm.serve.scripts.benchmark_serving --backend openai --port 8000 "
            "--model \"$CKPT\" --dataset-name random --random-input-len \"$ISL\" "
            "--random-output-len \"$OSL\" --random-ids --num-prompts $((C * 8)) "
            "--max-concurrency \"$C\" --ignore-eos",
            8000};
}

std::string quantArgs(Backend backend, Format f)
{
    // vLLM and SGLang read the checkpoint's hf_quant_config.json under this method;
    // trtllm-serve reads it by itself.
    if (f == Format::Bf16 || backend == Backend::TrtLlm)
        return "";
    return "--quantization modelopt";
}

std::string pct(double v)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::fixed << std::setprecision(1) << v;
    return s.str();
}

// --study: per draw kind and K, over every stack and seed, the mean held-out MdAPE raw and
// calibrated, how many draws FMC made worse than raw by more than 5 % (relative), the worst
// ratio, and the forms kept.
int study(const app::Args& args, const Workspace& ws, ServingMode mode, CommandIo& io)
{
    const std::string file = *args.value("study");
    CalibrationStudyOptions o;
    o.seeds = args.integer("seeds", 20, 1, 10000);
    o.rule.lineMinIndependent = args.integer("line-from", o.rule.lineMinIndependent, 2, 1000);
    o.rule.level = args.number("level", o.rule.level, 0.5, 0.999);
    o.rule.offsetConfidence = args.number("offset-level", o.rule.offsetConfidence, 0.01, 0.99);
    const SiliconPrediction p = predictSiliconRows(ws, loadSiliconCsv(file), mode);
    const std::vector<CalibrationDraw> draws = runCalibrationStudy(p, ws, o);
    io.out << "FMC on draws of K profiles per stack of " << file << " (" << toString(mode)
           << " model, " << o.seeds << " seeds per stack, kind and K; line from "
           << o.rule.lineMinIndependent << " independent profiles, test level " << o.rule.level
           << ", offset confidence " << o.rule.offsetConfidence
           << "), MdAPE (%) on the stack's other rows, mean over draws\n\n"
           << "| draw | K | draws | independent | TTFT raw | TTFT FMC | TTFT worse | TTFT worst "
              "| TTFT forms i/o/l | TPOT raw | TPOT FMC | TPOT worse | TPOT worst | TPOT forms "
              "i/o/l |\n|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|\n";
    for (ProfileDraw how : o.draws)
        for (int k : o.profileCounts) {
            int n = 0;
            double independent = 0;
            std::array<double, 2> raw{}, fmc{}, worst{};
            std::array<int, 2> worse{};
            std::array<std::array<int, 3>, 2> forms{};
            for (const CalibrationDraw& d : draws) {
                if (d.draw != how || d.profiles != k)
                    continue;
                ++n;
                independent += d.independent;
                for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                    const auto i = static_cast<std::size_t>(m);
                    raw[i] += d.raw[i];
                    fmc[i] += d.fmc[i];
                    worst[i] = std::max(worst[i], d.fmc[i] / d.raw[i]);
                    worse[i] += hurts(d, m, 0.05) ? 1 : 0;
                    ++forms[i][static_cast<std::size_t>(d.form[i])];
                }
            }
            if (n == 0)
                continue;
            io.out << "| " << toString(how) << " | " << k << " | " << n << " | "
                   << pct(independent / n);
            for (std::size_t i = 0; i < 2; ++i)
                io.out << " | " << pct(raw[i] / n) << " | " << pct(fmc[i] / n) << " | " << worse[i]
                       << " | " << num(worst[i]) << " | " << forms[i][0] << "/" << forms[i][1]
                       << "/" << forms[i][2];
            io.out << " |\n";
        }
    io.out << "\nworse: draws whose FMC MdAPE exceeds raw by more than 5 % (relative); worst: "
              "the largest FMC / raw MdAPE ratio; forms: identity/offset/line kept\n";
    for (const CalibrationDraw& d : draws)
        for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot})
            if (hurts(d, m, 0.05)) {
                const auto i = static_cast<std::size_t>(m);
                io.out << "worse: " << d.stack << " " << toString(d.draw) << " K " << d.profiles
                       << " seed " << d.seed << " " << (i == 0 ? "TTFT" : "TPOT") << " raw "
                       << pct(d.raw[i]) << " FMC " << pct(d.fmc[i]) << " (" << toString(d.form[i])
                       << ", " << d.independent << " independent)\n";
            }
    return 0;
}

// The fewest profiles, picked as this command picks them (selectIndependent), whose 90 % TTFT
// interval on the stack's other rows is at most x/ `width` in at least half the draws (median
// of the draws' mean half-width factor); 0 when no K of the study reaches it.
struct WidthAnswer {
    int profiles = 0;
    double medianWidth = 0;
};

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.empty() ? std::nan("") : v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Per K of draws (of one stack when `stack` is non-empty): the draws' mean TTFT and TPOT interval
// width factors and coverages, NaN ones (no interval) counted as unreached.
struct WidthRow {
    int k = 0, draws = 0, withInterval = 0;
    std::array<double, 2> medianWidth{}, coverage{};
    int reached = 0; // draws whose TTFT width <= the target
};

std::vector<WidthRow> widthRows(const std::vector<CalibrationDraw>& draws,
                                const std::vector<int>& counts, const std::string& stack,
                                double target)
{
    std::vector<WidthRow> out;
    for (int k : counts) {
        WidthRow w;
        w.k = k;
        std::array<std::vector<double>, 2> widths;
        std::array<double, 2> cov{};
        for (const CalibrationDraw& d : draws) {
            if (d.profiles != k || (!stack.empty() && d.stack != stack))
                continue;
            ++w.draws;
            if (std::isnan(d.width[0]))
                continue;
            ++w.withInterval;
            w.reached += d.width[0] <= target ? 1 : 0;
            for (std::size_t m = 0; m < 2; ++m) {
                widths[m].push_back(d.width[m]);
                cov[m] += d.coverage[m];
            }
        }
        if (w.draws == 0)
            continue;
        for (std::size_t m = 0; m < 2; ++m) {
            // A draw without an interval is wider than any target: it sorts last.
            std::vector<double> all = widths[m];
            all.resize(static_cast<std::size_t>(w.draws), std::numeric_limits<double>::infinity());
            w.medianWidth[m] = medianOf(all);
            w.coverage[m] = w.withInterval > 0 ? cov[m] / w.withInterval : std::nan("");
        }
        out.push_back(w);
    }
    return out;
}

WidthAnswer widthAnswer(const std::vector<WidthRow>& rows, double target)
{
    for (const WidthRow& w : rows)
        if (w.medianWidth[0] <= target)
            return {w.k, w.medianWidth[0]};
    return {};
}

std::string widthText(double v)
{
    return std::isfinite(v) ? "x/ " + num(v) : "none";
}

CalibrationStudyOptions widthOptions(const app::Args& args)
{
    CalibrationStudyOptions o;
    o.seeds = args.integer("seeds", 20, 1, 10000);
    o.draws = {ProfileDraw::Independent};
    o.profileCounts.clear();
    for (int k = 3; k <= kWidthMaxProfiles; ++k)
        o.profileCounts.push_back(k);
    return o;
}

// --stack S --study FILE --width X: the number of profiles to plan, from FILE's rows of S when
// it has them, else from all its stacks (said on io.out). Refused when no K reaches X.
int widthProfiles(const app::Args& args, const Workspace& ws, const std::string& stack,
                  ServingMode mode, CommandIo& io)
{
    const std::string file = *args.value("study");
    const double target = args.number("width", 2, 1.01, 100);
    const CalibrationStudyOptions o = widthOptions(args);
    const std::vector<CalibrationDraw> draws =
        runCalibrationStudy(predictSiliconRows(ws, loadSiliconCsv(file), mode), ws, o);
    const bool own = std::any_of(draws.begin(), draws.end(),
                                 [&](const CalibrationDraw& d) { return d.stack == stack; });
    const std::vector<WidthRow> rows =
        widthRows(draws, o.profileCounts, own ? stack : std::string(), target);
    const WidthAnswer a = widthAnswer(rows, target);
    const std::string from = own ? file + "'s rows of " + stack : "all stacks of " + file;
    if (a.profiles == 0) {
        double best = std::numeric_limits<double>::infinity();
        for (const WidthRow& w : rows)
            best = std::min(best, w.medianWidth[0]);
        throw app::UsageError("acsel plan latency: --width " + num(target) + ": no K up to " +
                              std::to_string(kWidthMaxProfiles) +
                              " brings the 90 % TTFT "
                              "interval to it in half the draws on " +
                              from + " (narrowest: " + widthText(best) + ")");
    }
    io.out << a.profiles << " profiles bring the 90 % TTFT interval to x/ " << num(a.medianWidth)
           << " (median of " << o.seeds << " draws on " << from << "; target x/ " << num(target)
           << ")\n";
    return a.profiles;
}

// --study FILE --width X: the width table pooled over the stacks, then the answer per stack.
int widthStudy(const app::Args& args, const Workspace& ws, ServingMode mode, double target,
               CommandIo& io)
{
    const std::string file = *args.value("study");
    const CalibrationStudyOptions o = widthOptions(args);
    const std::vector<CalibrationDraw> draws =
        runCalibrationStudy(predictSiliconRows(ws, loadSiliconCsv(file), mode), ws, o);
    io.out << "90 % intervals of FMC on K profiles per stack of " << file
           << ", picked as plan latency picks them (" << toString(mode) << " model, " << o.seeds
           << " seeds per stack and K), on the stack's other rows: median over draws of the "
              "mean half-width factor, mean coverage; target TTFT x/ "
           << num(target) << "\n\n"
           << "| K | draws | with interval | TTFT width | TTFT coverage | TPOT width | TPOT "
              "coverage | draws reaching the target |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    const std::vector<WidthRow> pooled = widthRows(draws, o.profileCounts, "", target);
    for (const WidthRow& w : pooled)
        io.out << "| " << w.k << " | " << w.draws << " | " << w.withInterval << " | "
               << widthText(w.medianWidth[0]) << " | " << pct(100 * w.coverage[0]) << "% | "
               << widthText(w.medianWidth[1]) << " | " << pct(100 * w.coverage[1]) << "% | "
               << w.reached << " |\n";
    io.out << "\n";
    std::vector<std::string> stacks;
    for (const CalibrationDraw& d : draws)
        if (std::find(stacks.begin(), stacks.end(), d.stack) == stacks.end())
            stacks.push_back(d.stack);
    for (const std::string& id : stacks) {
        const WidthAnswer a = widthAnswer(widthRows(draws, o.profileCounts, id, target), target);
        const auto d = std::find_if(draws.begin(), draws.end(),
                                    [&](const CalibrationDraw& x) { return x.stack == id; });
        io.out << id << " (" << d->profiles + d->heldOut << " rows): ";
        if (a.profiles > 0)
            io.out << a.profiles << " profiles (median TTFT interval x/ " << num(a.medianWidth)
                   << "): acsel plan latency --stack " << id << " --profiles " << a.profiles
                   << " picks them\n";
        else
            io.out << "no K up to " << kWidthMaxProfiles << " reaches x/ " << num(target)
                   << " in half the draws\n";
    }
    const WidthAnswer all = widthAnswer(pooled, target);
    io.out << "all stacks: "
           << (all.profiles > 0 ? std::to_string(all.profiles) + " profiles"
                                : "no K up to " + std::to_string(kWidthMaxProfiles))
           << "\n";
    return 0;
}

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(argvIn);
    auto specs = workspaceOptions();
    specs.push_back({"stack", "ID", "stack to calibrate (<system>/<backend>, acsel info)"});
    specs.push_back({"output", "DIR", "folder for profiles.csv and benchmark.sh (also -o)"});
    specs.push_back({"models", "LIST", "comma-separated workspace models (default: all)"});
    specs.push_back({"profiles", "K", "profiles to measure (default 5, as LATENCY.md's Table 2)"});
    specs.push_back({"seed", "N", "seed of the stratified draw (default 1)"});
    specs.push_back({"mode", "MODE",
                     "serving model of the estimates: continuous (default, as "
                     "acsel calibrate) or static"});
    specs.push_back({"force", "", "overwrite an existing plan's files"});
    specs.push_back({"study", "FILE",
                     "instead of a plan: how FMC does on draws of 3-8 profiles (one sweep, one "
                     "concurrency, spread) of each stack of these measurements, judged on the "
                     "stack's other rows"});
    specs.push_back({"seeds", "N", "with --study: draws per stack, kind and K (default 20)"});
    specs.push_back({"line-from", "K",
                     "with --study: independent profiles from which a line is tried (default "
                     "6, as acsel calibrate)"});
    specs.push_back(
        {"level", "P", "with --study: level of the form test (default 0.975, as acsel calibrate)"});
    specs.push_back({"offset-level", "P",
                     "with --study: confidence of the offset's shift (default 0.8, as acsel "
                     "calibrate)"});
    specs.push_back({"width", "X",
                     "with --study: how many profiles (3-16, picked as this command picks "
                     "them) bring the 90 % TTFT interval to x/ X on the stack's other rows in "
                     "half the draws; with --stack too, plan that many"});
    const app::Args args(kName, argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    if (args.value("study")) {
        const std::string name = args.valueOr("mode", "continuous");
        const auto m = parseServingMode(name);
        if (!m)
            throw app::UsageError("acsel plan latency: --mode '" + name +
                                  "': expected static or continuous");
        if (!args.value("width"))
            return study(args, loadWorkspaceFromArgs(args), *m, io);
        if (!args.value("stack"))
            return widthStudy(args, loadWorkspaceFromArgs(args), *m,
                              args.number("width", 2, 1.01, 100), io);
    } else if (args.value("width")) {
        throw app::UsageError("acsel plan latency: --width needs --study FILE (the measured rows "
                              "the number of profiles is read from)");
    }
    const std::string stackId = args.require("stack");
    const std::string dir = args.require("output");
    int profiles = args.integer("profiles", 5, 1, 1000);
    const Workspace ws = loadWorkspaceFromArgs(args);
    const int seed = args.integer("seed", 1, 0, 2147483647);
    const bool force = args.flag("force");
    const std::string modeName = args.valueOr("mode", "continuous");
    const auto mode = parseServingMode(modeName);
    if (!mode)
        throw app::UsageError("acsel plan latency: --mode '" + modeName +
                              "': expected static or continuous");
    const auto s = ws.findStack(stackId);
    if (!s)
        throw app::UsageError("acsel plan latency: --stack " + stackId +
                              ": no such stack (acsel info lists them)");
    if (args.value("width")) {
        if (args.value("profiles"))
            throw app::UsageError("acsel plan latency: --width chooses the number of profiles: "
                                  "give --width or --profiles, not both");
        profiles = widthProfiles(args, ws, stackId, *mode, io);
    }
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*s)];
    std::vector<int> models;
    if (const auto list = args.value("models")) {
        std::stringstream in(*list);
        for (std::string name; std::getline(in, name, ',');) {
            const auto m = ws.findModel(name);
            if (!m)
                throw app::UsageError("acsel plan latency: --models: " + name +
                                      " is not a workspace model");
            models.push_back(*m);
        }
    } else {
        for (std::size_t m = 0; m < ws.models.size(); ++m)
            models.push_back(static_cast<int>(m));
    }

    namespace fs = std::filesystem;
    if (fs::exists(dir) && !fs::is_directory(dir))
        throw app::UsageError("acsel plan latency: --output " + dir +
                              ": exists and is not a folder (expected a folder to write into)");
    std::error_code ec;
    fs::create_directory(dir, ec);
    if (ec)
        throw app::UsageError("acsel plan latency: --output " + dir +
                              ": cannot create the folder (" + ec.message() + ")");
    const std::string csvPath = (fs::path(dir) / "profiles.csv").string();
    const std::string scriptPath = (fs::path(dir) / "benchmark.sh").string();
    checkOutputPath(kName, csvPath, force);
    checkOutputPath(kName, scriptPath, force);

    // Every candidate run: uniform full-scope configurations in every format the stack runs.
    const std::string system = stack.id.substr(0, stack.id.find('/'));
    std::vector<SiliconRow> grid;
    for (int m : models)
        for (Format f : stack.formats)
            for (int isl : kIsl)
                for (int osl : kOsl)
                    for (int c : kConcurrency) {
                        SiliconRow r;
                        const ModelArch& arch = ws.models[static_cast<std::size_t>(m)];
                        r.id = arch.name + "_" + std::string(toString(f)) + "_" +
                               std::to_string(isl) + "x" + std::to_string(osl) + "_c" +
                               std::to_string(c);
                        r.line = static_cast<int>(grid.size()) + 2;
                        r.system = system;
                        r.backend = stack.backend;
                        r.backendVersion = stack.version;
                        r.modelPath = arch.hfId;
                        r.mode = "agg";
                        r.gemmQuantMode = std::string(toString(f));
                        r.isl = isl;
                        r.osl = osl;
                        r.batch = c;
                        r.ttftMs = r.tpotMs = 1.0; // placeholders: only the estimates are used
                        grid.push_back(std::move(r));
                    }
    const SiliconPrediction p = predictSiliconRows(ws, grid, *mode);
    std::vector<const PredictedSiliconRow*> eligible;
    std::vector<double> est;
    std::vector<FmcProfileKey> keys;
    for (const PredictedSiliconRow& r : p.rows)
        if (r.stack == *s && profileExclusion(r, *mode).empty() &&
            r.memory.fits(r.memory.capacityBytes)) {
            eligible.push_back(&r);
            est.push_back(r.estimate(LatencyMetric::Ttft, *mode));
            keys.push_back({sweepKey(r.row), loadKey(r.row)});
        }
    if (eligible.empty())
        throw app::UsageError("acsel plan latency: no candidate run of " + stack.id +
                              " fits in memory and can be estimated");
    const std::vector<int> chosen =
        selectIndependent(est, keys, profiles, static_cast<std::uint64_t>(seed));

    std::string csv = "id,system,backend,backend_version,model_path,mode,isl,osl,gemm_quant_mode,"
                      "batch_size,tp_size,pp_size,silicon_ttft_ms,silicon_tpot_ms,"
                      "estimated_ttft_ms,estimated_tpot_ms\n";
    const auto backend = parseBackend(stack.backend);
    if (!backend)
        throw app::UsageError("acsel plan latency: stack " + stack.id + " runs backend '" +
                              stack.backend +
                              "', which has no command templates (known: " + backendNames() + ")");
    const BackendCommands cmds = commandsFor(*backend);
    std::string script =
        "#!/usr/bin/env bash\n"
        "# Serving benchmarks of the FMC profiles of " +
        stack.id + ", written by acsel " + std::string(kName) + " --stack " + stack.id +
        " --profiles " + std::to_string(profiles) + " --seed " + std::to_string(seed) +
        ".\n"
        "# TEMPLATES, not run by acsel: check every flag against the installed engine. The\n"
        "# operator tables of this stack are " +
        stack.backend + " " + stack.version +
        "; measure with that\n# version (another version is an assumption acsel calibrate "
        "reports).\n"
        "# For each profile: start the server, run the benchmark, copy its median TTFT and "
        "TPOT (ms)\n# into silicon_ttft_ms and silicon_tpot_ms of profiles.csv, stop the "
        "server. Then:\n#   acsel calibrate --measurements profiles.csv -o fmc.json\n"
        "# Set each CKPT_* to the checkpoint: the HF model for bf16, else the ModelOpt export "
        "of the\n# uniform configuration (acsel export --as modelopt-yaml, then hf_ptq.py "
        "--recipe).\nset -euo pipefail\n";
    std::vector<std::string> vars;
    std::vector<FmcProfileKey> pickedKeys;
    for (int i : chosen)
        pickedKeys.push_back(keys[static_cast<std::size_t>(i)]);
    io.out << "FMC profiles of " << stack.id << " (" << stack.version << "): " << chosen.size()
           << " of " << eligible.size() << " candidate runs, stratified over the raw TTFT "
           << "estimate (" << toString(*mode) << " serving model), "
           << independentProfiles(pickedKeys, pickedKeys.size()) << " independent\n";
    for (int i : chosen) {
        const PredictedSiliconRow& r = *eligible[static_cast<std::size_t>(i)];
        const ModelArch& arch = ws.models[static_cast<std::size_t>(r.config.model)];
        const Format f = r.config.recipe[0].format;
        const double ttft = r.estimate(LatencyMetric::Ttft, *mode);
        const double tpot = r.estimate(LatencyMetric::Tpot, *mode);
        csv += r.row.id + "," + r.row.system + "," + r.row.backend + "," + r.row.backendVersion +
               "," + r.row.modelPath + ",agg," + std::to_string(r.row.isl) + "," +
               std::to_string(r.row.osl) + "," + r.row.gemmQuantMode + "," +
               std::to_string(r.row.batch) + ",1,1,,," + num(ttft) + "," + num(tpot) + "\n";
        const std::string var = checkpointVar(arch, f);
        if (std::find(vars.begin(), vars.end(), var) == vars.end()) {
            vars.push_back(var);
            script += f == Format::Bf16
                          ? ": \"${" + var + ":=" + arch.hfId + "}\"\n"
                          : ": \"${" + var + ":?set " + var + " to the ModelOpt export of " +
                                arch.name + " in " + std::string(toString(f)) + "}\"\n";
        }
        script += "\n# " + r.row.id + " (estimated TTFT " + num(ttft) + " ms, TPOT " + num(tpot) +
                  " ms)\nCKPT=\"$" + var + "\" ISL=" + std::to_string(r.row.isl) +
                  " OSL=" + std::to_string(r.row.osl) + " C=" + std::to_string(r.row.batch) +
                  " QUANT_ARGS=\"" + quantArgs(*backend, f) + "\"\n" + cmds.serve +
                  " &\nSERVER=$!\nuntil curl -sf localhost:" + std::to_string(cmds.port) +
                  "/health > /dev/null; do sleep 5; done\n" + cmds.bench +
                  "\nkill \"$SERVER\"; wait \"$SERVER\" || true\n";
        io.out << "  " << std::left << std::setw(36) << r.row.id << " estimated TTFT " << num(ttft)
               << " ms, TPOT " << num(tpot) << " ms\n";
    }
    writeOutput(kName, csvPath, csv, force, io);
    writeOutput(kName, scriptPath, script, force, io);
    io.out << "wrote " << csvPath << " (fill silicon_ttft_ms and silicon_tpot_ms) and "
           << scriptPath << " (" << stack.backend << " command templates: check them)\n"
           << "then: acsel calibrate --measurements " << csvPath << " -o fmc.json\n";
    return 0;
}

const RegisterCommand reg(kName,
                          "plan the few end-to-end profiles FMC needs on a stack, with "
                          "benchmark commands and the CSV template acsel calibrate reads",
                          &run);

} // namespace
} // namespace acsel::cli
