#include "core/export/loadcheck.h"

#include "core/export/quantplan.h"

#include <algorithm>
#include <functional>

namespace acsel
{
namespace
{

std::string sourcesOf(const LoaderEntry& e)
{
    std::string out;
    for (const std::string& s : e.sources)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

// What a newer release does with the failing item: the first that loads it (and an older one
// that may), else the first that may, else none.
std::string fixedIn(const LoaderTable& table, const LoaderEntry& entry,
                    const std::function<Support(const LoaderEntry&)>& support)
{
    const std::string engine(toString(entry.engine));
    const LoaderEntry* maybe = nullptr;
    for (const LoaderEntry* e : table.newer(entry.engine, entry.release)) {
        const Support s = support(*e);
        if (s == Support::Yes)
            return "; " + engine + " " + e->release + " loads it (sources: " + sourcesOf(*e) + ")" +
                   (maybe ? "; " + engine + " " + maybe->release + " may (UNCERTAIN)" : "");
        if (s == Support::Uncertain && !maybe)
            maybe = e;
    }
    if (maybe)
        return "; " + engine + " " + maybe->release +
               " may (UNCERTAIN; sources: " + sourcesOf(*maybe) + ")";
    return "; no newer " + engine + " release in the load-compatibility table loads it";
}

} // namespace

bool LoadCheck::refused() const
{
    return std::any_of(findings.begin(), findings.end(),
                       [](const LoadFinding& f) { return f.refused; });
}

std::string LoadCheck::refusals() const
{
    std::string out;
    for (const LoadFinding& f : findings)
        if (f.refused)
            out += (out.empty() ? "" : "\n") + f.message;
    return out;
}

LoadCheck checkLoad(const LoaderTable& table, Backend engine, std::string_view release,
                    const ExportInput& in, const Platform& gpu)
{
    LoadCheck out;
    out.release = std::string(release);
    out.entry = table.find(engine, release);
    if (!out.entry)
        return out;
    const LoaderEntry& entry = *out.entry;
    const std::string name = std::string(toString(engine)) + " " + out.release;
    const std::string asOf = entry.release == out.release
                                 ? std::string()
                                 : " (as of its table entry " + entry.release + ")";
    const auto report = [&](Support s, const std::string& what,
                            const std::function<Support(const LoaderEntry&)>& support) {
        if (s == Support::Yes)
            return;
        LoadFinding f;
        f.refused = s == Support::No;
        f.message = f.refused
                        ? name + asOf + " does not load " + what + fixedIn(table, entry, support)
                        : "UNCERTAIN whether " + name + asOf + " loads " + what +
                              " (sources: " + sourcesOf(entry) + ")";
        out.findings.push_back(std::move(f));
    };

    const QuantPlan plan = planOf(in.config, in.arch.layers);
    const std::vector<Format> formats = quantizedFormats(plan);
    if (formats.size() > 1)
        report(entry.mixedPrecision,
               "a checkpoint with several weight formats (quant_algo MIXED_PRECISION)",
               [](const LoaderEntry& e) { return e.mixedPrecision; });
    const auto generation = generationOf(gpu.smVersion);
    for (Format f : formats) {
        const std::string what = std::string(toString(f)) + " weights on " + gpu.id;
        if (!generation) {
            report(Support::No,
                   what + " (SM " + std::to_string(gpu.smVersion) + ", older than Ampere)",
                   [](const LoaderEntry&) { return Support::No; });
            continue;
        }
        const GpuGeneration g = *generation;
        report(entry.weights(f, g), what + " (" + std::string(toString(g)) + ")",
               [f, g](const LoaderEntry& e) { return e.weights(f, g); });
    }
    const KvFormat kv = plan.kv;
    report(entry.kv(kv), std::string(toString(kv)) + " KV cache",
           [kv](const LoaderEntry& e) { return e.kv(kv); });
    return out;
}

} // namespace acsel
