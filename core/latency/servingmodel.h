// Serving-aware latency (docs/SERVING.md): a steady-state model of continuous
// (in-flight) batching at a concurrency, built on the operator model's step costs.
//
// Closed loop, c clients, each sending its next request when the previous one finishes (how
// the AIC silicon benchmarks were run). n = min(c, Config::batch, KV slots) requests run; the
// rest wait for a slot. A request spends `chunks` steps being prefilled and osl - 1 steps
// decoding, so S = chunks + osl - 1 steps per cycle, and the other n - 1 requests bring
// r = (n - 1) chunks / S prefill chunks per step. A decoding request therefore sees a share
// min(1, r) of mixed steps carrying max(1, r) chunks each:
//   TPOT = (1 - phi) decode step + phi mixed step, integrated over its own context as static;
//   TTFT = slot queueing + the step in progress when it arrives, and the one already scheduled
//          behind it on an engine that schedules ahead (none when n = 1) + its own `chunks`
//          mixed steps (+ a prefill backlog when the step token budget is exceeded);
//   slot queueing (c > n, Little's law on the closed loop) = cycle time x (c - n) / n.
// The measured TTFT is a benchmark mean: its first round starts all n requests at once (their
// prompts prefilled in budget-sized steps), so the mean over kBenchmarkRounds rounds (AIC
// assumes 10 x concurrency requests per run) weighs that burst 1 / rounds and the steady
// state the rest. A measured release adds its request overhead (Request::requestOverheadMs) to
// TTFT. With c = 1 (and Config::batch = 1, the prompt within the step token budget) it reduces to
// the static estimate plus that overhead exactly.
#pragma once

#include "core/latency/opcosts.h"
#include "core/latency/opmodel.h"
#include "core/model/backend.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

namespace acsel
{

inline constexpr int kBenchmarkRounds = 10;

// What a backend does by default on a GPU (documented in docs/SERVING.md with the sources).
struct ServingDefaults {
    double stepTokenBudget = 8192; // max tokens per step (prefill + decode)
    bool chunkedPrefill = true;    // prompts longer than the budget's free part are split
    KvPoolRule kvPool = KvPoolRule::ShareOfFree;
    double kvMemoryFraction = 0.9; // the engine's memory flag f of kvPool
    // true: a request reserves KV for isl + osl tokens when admitted (TRT-LLM's default
    // GUARANTEED_NO_EVICT); false: pages are taken as tokens arrive (vLLM, SGLang), so a
    // running request holds isl + osl / 2 tokens on average over its life.
    bool reservesFullLength = true;
    // true: prefill chunks ride in the decode steps (TRT-LLM's in-flight batching, vLLM's
    // chunked prefill); false: a step carries prefills or decodes, never both (SGLang's
    // default, enable_mixed_chunk off), so every prefill step stalls the running decodes.
    bool mixesPrefillAndDecode = true;
    // true: the engine schedules step k + 1 while step k runs (TRT-LLM's overlap scheduler,
    // SGLang's overlap schedule, vLLM's async scheduling from 0.14), so a request that arrives
    // during a step also misses the step already scheduled behind it.
    bool schedulesAhead = true;
    // The steps a request that reaches a busy engine waits before its own prefill: the one in
    // progress, and the one already scheduled behind it on an engine that schedules ahead.
    int stepsBeforeOwnPrefill() const { return schedulesAhead ? 2 : 1; }
    // The engine's own cap on running requests when its launch sets none (0: none): what a
    // benchmark row's server ran with. A configuration's Config::batch is the cap its launch
    // template sets instead (acsel launch).
    int defaultMaxRunning = 0;
    // Added to every request's TTFT: the time outside the engine's steps, fitted per (stack,
    // release) on measured rows (requestoverhead.h); the request's Request::requestOverheadMs,
    // 0 unless it is a measured row of a release with an entry.
    double requestOverheadMs = 0;
    bool known = true; // false: generic defaults for an unknown backend
};
// trtllm: max_num_tokens 8192, max_batch_size 2048, chunked prefill off,
// free_gpu_memory_fraction 0.9, full-length reservation; vllm: max_num_batched_tokens 8192 and
// max_num_seqs 1024 on GPUs of >= 70 GiB other than the A100, else 2048 and 256, chunked
// prefill on, gpu_memory_utilization 0.9, paged on demand; sglang:
// chunked_prefill_size and mem_fraction_static from the GPU's memory as
// sglangMemFractionStatic derives them, paged on demand, prefill and decode in separate steps.
// All three schedule a step ahead, vLLM only from release 0.14 (`engineVersion` below it:
// not; empty or unreadable: a current release). Other names: chunked prefill with full-length
// reservation and a step scheduled ahead (the conservative side), known = false.
ServingDefaults servingDefaults(std::string_view backend, const Platform& platform,
                                std::string_view engineVersion = {});
// The defaults of the request's stack (its backend) and engine release, with the release's
// measured request overhead.
ServingDefaults servingDefaults(const Request& request, const Platform& platform);

// SGLang's defaults on a device of `capacityBytes` at tp = pp = 1 (server_args.py,
// _handle_gpu_memory_settings): the chunked prefill size by memory bucket (2048 below 35 GiB,
// 4096 below 60, 8192 below 160, else 16384) and mem_fraction_static = (C - reserve) / C
// rounded to 3 decimals, reserve = 512 MiB + 1.5 MiB per chunk token (at least 2048) + 2 MiB per
// CUDA-graph batch (8 / 24 / 32 / 256 / 256 / 512 by the same buckets, 20 GiB first) + 128
// MiB, at least 10 GiB on GPUs above 60 GiB.
int sglangChunkedPrefillSize(double capacityBytes);
double sglangMemFractionStatic(double capacityBytes);

// The KV pool of an engine: kvPoolBytes = share x free - deduction, where free = C - W - R - A
// (the memory left next to the weights, the runtime and the step activations):
// ShareOfFree (f, 0), ShareOfDevice (1, (1 - f) C), StaticShareOfDevice (1, (1 - f) C - A).
struct KvPoolLine {
    double share = 1.0;
    double deductionBytes = 0.0;
    double poolBytes(double freeBytes) const
    {
        return std::max(0.0, share * freeBytes - deductionBytes);
    }
};
// `tp`: the configuration's tensor-parallel degree; every term is one GPU's.
KvPoolLine kvPoolLine(const ServingDefaults& d, const ModelArch& arch, const Platform& platform,
                      int tp);

// The backend of a stack id "system/backend" (the whole id when it has no '/').
std::string_view backendOf(std::string_view stackId);

// KV cache capacity: bytes left for the KV cache next to the weights and how many running
// requests fit. An engine that reserves a request's full length (TRT-LLM's default
// GUARANTEED_NO_EVICT) holds isl + osl tokens per request; one that pages on demand (vLLM,
// SGLang) holds isl + osl / 2 on average in the closed loop's steady state, where the running
// requests sit uniformly over their output (the last pages are freed as others are taken).
struct KvCapacity {
    double availableBytes = 0;  // the engine's KV pool (KvPoolLine)
    double bytesPerRequest = 0; // (isl + osl or isl + osl / 2) x kvBytesPerToken
    double bytesFullLength = 0; // (isl + osl) x kvBytesPerToken: what one request needs at its end
    int requestsThatFit = 0;    // floor(available / per request), >= 0
    // Whether one request can run to its end; estimateMemory's continuous total fits the
    // device exactly then.
    bool holdsOneRequest() const
    {
        return requestsThatFit >= 1 && availableBytes >= bytesFullLength;
    }
};
// Activation workspace of an engine on one of `tp` GPUs: sized for the step token budget, not
// batch x isl, with the query heads of one GPU.
double stepActivationBytes(const ModelArch& arch, const ServingDefaults& defaults, int tp);
// KV cache of one request at its end: (isl + osl) x kvBytesPerToken.
double kvBytesFullLength(const ModelArch& arch, const Config& config, const Request& request);
KvCapacity kvCapacity(const ModelArch& arch, const Config& config, const Request& request,
                      const Platform& platform, const ServingDefaults& defaults);

// The mean TTFT of the benchmark's first round: n prompts of isl tokens arrive at once and are
// prefilled first come first served in steps of at most the step token budget (whole prompts
// only, at least one, without chunked prefill; any token split with it). A prompt's TTFT is
// the end of the step holding its last token. n = 1: prefillStepMs(1, isl).
double firstWaveMeanTtftMs(const StepModel& model, int n, int isl, const ServingDefaults& d);

struct ServingEstimate {
    LatencyEstimate latency; // ttftMs, tpotMs; prefill = own prefill step, decode = mean step
    KvCapacity kv;
    int concurrency = 0;   // c
    int running = 0;       // n = min(c, Config::batch, kv.requestsThatFit)
    int prefillChunks = 1; // steps of the request's own prefill
    // Prefill steps per output token of a decoding request: the share of its steps that carry
    // a prefill when they mix (ServingDefaults::mixesPrefillAndDecode), else extra steps.
    double mixedShare = 0;
    double chunksPerMixedStep = 0;
    double decodeStepMs = 0;      // pure decode step at the mean context
    double mixedStepMs = 0;       // step carrying others' prefill chunks (decodes only when mixed)
    double ownPrefillStepMs = 0;  // one step of the request's own prefill
    double arrivalWaitMs = 0;     // the steps ahead of its own prefill when the request arrives
    double backlogWaitMs = 0;     // prefill demand above the step token budget
    double queueWaitMs = 0;       // waiting for a KV / batch slot (c > n)
    double warmupPrefillMs = 0;   // mean TTFT of the first (burst) round; 0 when n = 1
    double cycleMs = 0;           // a running request's life: TTFT without queueing + decode
    double requestOverheadMs = 0; // ServingDefaults::requestOverheadMs, in TTFT
    bool queued() const { return queueWaitMs > 0; }
};

// Throws std::invalid_argument as estimateLatency, when concurrency < 1, or when the KV memory
// cannot hold one request of isl + osl tokens (it could never be completed).
// Cost: the static estimate's lookups plus one mixed step and a second attention lookup per
// sampled context (~2x the static estimate, microseconds).
ServingEstimate estimateServing(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                const Request& request);

// The estimate of Request::mode: Static -> estimateLatency (unchanged), Continuous ->
// estimateServing(...).latency. Never throws for memory: a continuous configuration whose KV
// pool cannot hold one request gets the estimate with its KV slot limit lifted (n = min(c,
// batch)), the latency it would have with room for its requests. The gate never asks for one
// (estimateMemory rejects it first); FracMix mixes of uniform estimates and the explorer's
// points, whose memory marks them as not fitting, do.
LatencyEstimate estimateServingLatency(const OpCosts& costs, const ModelArch& arch,
                                       const Config& config, const Request& request);

// How the requests run at once follow a configuration's memory within one context (model,
// batch, KV format, request). Its KV pool is pool.poolBytes(free), free = capacity - weights -
// embeddings - lm_head - step activations - runtime, and its memory total (estimateMemory,
// continuous) is those same weight terms plus terms that do not depend on them, so free =
// freeAtZeroTotal - total: n follows the total alone, falling as it grows.
struct RunningRule {
    int limit = 1;              // min(concurrency, Config::batch)
    double freeAtZeroTotal = 0; // free + total: the same for every configuration of the context
    KvPoolLine pool;
    double bytesPerRequest = 1; // KvCapacity::bytesPerRequest
    double bytesFullLength = 1; // KvCapacity::bytesFullLength
    // The requests of isl + osl tokens its KV pool holds at memory total `totalBytes` (>= 0).
    int slotsAt(double totalBytes) const;
    // The n estimateServingLatency uses for a configuration of memory total `totalBytes`:
    // min(limit, slotsAt), or limit when its pool cannot hold one request (estimateMemory's
    // total then exceeds the device).
    int runningAt(double totalBytes) const;
};
RunningRule runningRule(const ModelArch& arch, const Config& config, const Request& request,
                        const Platform& platform);

// The continuous estimate with n given (1 <= running <= min(concurrency, batch)) instead of
// derived from the memory. The KV slot count is the only term that depends on the weights
// other than through the step costs (a floor of the memory left): at a fixed n, the chunk
// count, the shares of mixed steps, the backlog and queueing factors depend on n, isl, osl and
// the backend only, so TTFT and TPOT are non-negative combinations of step costs. A step's
// cost is additive over layers plus non-negative band-boundary conversions, as in static
// batching; so the FracMix mix of uniform estimates at a recipe's own n (RunningRule) is a
// lower bound of its estimate, while a mix of uniform estimates at their own n is not (a
// recipe between two uniform ones can run fewer requests than either mix suggests).
LatencyEstimate estimateServingAt(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                  const Request& request, int running);

} // namespace acsel
