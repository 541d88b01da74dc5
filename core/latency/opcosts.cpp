#include "core/latency/opcosts.h"

#include "core/latency/moeexperts.h"

namespace acsel
{

double OpCosts::moeMs(Format f, double tokens, const MoeShape& s) const
{
    return moeGemmsMs(*this, f, tokens, s);
}

std::string OpCosts::moeNote(Format f, const MoeShape& s) const
{
    (void)s;
    return "MoE block of " + std::string(toString(f)) +
           " costed as one GEMM per touched expert (no fused-MoE table)";
}

} // namespace acsel
