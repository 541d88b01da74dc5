#include "core/data/tablesdir.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"
#include "core/data/systemyaml.h"

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
    CsvReader csv = CsvReader::fromFile(csvPath);
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

std::vector<fs::path> sortedSubdirs(const fs::path& p)
{
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(p))
        if (e.is_directory())
            out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// The stacks of one <system> folder, in directory order.
std::vector<DiscoveredStack> discoverSystem(const fs::path& system)
{
    std::vector<DiscoveredStack> out;
    const fs::path yaml = system / "system.yaml";
    if (!fs::exists(yaml))
        return out;
    const Platform platform = loadSystemYaml(yaml.string(), system.filename().string());
    for (const fs::path& backend : sortedSubdirs(system)) {
        for (const fs::path& version : sortedSubdirs(backend)) {
            const fs::path gemm = version / "gemm_perf.csv";
            const fs::path gen = version / "generation_attention_perf.csv";
            if (!fs::exists(gemm) || !fs::exists(gen) ||
                !fs::exists(version / "context_attention_perf.csv"))
                continue;
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
            for (const std::string& kv : distinctColumnValues(gen.string(), "kv_cache_dtype"))
                if (kv == "fp8")
                    s.kvFp8 = true;
            out.push_back(std::move(d));
        }
    }
    return out;
}

} // namespace

std::vector<DiscoveredStack> discoverStacks(const std::string& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw LoadError(dir, "",
                        "operator tables directory does not exist (expected "
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
