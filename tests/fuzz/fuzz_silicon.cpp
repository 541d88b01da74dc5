// libFuzzer target: AIC's silicon CSV (end-to-end TTFT/TPOT measurements).
#include "core/data/silicon.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "dense_tp1.csv";
    fuzz::loadOrLoadError(name, [&] {
        int previousLine = 0;
        for (const SiliconRow& r : parseSiliconCsv(fuzz::text(data, size), name)) {
            fuzz::require(r.line > previousLine, "rows keep their increasing line numbers");
            previousLine = r.line;
            fuzz::require(std::isfinite(r.ttftMs) && std::isfinite(r.tpotMs),
                          "accepted latencies are finite");
        }
    });
    return 0;
}
