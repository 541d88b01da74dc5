// Will the engine load it? Checks an exported configuration against the load-compatibility
// table (core/data/engineloaders.h) for one engine release on one GPU: several weight formats
// in one checkpoint (MIXED_PRECISION), each weight format on the GPU's generation, the KV-cache
// format. Each finding says what fails and the first newer release in the table that loads it.
#pragma once

#include "core/data/engineloaders.h"
#include "core/export/exportinput.h"
#include "core/model/platform.h"

#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

struct LoadFinding {
    bool refused = false; // the table says the release does not load it; else UNCERTAIN
    std::string message;  // "vllm 0.15.1 does not load ...; vllm 0.23.0 does (sources: ...)"
};

struct LoadCheck {
    std::string release;                // the release checked
    const LoaderEntry* entry = nullptr; // the table's entry for it; null: the table has none
    std::vector<LoadFinding> findings;  // empty: loads, as far as the table knows

    bool refused() const;
    // Every refusal, one per line, for an error message.
    std::string refusals() const;
};

LoadCheck checkLoad(const LoaderTable& table, Backend engine, std::string_view release,
                    const ExportInput& in, const Platform& gpu);

} // namespace acsel
