// The load-compatibility table (datasets/engine_loaders.json, schema_version 1): per engine
// release, what its loader accepts from a ModelOpt export: several weight formats in one
// checkpoint (quant_algo MIXED_PRECISION), each weight format by GPU generation, the KV-cache
// formats. An entry holds from its release until the next entry of the same engine; every entry
// names its sources. A user file extends the table (docs/EXPORT.md#will-it-load).
#pragma once

#include "core/model/backend.h"
#include "core/model/format.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

inline constexpr int kEngineLoadersSchemaVersion = 1;

// Whether a loader accepts something. Uncertain: the sources do not settle it ("?" in the file).
enum class Support : std::uint8_t { No, Yes, Uncertain };

enum class GpuGeneration : std::uint8_t { Ampere, Ada, Hopper, Blackwell };
inline constexpr int kGpuGenerationCount = 4;
std::string_view toString(GpuGeneration g);
// SM 8.0-8.7 Ampere, 8.9 Ada, 9.x Hopper, 10.0 and above Blackwell (Thor and the RTX PRO
// parts included); none below SM 8.0.
std::optional<GpuGeneration> generationOf(int smVersion);

struct LoaderEntry {
    Backend engine = Backend::Vllm;
    std::string release;
    Support mixedPrecision = Support::No;
    // Support by generation for each weight format the loader names; a format it does not name
    // is not loaded on any generation.
    std::vector<std::pair<Format, std::array<Support, kGpuGenerationCount>>> weightFormats;
    std::array<Support, 2> kvFormats{}; // by KvFormat
    std::string note;
    std::vector<std::string> sources;
    std::string file; // the file the entry came from

    Support weights(Format f, GpuGeneration g) const;
    Support kv(KvFormat k) const { return kvFormats[static_cast<std::size_t>(k)]; }
};

struct LoaderTable {
    std::vector<LoaderEntry> entries; // by engine, then release ascending

    // The entry holding for `release` of `engine` (the newest at or before it), or null.
    const LoaderEntry* find(Backend engine, std::string_view release) const;
    // The entries of `engine` newer than `release`, oldest first.
    std::vector<const LoaderEntry*> newer(Backend engine, std::string_view release) const;
    // Adds `more`'s entries; one for an engine and release already here replaces it.
    void extend(const LoaderTable& more);
};

// Orders dotted releases numerically ("0.9.2" < "0.10.0"); a pre-release suffix sorts before its
// release ("1.3.0rc20" < "1.3.0"). Negative, zero or positive like strcmp.
int compareReleases(std::string_view a, std::string_view b);

// Throws LoadError naming the file and JSON pointer: unknown engines, formats or generations,
// a support value other than yes/no/uncertain, an entry without sources, duplicates, a newer
// schema.
LoaderTable loadLoaderTable(const std::string& path);

} // namespace acsel
