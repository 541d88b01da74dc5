// libFuzzer target: the spec-sheet platforms file (datasets/platforms.json).
#include "core/data/platformsfile.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "platforms.json";
    fuzz::loadOrLoadError(name, [&] {
        const PlatformsFile f =
            parsePlatformsFile(parseJsonText(fuzz::text(data, size), name), name);
        for (const PlatformSpec& s : f.platforms) {
            const Platform& p = s.platform;
            fuzz::require(p.memCapacityBytes > 0 && std::isfinite(p.memCapacityBytes) &&
                              p.memBandwidth > 0 && std::isfinite(p.memBandwidth),
                          "an accepted platform has finite positive memory and bandwidth");
            fuzz::require(f.find(p.id) != nullptr, "every accepted platform can be found by id");
        }
    });
    return 0;
}
