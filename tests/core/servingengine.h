// The toy engine with the real continuous serving model (test_servingbound, test_budgetindex):
// the toy models, recipes and quality, latency and memory from core/latency on closed-form
// operator costs, on devices small enough that the KV pool limits the running requests.
#pragma once

#include "core/latency/memorymodel.h"
#include "core/latency/servingmodel.h"
#include "latencyfixtures.h"
#include "toyengine.h"

#include <algorithm>
#include <string>
#include <vector>

namespace acsel::test
{

// Closed-form operator costs: a GEMM reads its weights at the format's bits and does work;
// attention grows with the context and the batch.
class FormatCosts final : public FakeCostsBase
{
public:
    explicit FormatCosts(double capacityBytes) : FakeCostsBase(capacityBytes, 2e8) {}
    bool supports(Format) const override { return true; }
    double gemmMs(Format f, double m, double n, double k) const override
    {
        const double bits = facts(f).effectiveBits;
        return 2e-10 * m * n * k * (bits < 16 ? 0.6 : 1.0) + 1e-7 * n * k * bits / 16 + 2e-3;
    }
    double contextAttentionMs(double b, double isl, int heads, int, int, KvFormat kv) const override
    {
        return 1e-7 * b * isl * isl * heads * (kv == KvFormat::Fp8 ? 0.7 : 1.0);
    }
    double generationAttentionMs(double b, double kvLen, int, int, int, KvFormat) const override
    {
        return 2e-6 * b * kvLen + 1e-3;
    }
    // A node of up to 8 GPUs with collectives (set by the tensor-parallel tests).
    bool collectives = false;
    bool supportsTp(int gpus) const override { return gpus == 1 || (collectives && gpus <= 8); }
    double allReduceMs(int gpus, double elements) const override
    {
        return gpus == 1 ? 0.0 : 0.004 + 1e-3 * gpus + 2e-8 * elements;
    }
};

// The toy engine's models, recipes and quality with the real serving model and memory model
// on FormatCosts, on a device small enough that the KV pool limits the running requests.
class ServingEngine final : public ToyEngine
{
public:
    ServingEngine(double capacityBytes, const std::string& backend,
                  std::vector<int> layers = {4, 5})
        : ToyEngine({Format::Int4Wo, Format::Fp8, Format::Bf16}, std::move(layers)),
          costs_(capacityBytes)
    {
        ws_ = ToyEngine::workspace();
        ws_.platforms[0] = costs_.platform();
        ws_.stacks[0].id = "fake/" + backend;
        ws_.stacks[0].backend = backend;
    }
    const Workspace& workspace() const override { return ws_; }
    LatencyMs rawLatency(const Config& c, const Request& q) const override
    {
        const LatencyEstimate e = estimateServingLatency(costs_, arch(c), c, q);
        return {e.ttftMs, e.tpotMs};
    }
    double memoryBytes(const Config& c, const Request& q) const override
    {
        return estimateMemory(arch(c), c, q, costs_.platform()).total();
    }
    bool supportsTp(const Request&, int tp) const override { return costs_.supportsTp(tp); }
    void enableTensorParallelism() { costs_.collectives = true; }
    // Gives every model MoE blocks: 8 experts of hidden / 4 columns, 2 per token (half the
    // weights of the dense MLP, a third of its work per token), on every
    // layer (as Qwen3-30B-A3B, Qwen3-235B-A22B and Mixtral have) or, as decoder_sparse_step and
    // mlp_only_layers say, on some of them (the others keep their dense MLP).
    void makeMixtureOfExperts(int sparseStep = 1, std::vector<int> mlpOnlyLayers = {})
    {
        for (ModelArch& m : ws_.models) {
            m.family = "qwen3_moe";
            m.moe = {.experts = 8,
                     .topk = 2,
                     .expertIntermediate = m.hidden / 4,
                     .sparseStep = sparseStep,
                     .mlpOnlyLayers = mlpOnlyLayers};
        }
    }
    // Static requests run as WorkspaceEngine runs them: no running rule, one batch.
    std::optional<RunningRule> runningRule(const Config& c, const Request& q) const override
    {
        if (q.mode == ServingMode::Static)
            return std::nullopt;
        return acsel::runningRule(arch(c), c, q, costs_.platform());
    }
    LatencyMs rawLatencyAt(const Config& c, const Request& q, int running) const override
    {
        if (q.mode == ServingMode::Static)
            return rawLatency(c, q);
        const LatencyEstimate e = estimateServingAt(costs_, arch(c), c, q, running);
        return {e.ttftMs, e.tpotMs};
    }
    // False: Exact prunes by memory only (the comparison of full gates).
    bool bounded = true;
    bool fracMixIsLowerBound(const Request&) const override { return bounded; }
    // The running count of a configuration, as the serving model derives it.
    int running(const Config& c, const Request& q) const
    {
        const ServingDefaults d = servingDefaults(backendOf(q.stack), costs_.platform());
        const KvCapacity kv = kvCapacity(arch(c), c, q, costs_.platform(), d);
        const int kvSlots = kv.holdsOneRequest() ? kv.requestsThatFit : c.batch;
        return std::min({q.concurrency, c.batch, kvSlots});
    }

private:
    const ModelArch& arch(const Config& c) const
    {
        return ws_.models[static_cast<std::size_t>(c.model)];
    }
    FormatCosts costs_;
    Workspace ws_;
};

inline Request continuous(const std::string& stack, int concurrency, int isl, int osl)
{
    Request q;
    q.stack = stack;
    q.isl = isl;
    q.osl = osl;
    q.concurrency = concurrency;
    q.mode = ServingMode::Continuous;
    q.memBudgetGiB = 1e6; // the device is the limit
    q.ttftBudgetMs = 1e12;
    q.tpotBudgetMs = 1e12;
    return q;
}

// A configuration fits a continuous request only if its static footprint (Config::batch full
// KV caches) does (memorymodel.h), so its KV pool holds at least ~0.9 x batch requests: the
// running count varies within a context only when batch = concurrency and the pool is near
// that footprint. These devices hold the larger toy model's bf16 uniform with `slack` to spare;
// its lighter recipes run more requests, up to the concurrency.

inline const char* const kBackendNames[] = {"trtllm", "other", "vllm", "sglang"};
inline constexpr double kSlack[] = {1.0, 1.02, 1.06};

// vLLM's need includes the (1 - 0.9) of the device it leaves alone, so the device is the fixed
// point of capacity = need(capacity) x slack (a contraction: it converges geometrically).
inline double deviceFor(const char* backend, int concurrency, int isl, int osl, double slack)
{
    double device = 0;
    for (int i = 0; i < 60; ++i) {
        const ServingEngine e(device, backend);
        const Request q = continuous(e.workspace().stacks[0].id, concurrency, isl, osl);
        Config bf16;
        bf16.model = 1;
        bf16.batch = concurrency;
        bf16.recipe = BandRecipe::uniform(e.workspace().models[1].layers, Format::Bf16);
        device = e.memoryBytes(bf16, q) * slack;
    }
    return device;
}

} // namespace acsel::test
