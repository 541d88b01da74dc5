#include "core/data/specstacks.h"

#include <algorithm>

namespace acsel
{

void attachSpecOnlyStacks(Workspace& ws, const std::string& platformsFile)
{
    attachSpecOnlyStacks(ws, loadPlatformsFile(platformsFile));
}

void attachSpecOnlyStacks(Workspace& ws, const PlatformsFile& platforms)
{
    std::string added;
    for (const PlatformSpec& spec : platforms.platforms) {
        const std::string& id = spec.platform.id;
        const bool hasTables = std::any_of(ws.stacks.begin(), ws.stacks.end(), [&](const Stack& s) {
            return s.source == LatencySource::Tables && ws.platformOf(s).id == id;
        });
        if (hasTables || ws.findPlatform(id))
            continue;
        ws.platforms.push_back(spec.platform);
        const int index = static_cast<int>(ws.platforms.size() - 1);
        for (const std::string& backend : spec.backends) {
            Stack s;
            s.id = id + "/" + backend;
            s.backend = backend;
            s.version = "spec-sheet";
            s.platform = index;
            s.source = LatencySource::Empirical;
            s.formats = spec.nativeFormats;
            s.kvFp8 = spec.kvFp8;
            added += (added.empty() ? "" : ", ") + s.id;
            ws.stacks.push_back(std::move(s));
        }
        if (!spec.memoryNote.empty())
            ws.notes.push_back(spec.platform.name + ": plans with " +
                               std::to_string(static_cast<int>(spec.platform.memCapacityBytes /
                                                               (1024.0 * 1024.0 * 1024.0))) +
                               " GiB of memory. " + spec.memoryNote);
    }
    if (!added.empty())
        ws.notes.push_back("Spec-only stacks (no operator tables; latency from the empirical "
                           "model: speed of light from the spec sheet divided by a utilisation "
                           "fitted on measured GPUs, see docs/GPUS.md): " +
                           added + ".");
}

} // namespace acsel
