#include "core/quality/scopeseparation.h"

#include <algorithm>
#include <cmath>

namespace acsel
{

bool ScopeSpread::separated() const
{
    constexpr double kRelative = 1e-9;
    return full > std::max(attn, mlp) * (1.0 + kRelative) &&
           std::abs(attn - mlp) > kRelative * full;
}

ScopeSeparation scopeSeparation(const RidgeSurrogate& surrogate,
                                const std::vector<ModelArch>& models)
{
    ScopeSeparation out;
    for (const ModelArch& m : models)
        for (Format f : kAllFormats) {
            if (f == Format::Bf16)
                continue;
            ScopeSpread s;
            s.model = m.name;
            s.format = f;
            for (Algorithm a : kAllAlgorithms)
                if (algorithmFits(a, f)) {
                    s.algorithm = a;
                    break;
                }
            auto predict = [&](Scope scope) {
                return surrogate.predict(m, BandRecipe::uniform(m.layers, f, scope), s.algorithm,
                                         false, KvFormat::Bf16);
            };
            s.attn = predict(Scope::Attn);
            s.mlp = predict(Scope::Mlp);
            s.full = predict(Scope::Full);
            out.separated += s.separated() ? 1 : 0;
            out.spreads.push_back(s);
        }
    return out;
}

} // namespace acsel
