#include "core/data/tablesdir.h"

#include "core/data/csvreader.h"
#include "core/data/inputfile.h"
#include "core/data/loaderror.h"
#include "core/data/systemyaml.h"
#include "core/model/backend.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <thread>

namespace fs = std::filesystem;

namespace acsel
{

namespace
{

// The line's field at `col` when the line is a plain row of `fields` fields (no double quote);
// nullopt otherwise. No loop over fields past `col`: the tables are 96 MB.
std::optional<std::string_view> plainField(std::string_view line, std::size_t fields,
                                           std::size_t col)
{
    if (std::memchr(line.data(), '"', line.size()) != nullptr ||
        static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1 != fields)
        return std::nullopt;
    std::size_t start = 0;
    for (std::size_t i = 0; i < col; ++i)
        start = line.find(',', start) + 1;
    return line.substr(start, line.find(',', start) - start);
}

// distinctColumnValues on a file of plain rows, read in blocks: nullopt as soon as anything is
// not plain (a quote, a field count off, a header without the column, a file too large) for
// CsvReader to read and name the error.
std::optional<std::vector<std::string>> plainDistinctValues(const std::string& path,
                                                            const std::string& column)
{
    requireRegularFile(path); // never opens a FIFO
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec || size > kOperatorTableLimit.maxBytes)
        return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::vector<std::string> values;
    std::size_t fields = 0, col = 0;
    bool header = true;
    const auto take = [&](std::string_view line) {
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            return true;
        if (header) {
            header = false;
            // CsvReader's own header rules; a header it refuses is read again by it, whole.
            try {
                const CsvReader names = CsvReader::fromString(std::string(line), path);
                const std::optional<int> at = names.column(column);
                if (!at)
                    return false;
                fields = names.header().size();
                col = static_cast<std::size_t>(*at);
                return true;
            } catch (const LoadError&) {
                return false;
            }
        }
        const std::optional<std::string_view> v = plainField(line, fields, col);
        if (!v)
            return false;
        if ((values.empty() || values.back() != *v) &&
            std::find(values.begin(), values.end(), *v) == values.end())
            values.emplace_back(*v);
        return true;
    };
    // Blocks below malloc's mmap threshold: the same memory serves every file, no page faults.
    constexpr std::size_t kBlock = std::size_t{64} << 10;
    std::vector<char> buffer(kBlock);
    std::size_t held = 0; // bytes of a line begun in the previous block, at the front
    while (in) {
        if (held == buffer.size())
            return std::nullopt; // a line longer than a block
        in.read(buffer.data() + held, static_cast<std::streamsize>(buffer.size() - held));
        const std::size_t filled = held + static_cast<std::size_t>(in.gcount());
        std::size_t start = 0;
        for (const char* eol; (eol = static_cast<const char*>(std::memchr(
                                   buffer.data() + start, '\n', filled - start))) != nullptr;) {
            const auto end = static_cast<std::size_t>(eol - buffer.data());
            if (!take(std::string_view(buffer.data() + start, end - start)))
                return std::nullopt;
            start = end + 1;
        }
        held = filled - start;
        std::memmove(buffer.data(), buffer.data() + start, held);
    }
    if (in.bad() || !take(std::string_view(buffer.data(), held)) || header)
        return std::nullopt;
    return values;
}

} // namespace

std::vector<std::string> distinctColumnValues(const std::string& csvPath, const std::string& column)
{
    if (auto values = plainDistinctValues(csvPath, column))
        return std::move(*values);
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
