// acsel report latency: the paper's Table 2 on real end-to-end measurements. Per stack, K
// profiles are drawn (stratified over log raw TTFT) and the other rows held out; the MdAPE of
// raw, FMC, FMC-MSE and LR on the held-out rows is averaged over seeds.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "core/data/jsonfields.h"
#include "core/latency/siliconstudy.h"

#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

Json toJson(const MethodMdape& m)
{
    return {{"raw", m.raw}, {"fmc", m.fmc}, {"fmc_mse", m.fmcMse}, {"lr", m.lr}};
}

std::string cells(const MethodMdape& m)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << m.raw << " | " << m.fmc << " | " << m.fmcMse << " | "
      << m.lr;
    return s.str();
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"measurements", "FILE", "end-to-end measurements (AIC silicon CSV format)"});
    specs.push_back({"profiles", "K", "profiles per stack used for fitting (default 5)"});
    specs.push_back({"seeds", "N", "profile draws averaged (default 3)"});
    specs.push_back({"tau", "Q", "FMC quantile (default 0.5)"});
    specs.push_back({"json", "", "print JSON instead of a markdown table"});
    const app::Args args("report latency", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string measurements = args.require("measurements");
    const int k = args.integer("profiles", 5, 1, 1000);
    const int seeds = args.integer("seeds", 3, 1, 1000);
    const double tau = args.number("tau", 0.5, 0.01, 0.99);
    const Workspace ws = loadWorkspaceFromArgs(args);
    const SiliconPrediction p = predictSiliconRows(ws, loadSiliconCsv(measurements));
    const LatencyStudy st = runLatencyStudy(p, ws, k, seeds, tau);

    std::map<std::string, int> rowsPerStack;
    for (const PredictedSiliconRow& r : p.rows)
        ++rowsPerStack[ws.stacks[static_cast<std::size_t>(r.stack)].id];
    if (args.flag("json")) {
        Json j{{"measurements", measurements}, {"profiles", k}, {"seeds", seeds}, {"tau", tau}};
        j["stacks"] = Json::array();
        for (const StackStudy& s : st.stacks)
            j["stacks"].push_back({{"stack", s.stack},
                                   {"rows", s.rows},
                                   {"ttft_mdape", toJson(s.ttft)},
                                   {"tpot_mdape", toJson(s.tpot)}});
        j["mean_ttft_mdape"] = toJson(st.meanTtft);
        j["mean_tpot_mdape"] = toJson(st.meanTpot);
        j["rows_per_stack"] = rowsPerStack;
        j["excluded_stacks"] = Json::array();
        for (const auto& [stack, reason] : st.excludedStacks)
            j["excluded_stacks"].push_back({{"stack", stack}, {"reason", reason}});
        j["skipped_rows"] = Json::array();
        for (const SkippedSiliconRow& s : p.skipped)
            j["skipped_rows"].push_back({{"id", s.row.id}, {"reason", s.reason}});
        j["assumptions"] = p.assumptions;
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "Latency surrogate accuracy, MdAPE (%) on held-out rows; " << k
           << " profiles per stack, mean over " << seeds << " seeds, FMC tau " << tau << "\n\n"
           << "| stack | rows | TTFT raw | TTFT FMC | TTFT FMC-MSE | TTFT LR | TPOT raw | TPOT FMC "
              "| TPOT FMC-MSE | TPOT LR |\n"
           << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const StackStudy& s : st.stacks)
        io.out << "| " << s.stack << " | " << s.rows << " | " << cells(s.ttft) << " | "
               << cells(s.tpot) << " |\n";
    io.out << "| mean of " << st.stacks.size() << " stacks | | " << cells(st.meanTtft) << " | "
           << cells(st.meanTpot) << " |\n\n";
    io.out << "rows per stack:";
    for (const auto& [stack, n] : rowsPerStack)
        io.out << " " << stack << " " << n << ";";
    io.out << "\n";
    for (const auto& [stack, reason] : st.excludedStacks)
        io.out << "excluded stack " << stack << ": " << reason << "\n";
    for (const SkippedSiliconRow& s : p.skipped)
        io.out << "excluded row " << s.row.id << " (line " << s.row.line << "): " << s.reason
               << "\n";
    for (const std::string& a : p.assumptions)
        io.out << "assumed: " << a << "\n";
    return 0;
}

const RegisterCommand reg("report latency",
                          "Table 2: raw / FMC / FMC-MSE / LR latency MdAPE per stack", &run);

} // namespace
} // namespace acsel::cli
