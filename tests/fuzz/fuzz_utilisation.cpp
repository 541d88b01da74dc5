// libFuzzer target: the utilisation model JSON (the workspace's `utilisation`, written by acsel
// fit-utilisation). An accepted file stores log-utilisations in [-10, 3] only, and every op's
// pooled bf16 grid (of the optional all-reduce grids, those present) resolves to a lookup
// (fallbacks, neighbour fill, interpolation, clamping) whose value at any shape, inside the axes
// or beyond them, stays in that range: the empirical latency sol x exp(-u) is then finite,
// positive and at most e^3 below the speed of light.
#include "core/latency/utilisationmodel.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "utilisation.json";
    fuzz::loadOrLoadError(name, [&] {
        const UtilisationModel m =
            parseUtilisation(parseJsonText(fuzz::text(data, size), name), name);
        const auto inRange = [](double u) { return u >= -10 - 1e-9 && u <= 3 + 1e-9; };
        for (const UtilGrid& g : m.grids)
            for (const double u : g.logU)
                fuzz::require(std::isnan(u) || inRange(u),
                              "a stored log-utilisation is within [-10, 3]");
        const auto lookupsInRange = [&](const ResolvedUtilGrid& grid) {
            for (const double x : {0.5, 1.0, 3.0, 37.0, 4096.0, 1e7}) {
                const double u = grid.logUtilisation(x, 2 * x + 1, x / 2 + 1);
                fuzz::require(inRange(u), "a looked-up log-utilisation is within [-10, 3]");
            }
        };
        for (const OpClass op :
             {OpClass::Gemm, OpClass::ContextAttention, OpClass::GenerationAttention}) {
            const ResolvedUtilGrid grid(m, op, "vllm", "bf16", "bf16");
            fuzz::require(grid.valid(), "an accepted file resolves every op's bf16 grid");
            lookupsInRange(grid);
        }
        // All-reduce grids are optional (older files have none); those present stay in range.
        for (const char* link : {"pcie", "nvlink"}) {
            const ResolvedUtilGrid grid(m, OpClass::AllReduce, kAllBackends, link, link);
            if (grid.valid())
                lookupsInRange(grid);
        }
    });
    return 0;
}
