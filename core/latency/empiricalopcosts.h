// Empirical operator costs for a GPU without operator tables: the speed-of-light time of each
// operator (roof + constant, solopcosts.h) divided by a utilisation fitted on the GPUs that
// have tables (utilisationmodel.h), looked up by op class, backend and shape:
//   t = (roof + c) / u(op, backend, variant, log2 shape).
// Memory-bound element-wise ops are costed as AIC does (no utilisation). The all-reduce of
// tensor parallelism is NCCL's ring over the platform's interconnect, its utilisation fitted on
// the measured NCCL tables of GPUs with the same kind of link; a platform without an
// interconnect, or a model without that link's grid, runs on one GPU only.
#pragma once

#include "core/latency/opcosts.h"
#include "core/latency/solopcosts.h"
#include "core/latency/utilisationmodel.h"

#include <array>
#include <string>
#include <vector>

namespace acsel
{

class EmpiricalOpCosts final : public OpCosts
{
public:
    // backend: the stack's backend (Stack::backend); formats: the GEMM formats the stack runs.
    // The grids are resolved here (backend grid, then the pooled one; a format never fitted
    // borrows bf16's, a KV format fp8's borrows bf16's, and notes() says so).
    EmpiricalOpCosts(Platform platform, const std::vector<Format>& formats,
                     const std::string& backend, const UtilisationModel& model);

    const Platform& platform() const override { return sol_.platform(); }
    bool supports(Format f) const override { return sol_.supports(f); }
    double gemmMs(Format f, double m, double n, double k) const override;
    double contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                              KvFormat kv) const override;
    double generationAttentionMs(double batch, double kvLen, int heads, int kvHeads, int headDim,
                                 KvFormat kv) const override;
    double memoryOpMs(double bytes) const override { return sol_.memoryOpMs(bytes); }
    bool supportsTp(int gpus) const override;
    double allReduceMs(int gpus, double elements) const override;
    std::string attentionNote(int heads, int kvHeads, int headDim, KvFormat kv) const override;

    // What was borrowed when resolving the grids (empty when nothing).
    const std::vector<std::string>& notes() const { return notes_; }

private:
    SolOpCosts sol_;
    std::array<ResolvedUtilGrid, kFormatCount> gemm_;
    std::array<ResolvedUtilGrid, 2> context_, generation_; // by KvFormat
    ResolvedUtilGrid allReduce_;                           // invalid: no tensor parallelism
    double solConstantMs_ = 0;
    std::vector<std::string> notes_;
};

} // namespace acsel
