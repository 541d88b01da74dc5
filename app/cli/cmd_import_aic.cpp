// acsel import-aic: converts an AIConfigurator checkout's or installation's Parquet operator
// tables into the tables folder acsel reads (docs/DATA.md 1): <system>/system.yaml verbatim and
// <system>/<backend>/<version>/{gemm,context_attention,generation_attention}_perf.csv, the
// newest version of each backend. The Parquet files are read by a small Node script on npm's
// hyparquet (no Parquet reader is packaged for Debian 12); the folder appears whole or not at
// all (written beside it, then renamed), and only after every converted table has loaded as a
// search would load it.
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "core/data/loaderror.h"
#include "core/data/tablesdir.h"
#include "core/latency/tablescheck.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <ostream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace acsel::cli
{
namespace
{

namespace fs = std::filesystem;

struct Table {
    const char* op;   // folder under data/<system>/
    const char* name; // file name without extension
};
constexpr Table kTables[] = {{"gemm", "gemm_perf"},
                             {"attention", "context_attention_perf"},
                             {"attention", "generation_attention_perf"}};

// Where the systems folder is: the checkout's aic-core/src/aiconfigurator_core/systems, an
// installed package's aiconfigurator_core/systems, or the folder itself.
std::optional<fs::path> systemsDir(const fs::path& aic)
{
    for (const fs::path& c : {aic / "aic-core/src/aiconfigurator_core/systems",
                              aic / "aiconfigurator_core/systems", aic / "systems", aic})
        if (fs::is_directory(c / "data"))
            return c;
    return std::nullopt;
}

// Version order as release numbers read: numeric runs compared as numbers; a pre-release tag
// (rc, a, b, dev) sorts before the release it precedes ("1.0.0rc3" < "1.0.0" < "1.0.0.post1").
std::vector<std::string> versionTokens(const std::string& v)
{
    std::vector<std::string> t;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        const bool digit = std::isdigit(static_cast<unsigned char>(v[i]));
        while (j < v.size() && std::isdigit(static_cast<unsigned char>(v[j])) == digit)
            ++j;
        if (v.substr(i, j - i) != ".")
            t.push_back(v.substr(i, j - i));
        i = j;
    }
    return t;
}

bool preRelease(const std::string& token)
{
    for (const char* tag : {"rc", "a", "b", "dev", "alpha", "beta"})
        if (token == tag)
            return true;
    return false;
}

bool olderVersion(const std::string& a, const std::string& b)
{
    const auto ta = versionTokens(a), tb = versionTokens(b);
    for (std::size_t i = 0; i < std::max(ta.size(), tb.size()); ++i) {
        if (i == ta.size())
            return !preRelease(tb[i]);
        if (i == tb.size())
            return preRelease(ta[i]);
        const bool da = std::isdigit(static_cast<unsigned char>(ta[i][0]));
        const bool db = std::isdigit(static_cast<unsigned char>(tb[i][0]));
        if (da && db && ta[i] != tb[i])
            return std::stoull(ta[i]) < std::stoull(tb[i]);
        if (da != db)
            return !da; // "1.0rc1" < "1.0.1": a tag before a number
        if (ta[i] != tb[i])
            return ta[i] < tb[i];
    }
    return false;
}

std::vector<fs::path> subdirs(const fs::path& p)
{
    std::vector<fs::path> out;
    if (fs::is_directory(p))
        for (const auto& e : fs::directory_iterator(p))
            if (e.is_directory())
                out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

bool hasAllTables(const fs::path& data, const std::string& backend, const std::string& version)
{
    return std::all_of(std::begin(kTables), std::end(kTables), [&](const Table& t) {
        return fs::is_regular_file(data / t.op / backend / version /
                                   (std::string(t.name) + ".parquet"));
    });
}

// Runs node on the converter; its own messages go to our stderr. Returns its exit status.
int runNode(const fs::path& script, const fs::path& in, const fs::path& out)
{
    const std::string s = script.string(), i = in.string(), o = out.string();
    std::vector<char*> argv = {const_cast<char*>("node"), const_cast<char*>(s.c_str()),
                               const_cast<char*>(i.c_str()), const_cast<char*>(o.c_str()), nullptr};
    pid_t pid = 0;
    if (posix_spawnp(&pid, "node", nullptr, nullptr, argv.data(), environ) != 0)
        return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

// Loads every converted stack as a search would; a table it would refuse is refused now, the
// error naming the source the file was converted from (a CSV line is the header plus the
// Parquet record number).
void checkConverted(const fs::path& partial, const std::map<fs::path, fs::path>& sourceOf)
{
    try {
        const std::vector<DiscoveredStack> found = discoverStacks(partial.string());
        std::vector<TableStack> stacks;
        for (const DiscoveredStack& d : found)
            stacks.push_back({&d.stack, &d.platform});
        checkStackTables(stacks);
    } catch (const LoadError& e) {
        fs::remove_all(partial);
        const auto source = sourceOf.find(fs::path(e.file()));
        if (source == sourceOf.end())
            throw;
        throw LoadError(source->second.string(),
                        "converted to CSV" + (e.where().empty() ? "" : ", " + e.where()),
                        e.message());
    }
}

// Data rows of a written CSV (lines after the header).
long csvRows(const fs::path& csv)
{
    std::ifstream in(csv, std::ios::binary);
    const long lines =
        std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n');
    return lines > 0 ? lines - 1 : 0;
}

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(argvIn);
    const std::vector<app::OptionSpec> specs = {
        {"output", "DIR", "tables folder to write (also -o); must not exist or be empty"},
        {"force", "", "replace an existing tables folder"}};
    const app::Args args("import-aic", argv, specs, 1);
    if (args.helpRequested()) {
        io.out << "usage: acsel import-aic [options] AIC_DIR\n"
                  "  AIC_DIR                    an AIConfigurator checkout or installed "
                  "aiconfigurator_core (holding systems/data)\n"
               << args.usage().substr(args.usage().find('\n') + 1);
        return 0;
    }
    if (args.positional().empty())
        throw app::UsageError("acsel import-aic: missing AIC_DIR (a checkout of "
                              "ai-dynamo/aiconfigurator or an installed aiconfigurator_core)");
    const fs::path aic = args.positional()[0];
    const fs::path out = args.require("output");
    const auto systems = systemsDir(aic);
    if (!systems)
        throw LoadError(aic.string(), "",
                        "not an AIConfigurator tree: expected "
                        "aic-core/src/aiconfigurator_core/systems/data (a checkout) or "
                        "aiconfigurator_core/systems/data (an installation)");
    if (fs::exists(out) && !(fs::is_directory(out) && fs::is_empty(out)) && !args.flag("force"))
        throw app::UsageError("acsel import-aic: " + out.string() +
                              " exists and is not empty; pass --force to replace it");
    const fs::path tool = ACSEL_IMPORT_AIC_DIR;
    if (!fs::exists(tool / "node_modules/hyparquet/package.json") ||
        !fs::exists(tool / "node_modules/hyparquet-compressors/package.json"))
        throw app::UsageError("acsel import-aic: the Parquet reader is not installed: run "
                              "`npm install --prefix " +
                              tool.string() + "` (bash packaging/setup.sh does it)");

    const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
    if (!fs::is_directory(parent))
        throw app::UsageError("acsel import-aic: folder " + parent.string() + " does not exist");
    const fs::path partial = parent / ("." + out.filename().string() + ".partial");
    fs::remove_all(partial);
    fs::create_directories(partial);
    int stacks = 0, gpus = 0;
    std::map<fs::path, fs::path> sourceOf; // converted file -> what it was converted from
    for (const fs::path& yaml : [&] {
             std::vector<fs::path> v;
             for (const auto& e : fs::directory_iterator(*systems))
                 if (e.path().extension() == ".yaml")
                     v.push_back(e.path());
             std::sort(v.begin(), v.end());
             return v;
         }()) {
        const std::string system = yaml.stem().string();
        const fs::path data = *systems / "data" / system;
        int converted = 0;
        for (const fs::path& backendDir : subdirs(data / "gemm")) {
            const std::string backend = backendDir.filename().string();
            std::string newest;
            for (const fs::path& v : subdirs(backendDir)) {
                const std::string version = v.filename().string();
                if (hasAllTables(data, backend, version) &&
                    (newest.empty() || olderVersion(newest, version)))
                    newest = version;
            }
            if (newest.empty())
                continue;
            const fs::path dest = partial / system / backend / newest;
            fs::create_directories(dest);
            io.out << "read " << system << "/" << backend << " " << newest << ":";
            for (const Table& t : kTables) {
                const fs::path in =
                    data / t.op / backend / newest / (std::string(t.name) + ".parquet");
                const fs::path csv = dest / (std::string(t.name) + ".csv");
                if (runNode(tool / "parquet_to_csv.mjs", in, csv) != 0) {
                    fs::remove_all(partial);
                    throw LoadError(in.string(), "",
                                    "could not be converted (node's message is above; expected "
                                    "an AIConfigurator Parquet table, and node on PATH)");
                }
                sourceOf[csv] = in;
                io.out << " " << t.name << " " << csvRows(csv) << " rows";
            }
            io.out << "\n";
            ++converted;
        }
        if (converted > 0) {
            fs::copy_file(yaml, partial / system / "system.yaml");
            sourceOf[partial / system / "system.yaml"] = yaml;
            stacks += converted;
            ++gpus;
        }
    }
    if (stacks == 0) {
        fs::remove_all(partial);
        throw LoadError(systems->string(), "",
                        "no (system, backend, version) with all three tables "
                        "(gemm_perf, context_attention_perf, generation_attention_perf .parquet)");
    }
    checkConverted(partial, sourceOf);
    if (fs::exists(out))
        fs::remove_all(out);
    fs::rename(partial, out);
    io.out << "wrote " << out.string() << ": " << stacks << " stacks of " << gpus
           << " GPUs (acsel info --tables " << out.string() << " lists them)\n";
    return 0;
}

const RegisterCommand reg("import-aic",
                          "convert an AIConfigurator tree's Parquet operator tables to the "
                          "tables folder acsel reads",
                          &run);

} // namespace
} // namespace acsel::cli
