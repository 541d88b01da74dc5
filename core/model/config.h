// A deployment configuration C = (model, batch size, band recipe, algorithm, exclusions), and
// a request q (docs/METHOD.md 1).
#pragma once

#include "core/model/bandrecipe.h"

#include <optional>
#include <string>
#include <string_view>

namespace acsel
{

struct Config {
    int model = 0; // index into Workspace::models
    int batch = 1;
    BandRecipe recipe;
    Algorithm algorithm = Algorithm::Max;
    // lm_head quantized: it then runs at the last band's format (which must not be bf16).
    bool lmHeadQuantized = false;
    KvFormat kv = KvFormat::Bf16;
    // Tensor-parallel degree: the GPUs of one node the model is split over (tensorparallel.h).
    int tp = 1;
    // Mixture of experts: the expert-parallel degree of the tp GPUs (tensorparallel.h); the
    // rest, tp / moeEp, is expert TP. 1 (expert TP over all tp GPUs) is vLLM's and SGLang's
    // default and TRT-LLM's when moe_ep_size is not given.
    int moeEp = 1;

    bool operator==(const Config&) const = default;
};

// How requests reach the engine: one static batch (the paper's benchmark), or continuous
// (in-flight) batching in steady state at the request's concurrency.
enum class ServingMode : std::uint8_t { Static, Continuous };
std::string_view toString(ServingMode m);
std::optional<ServingMode> parseServingMode(std::string_view name);

// The largest sequence length and concurrency (or batch) any reader accepts.
constexpr int kMaxRequestTokens = 1 << 24;
constexpr int kMaxConcurrency = 1 << 20;

struct Request {
    std::string stack; // Stack::id, "h100_sxm/trtllm"
    int isl = 1024;
    int osl = 256;
    int concurrency = 1;
    double ttftBudgetMs = 1000.0;
    double tpotBudgetMs = 50.0;
    double memBudgetGiB = 80.0;
    ServingMode mode = ServingMode::Static;
    // GPUs of one node available (1 to kMaxGpus); the memory budget is per GPU.
    int gpus = 1;
    // The serving engine's release ("0.12.0") where its defaults depend on it: a measured row's
    // backend_version. Empty: a current release, as the stacks' tables are.
    std::string engineVersion;
    // Added to TTFT: that release's measured request overhead (Workspace::requestOverheads, set
    // with engineVersion by the silicon reader); 0 for a configuration of a current release.
    double requestOverheadMs = 0;

    bool operator==(const Request&) const = default;
};

} // namespace acsel
