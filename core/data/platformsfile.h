// The spec-sheet platform file (datasets/platforms.json, schema_version 1): GPUs described by
// public vendor figures, for GPUs without operator tables. Every number carries its source;
// tensor throughputs are dense. See docs/GPUS.md for the format.
#pragma once

#include "core/data/jsonfields.h"
#include "core/model/platform.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

inline constexpr int kPlatformsSchemaVersion = 1;

struct PlatformSpec {
    // memCapacityBytes is the USABLE memory (usable_memory_gib when given, else the capacity);
    // source names the file and the GPU; tensorFlops are dense FLOP/s (0 = not on the chip).
    Platform platform;
    std::string architecture;
    double totalMemoryBytes = 0;       // memory_capacity_gib as sold
    std::string memoryNote;            // why usable differs from total (empty when equal)
    std::vector<Format> nativeFormats; // ladder order (Format enum order)
    bool kvFp8 = false;
    std::vector<std::string> backends; // assumed for a spec-only stack
};

struct PlatformsFile {
    int schemaVersion = kPlatformsSchemaVersion;
    std::string file;
    std::vector<PlatformSpec> platforms;

    const PlatformSpec* find(const std::string& id) const;
};

// Throw LoadError naming the file and the JSON pointer of the offending field: missing or
// non-positive numbers, a number without its source, unknown formats or backends, a native
// format whose tensor-core class has no throughput, duplicate ids, a newer schema.
PlatformsFile loadPlatformsFile(const std::string& path);
PlatformsFile parsePlatformsFile(const Json& j, const std::string& file);

} // namespace acsel
