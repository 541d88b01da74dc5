#include "core/data/tablesdir.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"
#include "core/data/systemyaml.h"
#include "core/model/backend.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;

namespace acsel
{

std::vector<std::string> distinctColumnValues(const std::string& csvPath, const std::string& column)
{
    CsvReader csv = CsvReader::fromFile(csvPath, kOperatorTableLimit);
    const int col = csv.requireColumn(column);
    std::vector<std::string> values;
    while (csv.next()) {
        const std::string_view v = csv.field(col);
        if (values.empty() || values.back() != v) {
            if (std::find(values.begin(), values.end(), v) == values.end())
                values.emplace_back(v);
        }
    }
    return values;
}

namespace
{

// Whether p exists (through symlinks); an error other than "not found" (a symlink loop, a
// folder that cannot be read) is a LoadError naming p, never a std::filesystem exception.
fs::file_status statusOf(const fs::path& p)
{
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec && st.type() != fs::file_type::not_found)
        throw LoadError(p.string(), "", "cannot read (" + ec.message() + ")");
    return st;
}

bool present(const fs::path& p)
{
    return fs::exists(statusOf(p));
}

std::vector<fs::path> sortedSubdirs(const fs::path& p)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec))
        if (fs::is_directory(statusOf(it->path())))
            out.push_back(it->path());
    if (ec)
        throw LoadError(p.string(), "", "cannot list the folder (" + ec.message() + ")");
    std::sort(out.begin(), out.end());
    return out;
}

// Whether a <system>/<backend>/<version> folder has the tables a stack needs.
bool stackTablesIn(const fs::path& version)
{
    return present(version / "gemm_perf.csv") &&
           present(version / "generation_attention_perf.csv") &&
           present(version / "context_attention_perf.csv");
}

// The stacks of one <system> folder, in directory order.
std::vector<DiscoveredStack> discoverSystem(const fs::path& system)
{
    std::vector<DiscoveredStack> out;
    const fs::path yaml = system / "system.yaml";
    if (!present(yaml))
        return out;
    const Platform platform = loadSystemYaml(yaml.string(), system.filename().string());
    for (const fs::path& backend : sortedSubdirs(system)) {
        for (const fs::path& version : sortedSubdirs(backend)) {
            const fs::path gemm = version / "gemm_perf.csv";
            const fs::path gen = version / "generation_attention_perf.csv";
            if (!stackTablesIn(version))
                continue;
            // A stack's backend decides its serving and launch model: an unknown one would be
            // served by guesses.
            if (!parseBackend(backend.filename().string()))
                throw LoadError(backend.string(), "",
                                "not a backend folder (expected one of " + backendNames() + ")");
            DiscoveredStack d{platform, {}};
            Stack& s = d.stack;
            s.id = system.filename().string() + "/" + backend.filename().string();
            s.backend = backend.filename().string();
            s.version = version.filename().string();
            s.tableDir = version.string();
            s.source = LatencySource::Tables;
            for (const std::string& dtype : distinctColumnValues(gemm.string(), "gemm_dtype"))
                if (auto f = parseFormat(dtype))
                    s.formats.push_back(*f);
            std::sort(s.formats.begin(), s.formats.end());
            // Checked here, not at the first search: a header-only table or one of unknown
            // dtypes would otherwise end as "no configuration passes the gate".
            if (s.formats.empty())
                throw LoadError(gemm.string(), "column 'gemm_dtype'",
                                "no row has a modelled gemm_dtype (expected rows of " +
                                    formatChoices() + ")");
            if (present(version / "custom_allreduce_perf.csv"))
                s.allReduceFile = (version / "custom_allreduce_perf.csv").string();
            if (present(version / "moe_perf.csv"))
                s.moeFile = (version / "moe_perf.csv").string();
            if (present(system / "nccl_perf.csv"))
                s.ncclFile = (system / "nccl_perf.csv").string();
            for (const std::string& kv : distinctColumnValues(gen.string(), "kv_cache_dtype"))
                if (kv == "fp8")
                    s.kvFp8 = true;
            out.push_back(std::move(d));
        }
    }
    return out;
}

} // namespace

bool holdsStacks(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return false;
    for (const fs::path& system : sortedSubdirs(dir)) {
        if (!present(system / "system.yaml"))
            continue;
        for (const fs::path& backend : sortedSubdirs(system))
            for (const fs::path& version : sortedSubdirs(backend))
                if (stackTablesIn(version))
                    return true;
    }
    return false;
}

std::vector<DiscoveredStack> discoverStacks(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw LoadError(dir, "",
                        std::string("operator tables directory ") +
                            (fs::exists(dir, ec) ? "is not a folder" : "does not exist") +
                            " (expected "
                            "<dir>/<system>/system.yaml and <system>/<backend>/<version>/*.csv)");
    // The formats come from scanning every GEMM and attention table (about 100 MB in
    // ../shared/aic), the slowest part of opening a workspace: the systems are read in
    // parallel; results and the first error are taken in directory order, as one by one.
    const std::vector<fs::path> systems = sortedSubdirs(dir);
    std::vector<std::vector<DiscoveredStack>> found(systems.size());
    std::vector<std::exception_ptr> errors(systems.size());
    std::atomic<std::size_t> next{0};
    auto drain = [&] {
        for (std::size_t i = next++; i < systems.size(); i = next++) {
            try {
                found[i] = discoverSystem(systems[i]);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < std::thread::hardware_concurrency(); ++t)
            pool.emplace_back(drain);
        drain();
    }
    std::vector<DiscoveredStack> out;
    for (std::size_t i = 0; i < systems.size(); ++i) {
        if (errors[i])
            std::rethrow_exception(errors[i]);
        for (DiscoveredStack& d : found[i])
            out.push_back(std::move(d));
    }
    if (out.empty())
        throw LoadError(dir, "",
                        "no operator tables found (expected <system>/system.yaml and "
                        "<system>/<backend>/<version>/gemm_perf.csv)");
    return out;
}

} // namespace acsel
