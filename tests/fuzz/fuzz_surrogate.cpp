// libFuzzer target: the quality surrogate file (`acsel report quality --save` writes it,
// `--surrogate` reads it). An accepted file must survive its own writer: toJson, parse again,
// same weights and per-model offsets.
#include "core/quality/ridgesurrogate.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "surrogate.json";
    fuzz::loadOrLoadError(name, [&] {
        const RidgeSurrogate s =
            RidgeSurrogate::fromJson(parseJsonText(fuzz::text(data, size), name), name);
        for (int k = 0; k < kFeatureCount; ++k) {
            const double w = s.weights()[static_cast<std::size_t>(k)];
            fuzz::require(std::isfinite(w), "accepted weights are finite");
            fuzz::require(!s.constrained(k) || w >= 0.0, "a constrained weight is >= 0");
        }
        for (const auto& [model, offset] : s.modelOffsets()) {
            fuzz::require(std::isfinite(offset), "accepted offsets are finite");
            int seen = 0;
            for (const auto& other : s.modelOffsets())
                seen += other.first == model ? 1 : 0;
            fuzz::require(seen == 1, "an accepted model has one offset");
        }
        bool again = false;
        try {
            const RidgeSurrogate back = RidgeSurrogate::fromJson(
                parseJsonText(s.toJson().dump(), "rewritten.json"), "rewritten.json");
            again = back.weights() == s.weights() && back.intercept() == s.intercept() &&
                    back.modelOffsets() == s.modelOffsets() &&
                    back.trainingData().synthetic == s.trainingData().synthetic;
        } catch (const LoadError&) {
            again = false;
        }
        fuzz::require(again, "an accepted surrogate reads back equal after toJson");
    });
    return 0;
}
