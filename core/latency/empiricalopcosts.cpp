#include "core/latency/empiricalopcosts.h"

#include "core/data/loaderror.h"
#include "core/model/tensorparallel.h"

#include <cmath>
#include <limits>

namespace acsel
{
namespace
{

std::size_t kvIndex(KvFormat kv)
{
    return static_cast<std::size_t>(kv);
}

} // namespace

EmpiricalOpCosts::EmpiricalOpCosts(Platform platform, const std::vector<Format>& formats,
                                   const std::string& backend, const UtilisationModel& model)
    : sol_(std::move(platform), formats, model.solConstantMs), solConstantMs_(model.solConstantMs)
{
    for (Format f : kAllFormats) {
        if (!sol_.supports(f))
            continue;
        auto& g = gemm_[static_cast<std::size_t>(f)];
        g = ResolvedUtilGrid(model, OpClass::Gemm, backend, toString(f), "bf16");
        if (!g.valid())
            throw LoadError("utilisation model", "/grids", "no gemm grid for bf16");
        if (g.usedFallback())
            notes_.push_back("GEMM " + std::string(toString(f)) +
                             ": no fitted utilisation, uses bf16's");
    }
    for (KvFormat kv : {KvFormat::Bf16, KvFormat::Fp8}) {
        const std::string name(toString(kv));
        context_[kvIndex(kv)] =
            ResolvedUtilGrid(model, OpClass::ContextAttention, backend, name, "bf16");
        generation_[kvIndex(kv)] =
            ResolvedUtilGrid(model, OpClass::GenerationAttention, backend, name, "bf16");
        if (!context_[kvIndex(kv)].valid() || !generation_[kvIndex(kv)].valid())
            throw LoadError("utilisation model", "/grids", "no attention grid for KV bf16");
        if (context_[kvIndex(kv)].usedFallback() || generation_[kvIndex(kv)].usedFallback())
            notes_.push_back("attention with KV " + name + ": no fitted utilisation, uses bf16's");
    }
    const Interconnect link = sol_.platform().interconnect;
    if (link != Interconnect::None) {
        const std::string name(toString(link));
        allReduce_ = ResolvedUtilGrid(model, OpClass::AllReduce, kAllBackends, name, name);
        if (!allReduce_.valid())
            notes_.push_back("all-reduce over " + name +
                             ": no fitted utilisation (refit the utilisation file), so one GPU "
                             "only");
    }
}

bool EmpiricalOpCosts::supportsTp(int gpus) const
{
    const bool degree = gpus >= 2 && gpus <= kMaxGpus && (gpus & (gpus - 1)) == 0;
    return gpus == 1 || (degree && allReduce_.valid());
}

double EmpiricalOpCosts::allReduceMs(int gpus, double elements) const
{
    if (gpus == 1)
        return 0;
    if (!supportsTp(gpus))
        return std::numeric_limits<double>::quiet_NaN();
    const double u = allReduce_.logUtilisation(gpus, elements);
    return (solAllReduceRoofMs(sol_.platform(), gpus, elements) + solConstantMs_) * std::exp(-u);
}

double EmpiricalOpCosts::gemmMs(Format f, double m, double n, double k) const
{
    if (!supports(f))
        return std::numeric_limits<double>::quiet_NaN();
    const double u = gemm_[static_cast<std::size_t>(f)].logUtilisation(m, n, k);
    return sol_.gemmMs(f, m, n, k) * std::exp(-u);
}

double EmpiricalOpCosts::contextAttentionMs(double batch, double isl, int heads, int kvHeads,
                                            int headDim, KvFormat kv) const
{
    const double u = context_[kvIndex(kv)].logUtilisation(batch, isl);
    return sol_.contextAttentionMs(batch, isl, heads, kvHeads, headDim, kv) * std::exp(-u);
}

double EmpiricalOpCosts::generationAttentionMs(double batch, double kvLen, int heads, int kvHeads,
                                               int headDim, KvFormat kv) const
{
    const double u = generation_[kvIndex(kv)].logUtilisation(batch, kvLen);
    return sol_.generationAttentionMs(batch, kvLen, heads, kvHeads, headDim, kv) * std::exp(-u);
}

std::string EmpiricalOpCosts::attentionNote(int heads, int kvHeads, int headDim, KvFormat kv) const
{
    (void)heads, (void)kvHeads, (void)headDim;
    if (!context_[kvIndex(kv)].usedFallback() && !generation_[kvIndex(kv)].usedFallback())
        return {};
    return "attention (empirical): no utilisation fitted for KV " + std::string(toString(kv)) +
           ", uses bf16's";
}

} // namespace acsel
