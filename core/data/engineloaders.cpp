#include "core/data/engineloaders.h"

#include "core/data/jsonfields.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

constexpr std::array<std::string_view, kGpuGenerationCount> kGenerationNames = {
    "ampere", "ada", "hopper", "blackwell"};

// "1.3.0rc20" -> numbers {1, 3, 0} and the suffix "rc20".
struct ReleaseParts {
    std::vector<long> numbers;
    std::string suffix;
};

ReleaseParts splitRelease(std::string_view r)
{
    ReleaseParts p;
    std::size_t i = 0;
    while (i < r.size() && std::isdigit(static_cast<unsigned char>(r[i]))) {
        long n = 0;
        while (i < r.size() && std::isdigit(static_cast<unsigned char>(r[i])))
            n = n * 10 + (r[i++] - '0');
        p.numbers.push_back(n);
        if (i < r.size() && r[i] == '.')
            ++i;
    }
    p.suffix = std::string(r.substr(i));
    return p;
}

// The number in a pre-release suffix ("rc20" -> 20; 0 without one).
long suffixNumber(const std::string& suffix)
{
    const std::size_t at = suffix.find_first_of("0123456789");
    if (at == std::string::npos)
        return 0;
    const ReleaseParts p = splitRelease(std::string_view(suffix).substr(at));
    return p.numbers.empty() ? 0 : p.numbers.front();
}

// "uncertain" entries of a generation list end in '?'.
std::pair<std::string, Support> listItem(const std::string& s)
{
    if (!s.empty() && s.back() == '?')
        return {s.substr(0, s.size() - 1), Support::Uncertain};
    return {s, Support::Yes};
}

LoaderEntry parseEntry(const JsonFields& f, const Json& e, const std::string& ptr)
{
    f.onlyKeys(e, ptr,
               {"engine", "release", "mixed_precision", "weight_formats", "kv_formats", "note",
                "sources"});
    LoaderEntry out;
    out.file = f.file();
    const std::string engine = f.string(e, "engine", ptr);
    const auto b = parseBackend(engine);
    if (!b)
        f.fail(ptr + "/engine",
               "unknown engine '" + engine + "' (expected " + backendNames() + ")");
    out.engine = *b;
    out.release = f.string(e, "release", ptr);
    if (splitRelease(out.release).numbers.empty())
        f.fail(ptr + "/release", "expected a release like 0.17.1, not '" + out.release + "'");
    const std::string mixed = f.string(e, "mixed_precision", ptr);
    if (mixed == "yes")
        out.mixedPrecision = Support::Yes;
    else if (mixed == "uncertain")
        out.mixedPrecision = Support::Uncertain;
    else if (mixed != "no")
        f.fail(ptr + "/mixed_precision", "expected yes, no or uncertain, not '" + mixed + "'");

    const Json& formats = f.object(e, "weight_formats", ptr);
    for (auto it = formats.begin(); it != formats.end(); ++it) {
        const std::string fptr = ptr + "/weight_formats/" + it.key();
        const auto format = parseFormat(it.key());
        if (!format || *format == Format::Bf16)
            f.fail(fptr, "unknown quantized weight format '" + it.key() + "'");
        if (!it.value().is_array())
            f.fail(fptr, "expected a list of GPU generations (ampere, ada, hopper, blackwell)");
        std::array<Support, kGpuGenerationCount> by{};
        for (std::size_t i = 0; i < it.value().size(); ++i) {
            const Json& g = it.value()[i];
            const std::string gptr = fptr + "/" + std::to_string(i);
            if (!g.is_string())
                f.fail(gptr, "expected a GPU generation name");
            const auto [name, support] = listItem(g.get<std::string>());
            const auto at = std::find(kGenerationNames.begin(), kGenerationNames.end(), name);
            if (at == kGenerationNames.end())
                f.fail(gptr, "unknown GPU generation '" + name +
                                 "' (expected ampere, ada, hopper or blackwell, '?' appended "
                                 "when uncertain)");
            by[static_cast<std::size_t>(at - kGenerationNames.begin())] = support;
        }
        out.weightFormats.emplace_back(*format, by);
    }
    const Json& kv = f.array(e, "kv_formats", ptr);
    for (std::size_t i = 0; i < kv.size(); ++i) {
        const std::string kptr = ptr + "/kv_formats/" + std::to_string(i);
        if (!kv[i].is_string())
            f.fail(kptr, "expected a KV format name (bf16 or fp8)");
        const auto [name, support] = listItem(kv[i].get<std::string>());
        const auto k = parseKvFormat(name);
        if (!k)
            f.fail(kptr, "unknown KV format '" + name + "' (expected bf16 or fp8)");
        out.kvFormats[static_cast<std::size_t>(*k)] = support;
    }
    out.note = f.stringOr(e, "note", ptr, "");
    const Json& sources = f.array(e, "sources", ptr);
    if (sources.empty())
        f.fail(ptr + "/sources", "expected at least one source (a URL) for the entry");
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (!sources[i].is_string() || sources[i].get<std::string>().empty())
            f.fail(ptr + "/sources/" + std::to_string(i), "expected a source URL");
        out.sources.push_back(sources[i].get<std::string>());
    }
    return out;
}

bool before(const LoaderEntry& a, const LoaderEntry& b)
{
    if (a.engine != b.engine)
        return a.engine < b.engine;
    return compareReleases(a.release, b.release) < 0;
}

} // namespace

std::string_view toString(GpuGeneration g)
{
    return kGenerationNames[static_cast<std::size_t>(g)];
}

std::optional<GpuGeneration> generationOf(int sm)
{
    if (sm >= 100)
        return GpuGeneration::Blackwell;
    if (sm >= 90)
        return GpuGeneration::Hopper;
    if (sm == 89)
        return GpuGeneration::Ada;
    if (sm >= 80)
        return GpuGeneration::Ampere;
    return std::nullopt;
}

Support LoaderEntry::weights(Format f, GpuGeneration g) const
{
    for (const auto& [format, by] : weightFormats)
        if (format == f)
            return by[static_cast<std::size_t>(g)];
    return Support::No;
}

int compareReleases(std::string_view a, std::string_view b)
{
    const ReleaseParts pa = splitRelease(a);
    const ReleaseParts pb = splitRelease(b);
    const std::size_t n = std::max(pa.numbers.size(), pb.numbers.size());
    for (std::size_t i = 0; i < n; ++i) {
        const long x = i < pa.numbers.size() ? pa.numbers[i] : 0;
        const long y = i < pb.numbers.size() ? pb.numbers[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    if (pa.suffix == pb.suffix)
        return 0;
    // "1.3.0rc20" before "1.3.0" before "1.3.0.post1"
    const auto rank = [](const std::string& s) {
        return s.empty() ? 1 : s.starts_with("post") ? 2 : 0;
    };
    if (rank(pa.suffix) != rank(pb.suffix))
        return rank(pa.suffix) < rank(pb.suffix) ? -1 : 1;
    const long x = suffixNumber(pa.suffix);
    const long y = suffixNumber(pb.suffix);
    if (x != y)
        return x < y ? -1 : 1;
    return pa.suffix < pb.suffix ? -1 : 1;
}

const LoaderEntry* LoaderTable::find(Backend engine, std::string_view release) const
{
    const LoaderEntry* best = nullptr;
    for (const LoaderEntry& e : entries)
        if (e.engine == engine && compareReleases(e.release, release) <= 0 &&
            (!best || compareReleases(best->release, e.release) < 0))
            best = &e;
    return best;
}

std::vector<const LoaderEntry*> LoaderTable::newer(Backend engine, std::string_view release) const
{
    std::vector<const LoaderEntry*> out;
    for (const LoaderEntry& e : entries)
        if (e.engine == engine && compareReleases(e.release, release) > 0)
            out.push_back(&e);
    std::sort(out.begin(), out.end(),
              [](const LoaderEntry* a, const LoaderEntry* b) { return before(*a, *b); });
    return out;
}

void LoaderTable::extend(const LoaderTable& more)
{
    for (const LoaderEntry& e : more.entries) {
        const auto same = std::find_if(entries.begin(), entries.end(), [&](const LoaderEntry& x) {
            return x.engine == e.engine && compareReleases(x.release, e.release) == 0;
        });
        if (same != entries.end())
            *same = e;
        else
            entries.push_back(e);
    }
    std::sort(entries.begin(), entries.end(), before);
}

LoaderTable loadLoaderTable(const std::string& path)
{
    const Json j = parseJsonFile(path);
    const JsonFields f(path);
    const Json& entries = f.entryTable(j, kEngineLoadersSchemaVersion);
    LoaderTable out;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string ptr = "/entries/" + std::to_string(i);
        if (!entries[i].is_object())
            f.fail(ptr, "expected an object");
        LoaderEntry e = parseEntry(f, entries[i], ptr);
        for (const LoaderEntry& prior : out.entries)
            if (prior.engine == e.engine && compareReleases(prior.release, e.release) == 0)
                f.fail(ptr + "/release",
                       "a second entry for " + std::string(toString(e.engine)) + " " + e.release);
        out.entries.push_back(std::move(e));
    }
    std::sort(out.entries.begin(), out.entries.end(), before);
    return out;
}

} // namespace acsel
