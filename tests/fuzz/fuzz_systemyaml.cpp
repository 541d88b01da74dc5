// libFuzzer target: an AIC system yaml (GPU spec) read into a Platform.
#include "core/data/systemyaml.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "system.yaml";
    fuzz::loadOrLoadError(name, [&] {
        const Platform p = parseSystemYaml(fuzz::text(data, size), name, "fuzz_gpu");
        fuzz::require(p.memBandwidth > 0 && std::isfinite(p.memBandwidth) &&
                          p.memCapacityBytes > 0 && std::isfinite(p.memCapacityBytes),
                      "an accepted platform has finite positive memory bandwidth and capacity");
        fuzz::require(p.peakFlops(ComputeClass::Bf16) > 0, "an accepted platform has bf16 flops");
    });
    return 0;
}
