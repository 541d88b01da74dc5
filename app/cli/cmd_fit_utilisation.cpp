// acsel fit-utilisation: fits the empirical model's utilisation grids from measured operator
// tables (SOL from the spec-sheet platforms file) and writes them as JSON; --report adds the
// leave-one-GPU-out evaluation (fit on the other GPUs, predict the held-out GPU's entries).
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "app/common/paths.h"
#include "core/data/loaderror.h"
#include "core/data/platformsfile.h"
#include "core/data/tablesdir.h"
#include "core/latency/utilisationfit.h"

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <set>

namespace fs = std::filesystem;

namespace acsel::cli
{
namespace
{

std::string defaultPlatformsFile()
{
    const std::string ws = app::resolveWorkspacePath("");
    return ws.empty() ? std::string() : (fs::path(ws).parent_path() / "platforms.json").string();
}

std::string percent(double fraction)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << fraction * 100.0 << "%";
    return s.str();
}

void printReport(std::ostream& out, const std::vector<ApeSummary>& loo)
{
    out << "\nLeave-one-GPU-out (fit on the other GPUs, predict every table entry of the held-out "
           "GPU):\n\n| held-out GPU | op class | entries | median APE | p90 APE |\n"
           "|---|---|---:|---:|---:|\n";
    for (const ApeSummary& a : loo)
        if (a.variant.empty())
            out << "| " << a.scope << " | " << toString(a.op) << " | " << a.count << " | "
                << percent(a.medianApe) << " | " << percent(a.p90Ape) << " |\n";
    out << "\nGEMM by format:\n\n| held-out GPU | format | entries | median APE | p90 APE |\n"
           "|---|---|---:|---:|---:|\n";
    for (const ApeSummary& a : loo)
        if (a.op == OpClass::Gemm && !a.variant.empty())
            out << "| " << a.scope << " | " << a.variant << " | " << a.count << " | "
                << percent(a.medianApe) << " | " << percent(a.p90Ape) << " |\n";
}

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(argvIn);
    const app::Args args(
        "fit-utilisation", argv,
        {{"tables", "DIR", "operator tables directory (AIC layout) to fit on"},
         {"output", "FILE",
          "where to write the utilisation JSON (also -o; '-' for standard output)"},
         {"platforms", "FILE", "spec-sheet platforms file (default: datasets/platforms.json)"},
         {"sol-constant-us", "US", "per-call constant of the speed-of-light model (default 5)"},
         {"report", "", "also run the leave-one-GPU-out evaluation and print it"},
         {"force", "", "overwrite an existing output file"}});
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string tables = args.require("tables");
    const std::string output = args.require("output");
    const std::string platformsPath = args.valueOr("platforms", defaultPlatformsFile());
    if (platformsPath.empty())
        throw app::UsageError(
            "acsel fit-utilisation: no platforms file found: pass --platforms FILE");
    const double constantMs =
        args.number("sol-constant-us", kDefaultSolConstantMs * 1e3, 0, 1e4) * 1e-3;
    checkOutputPath("fit-utilisation", output, args.flag("force"));

    const auto start = std::chrono::steady_clock::now();
    const PlatformsFile platforms = loadPlatformsFile(platformsPath);
    UtilisationSamples samples;
    std::set<std::string> collectivesRead; // one NCCL table per GPU
    for (const DiscoveredStack& d : discoverStacks(tables)) {
        const std::string system = d.stack.id.substr(0, d.stack.id.find('/'));
        const PlatformSpec* spec = platforms.find(system);
        if (!spec) {
            io.err << "skip " << d.stack.id << ": GPU '" << system << "' is not in "
                   << platformsPath << "\n";
            continue;
        }
        const std::string dir = d.stack.tableDir + "/";
        samples.addStack(system, d.stack.backend, spec->platform,
                         loadGemmTable(dir + "gemm_perf.csv"),
                         loadContextAttentionTable(dir + "context_attention_perf.csv"),
                         loadGenerationAttentionTable(dir + "generation_attention_perf.csv"));
        io.err << "read " << d.stack.id << " (" << d.stack.version << ")\n";
        if (!d.stack.ncclFile.empty() && collectivesRead.insert(system).second) {
            samples.addCollectives(system, spec->platform,
                                   loadNcclAllReduceTable(d.stack.ncclFile));
            io.err << "read " << system << "/nccl_perf.csv ("
                   << toString(spec->platform.interconnect) << ")\n";
        }
    }
    if (samples.samples().empty())
        throw LoadError(tables, "", "no table of a GPU listed in the platforms file");

    UtilisationModel model = fitUtilisation(samples, constantMs);
    model.command = "acsel fit-utilisation --tables " + tables + " -o " + output +
                    (args.flag("report") ? " --report" : "");
    model.inSample = evaluateUtilisation(model, samples, -1, true);
    if (args.flag("report"))
        model.leaveOneGpuOut = leaveOneGpuOut(samples, constantMs);
    writeOutput("fit-utilisation", output, utilisationToText(model), args.flag("force"), io);

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostream& out = summaryStream(output, io);
    out << "fitted " << model.grids.size() << " grids (" << model.parameterCount()
        << " parameters) on " << samples.samples().size() << " table entries of "
        << samples.stacks().size() << " stacks in " << std::fixed << std::setprecision(1) << seconds
        << " s; wrote " << (isStandardOutput(output) ? "standard output" : output)
        << "\n\nIn-sample (fitted on every GPU):\n\n"
        << "| GPU | op class | entries | median APE | p90 APE |\n|---|---|---:|---:|---:|\n";
    for (const ApeSummary& a : model.inSample)
        if (a.variant.empty() && a.scope.find('/') == std::string::npos)
            out << "| " << a.scope << " | " << toString(a.op) << " | " << a.count << " | "
                << percent(a.medianApe) << " | " << percent(a.p90Ape) << " |\n";
    if (args.flag("report"))
        printReport(out, model.leaveOneGpuOut);
    return 0;
}

const RegisterCommand reg("fit-utilisation",
                          "fit the empirical model's utilisation from measured operator tables",
                          &run);

} // namespace
} // namespace acsel::cli
