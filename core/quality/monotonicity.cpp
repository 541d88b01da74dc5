#include "core/quality/monotonicity.h"

#include <cmath>

namespace acsel
{

SurrogateMonotonicity checkMonotonicity(const RidgeSurrogate& surrogate,
                                        const std::vector<ModelArch>& models)
{
    SurrogateMonotonicity out;
    for (Format from : kAllFormats)
        for (Format to : kAllFormats)
            if (facts(to).bits < facts(from).bits)
                out.byPair.push_back({from, to});
    for (const ModelArch& m : models) {
        const SurrogateTerms t = surrogate.terms(m, Algorithm::Max, false, KvFormat::Bf16);
        const int L = m.layers;
        for (MoveStats& pair : out.byPair)
            for (Scope s : kAllScopes) {
                if (pair.from == Format::Bf16 && s != Scope::Full)
                    continue; // a bf16 band's scope is always full
                for (int b = 0; b < L; ++b)
                    for (int e = b + 1; e <= L; ++e) {
                        const double delta =
                            t.rangeSum(pair.to, s, b, e) - t.rangeSum(pair.from, s, b, e);
                        ++pair.moves;
                        // Below rounding of the prefix sums, a difference is no drop.
                        if (delta < -1e-12) {
                            ++pair.drops;
                            pair.worstRatio = std::min(pair.worstRatio, std::exp(delta));
                        }
                    }
            }
    }
    for (const MoveStats& p : out.byPair) {
        out.moves += p.moves;
        out.drops += p.drops;
    }
    return out;
}

} // namespace acsel
