// libFuzzer target: the FMC coefficients file (`acsel calibrate` writes it, `acsel predict`
// reads it). An accepted file must survive its own writer: fmcToJson, parse again, same set.
#include "core/latency/fmcfile.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace
{

bool sameSet(const acsel::FmcSet& a, const acsel::FmcSet& b)
{
    if (a.tau != b.tau || a.measurements != b.measurements || a.servingMode != b.servingMode ||
        a.entries.size() != b.entries.size())
        return false;
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const acsel::FmcEntry& x = a.entries[i];
        const acsel::FmcEntry& y = b.entries[i];
        if (x.mode != y.mode || x.stack != y.stack || x.tableVersion != y.tableVersion ||
            x.ttft.gamma != y.ttft.gamma || x.ttft.delta != y.ttft.delta ||
            x.tpot.gamma != y.tpot.gamma || x.tpot.delta != y.tpot.delta ||
            x.rowsUsed != y.rowsUsed)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "fmc.json";
    fuzz::loadOrLoadError(name, [&] {
        const FmcSet set = fmcFromJson(parseJsonText(fuzz::text(data, size), name), name);
        fuzz::require(set.tau > 0 && set.tau < 1, "an accepted tau is inside (0, 1)");
        fuzz::require(!set.entries.empty(), "an accepted FMC file calibrates a stack");
        for (const FmcEntry& e : set.entries) {
            fuzz::require(set.find(e.stack) == &e, "an accepted stack appears once");
            fuzz::require(std::isfinite(e.ttft.gamma) && std::isfinite(e.ttft.delta) &&
                              std::isfinite(e.tpot.gamma) && std::isfinite(e.tpot.delta),
                          "accepted coefficients are finite");
        }
        bool again = false;
        try {
            const std::string written = fmcToJson(set).dump();
            again = sameSet(fmcFromJson(parseJsonText(written, "rewritten.json"), "rewritten.json"),
                            set);
        } catch (const LoadError&) {
            again = false;
        }
        fuzz::require(again, "an accepted FMC file reads back equal after fmcToJson");
    });
    return 0;
}
