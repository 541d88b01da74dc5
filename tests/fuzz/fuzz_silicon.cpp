// libFuzzer target: AIC's silicon CSV (end-to-end TTFT/TPOT measurements). Accepted rows have
// increasing lines, finite latencies, unique ids, and measure different benchmarks.
#include "core/latency/silicon.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <set>
#include <tuple>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "dense_tp1.csv";
    fuzz::loadOrLoadError(name, [&] {
        int previousLine = 0;
        std::set<std::string> ids;
        std::set<std::tuple<std::string, std::string, std::string, std::string, std::string,
                            std::string, int, int, int, int, int>>
            measurements;
        for (const SiliconRow& r : parseSiliconCsv(fuzz::text(data, size), name)) {
            fuzz::require(ids.insert(r.id).second, "accepted row ids are unique");
            fuzz::require(measurements
                              .emplace(r.system, r.backend, r.backendVersion, r.modelPath, r.mode,
                                       r.gemmQuantMode, r.isl, r.osl, r.batch, r.tp, r.pp)
                              .second,
                          "each accepted row is another measurement");
            fuzz::require(r.line > previousLine, "rows keep their increasing line numbers");
            previousLine = r.line;
            fuzz::require(std::isfinite(r.ttftMs) && std::isfinite(r.tpotMs),
                          "accepted latencies are finite");
        }
    });
    return 0;
}
