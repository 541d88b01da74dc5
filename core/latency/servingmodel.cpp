#include "core/latency/servingmodel.h"

#include "core/latency/memorymodel.h"
#include "core/model/tensorparallel.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <span>
#include <sstream>
#include <stdexcept>

namespace acsel
{

namespace
{

constexpr double kMiB = 1024.0 * 1024.0;

// SGLang's memory buckets (server_args.py): chunked prefill size and CUDA-graph batch at tp 1.
struct SglangBucket {
    int chunkedPrefill;
    int cudaGraphMaxBatch;
};

SglangBucket sglangBucket(double capacityBytes)
{
    const double gib = capacityBytes / kGiB;
    if (gib < 20)
        return {2048, 8};
    if (gib < 35)
        return {2048, 24};
    if (gib < 60)
        return {4096, 32};
    if (gib < 160)
        return {8192, 256};
    return {16384, 512};
}

// vLLM's device-name test, without copying the names (it runs with every estimate). The case
// is folded in ASCII: std::tolower follows the locale the GUI sets.
bool isA100(const Platform& p)
{
    constexpr std::string_view a100 = "a100";
    auto has = [&](std::string_view s) {
        return std::search(s.begin(), s.end(), a100.begin(), a100.end(), [](char c, char lower) {
                   return (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == lower;
               }) != s.end();
    };
    return has(p.id) || has(p.name);
}

// Whether `version` ("0.12.0", "v0.13.1rc2") names a release before major.minor; false when it
// does not start with two numbers (std::from_chars: the locale plays no part).
bool releaseBefore(std::string_view version, int major, int minor)
{
    if (!version.empty() && (version.front() == 'v' || version.front() == 'V'))
        version.remove_prefix(1);
    const char* end = version.data() + version.size();
    int releaseMajor = 0, releaseMinor = 0;
    const auto [dot, majorError] = std::from_chars(version.data(), end, releaseMajor);
    if (majorError != std::errc{} || dot == end || *dot != '.')
        return false;
    if (std::from_chars(dot + 1, end, releaseMinor).ec != std::errc{})
        return false;
    return releaseMajor < major || (releaseMajor == major && releaseMinor < minor);
}

} // namespace

int sglangChunkedPrefillSize(double capacityBytes)
{
    return sglangBucket(capacityBytes).chunkedPrefill;
}

double sglangMemFractionStatic(double capacityBytes)
{
    const SglangBucket b = sglangBucket(capacityBytes);
    const double memMiB = capacityBytes / kMiB;
    double reserveMiB =
        512.0 + std::max(b.chunkedPrefill, 2048) * 1.5 + b.cudaGraphMaxBatch * 2.0 + 1024.0 / 8.0;
    if (memMiB > 60.0 * 1024.0)
        reserveMiB = std::max(reserveMiB, 10.0 * 1024.0);
    // Below the reserve (a device SGLang could not serve on) nothing is left for the pool.
    return std::max(0.0, std::round((memMiB - reserveMiB) / memMiB * 1000.0) / 1000.0);
}

ServingDefaults servingDefaults(std::string_view backend, const Platform& platform,
                                std::string_view engineVersion)
{
    ServingDefaults d;
    const auto b = parseBackend(backend);
    if (!b) {
        d.known = false; // chunked prefill, full-length reservation (the conservative side)
        return d;
    }
    const BackendInfo& facts = info(*b);
    d.chunkedPrefill = facts.chunkedPrefill;
    d.reservesFullLength = facts.reservesFullLength;
    d.mixesPrefillAndDecode = facts.mixesPrefillAndDecode;
    d.kvPool = facts.kvPool;
    d.kvMemoryFraction = facts.defaultMemoryFlag;
    switch (*b) {
    case Backend::TrtLlm:
        d.defaultMaxRunning = 2048;
        break;
    case Backend::Vllm: {
        // The API server's max_num_batched_tokens and max_num_seqs (vllm/engine/arg_utils.py).
        const bool large = platform.memCapacityBytes >= 70.0 * kGiB && !isA100(platform);
        d.stepTokenBudget = large ? 8192 : 2048;
        d.defaultMaxRunning = large ? 1024 : 256;
        // Async scheduling is on by default from 0.14.0 (its release notes).
        d.schedulesAhead = !releaseBefore(engineVersion, 0, 14);
        break;
    }
    case Backend::Sglang:
        d.stepTokenBudget = sglangChunkedPrefillSize(platform.memCapacityBytes);
        d.kvMemoryFraction = sglangMemFractionStatic(platform.memCapacityBytes);
        break;
    }
    return d;
}

ServingDefaults servingDefaults(const Request& request, const Platform& platform)
{
    ServingDefaults d = servingDefaults(backendOf(request.stack), platform, request.engineVersion);
    d.requestOverheadMs = request.requestOverheadMs;
    return d;
}

KvPoolLine kvPoolLine(const ServingDefaults& d, const ModelArch& arch, const Platform& platform,
                      int tp)
{
    const double rest = (1.0 - d.kvMemoryFraction) * platform.memCapacityBytes;
    switch (d.kvPool) {
    case KvPoolRule::ShareOfFree:
        return {d.kvMemoryFraction, 0.0};
    case KvPoolRule::ShareOfDevice:
        return {1.0, rest};
    case KvPoolRule::StaticShareOfDevice:
        break;
    }
    return {1.0, rest - stepActivationBytes(arch, d, tp)};
}

std::string_view backendOf(std::string_view stackId)
{
    const auto slash = stackId.find('/');
    return slash == std::string_view::npos ? stackId : stackId.substr(slash + 1);
}

double stepActivationBytes(const ModelArch& arch, const ServingDefaults& defaults, int tp)
{
    return std::max(2.0 * defaults.stepTokenBudget * shardOf(arch, tp).heads * arch.headDim * 11.0,
                    70.0 * 1024.0 * 1024.0);
}

double kvBytesFullLength(const ModelArch& arch, const Config& config, const Request& request)
{
    return (static_cast<double>(request.isl) + request.osl) *
           kvBytesPerToken(arch, config.kv, config.tp);
}

namespace
{

// The memory left next to the weights, the step's activations and the runtime.
double freeBytes(const ModelArch& arch, const Config& config, const Request& request,
                 const Platform& platform, const ServingDefaults& defaults)
{
    const MemoryEstimate m = estimateStaticMemory(arch, config, request, platform);
    return platform.memCapacityBytes - m.weightBytes - m.embeddingBytes - m.lmHeadBytes -
           stepActivationBytes(arch, defaults, config.tp) - m.runtimeBytes;
}

} // namespace

KvCapacity kvCapacity(const ModelArch& arch, const Config& config, const Request& request,
                      const Platform& platform, const ServingDefaults& defaults)
{
    const double free = freeBytes(arch, config, request, platform, defaults);
    KvCapacity k;
    k.availableBytes = kvPoolLine(defaults, arch, platform, config.tp).poolBytes(free);
    const double perToken = kvBytesPerToken(arch, config.kv, config.tp);
    k.bytesFullLength = kvBytesFullLength(arch, config, request);
    k.bytesPerRequest = defaults.reservesFullLength ? k.bytesFullLength
                                                    : (request.isl + request.osl / 2.0) * perToken;
    k.requestsThatFit =
        static_cast<int>(std::min(std::floor(k.availableBytes / k.bytesPerRequest), 1e9));
    return k;
}

double firstWaveMeanTtftMs(const StepModel& model, int n, int isl, const ServingDefaults& d)
{
    const auto prompt = static_cast<std::int64_t>(isl);
    const std::int64_t total = prompt * n;
    const auto budget = static_cast<std::int64_t>(d.stepTokenBudget);
    // Tokens per prefill step: whole prompts up to the budget (at least one) without chunked
    // prefill; the budget's worth of the FCFS token stream with it.
    const std::int64_t step =
        std::min(total, d.chunkedPrefill ? std::max<std::int64_t>(1, budget)
                                         : std::max<std::int64_t>(1, budget / prompt) * prompt);
    const std::int64_t steps = (total + step - 1) / step;
    const std::int64_t lastTokens = total - (steps - 1) * step;
    const double fullMs = model.mixedFixedMs(static_cast<double>(step) / isl, isl, isl, 0.0);
    const double lastMs =
        lastTokens == step
            ? fullMs
            : model.mixedFixedMs(static_cast<double>(lastTokens) / isl, isl, isl, 0.0);
    // Prompt k (1-based) is complete after step ceil(k isl / step).
    double stepSum = 0;
    int inLast = 0;
    for (std::int64_t k = 1; k <= n; ++k) {
        const std::int64_t s = (k * prompt + step - 1) / step;
        stepSum += static_cast<double>(s);
        inLast += s == steps ? 1 : 0;
    }
    return ((stepSum - inLast) * fullMs + inLast * lastMs) / n;
}

namespace
{

// Why a request can never run (estimateServing's error).
std::string kvDoesNotFitReason(const KvCapacity& kv, const Request& request)
{
    std::ostringstream s;
    s << "the KV cache of one request (" << request.isl + request.osl << " tokens, "
      << kv.bytesFullLength / kGiB << " GiB) does not fit next to the weights ("
      << kv.availableBytes / kGiB << " GiB left for KV)";
    return s.str();
}

// The estimate with at most `slots` requests running (the KV slot count, or no limit).
ServingEstimate estimateWithSlots(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                  const Request& request, const ServingDefaults& d,
                                  const KvCapacity& kv, int slots)
{
    ServingEstimate e;
    e.kv = kv;
    const StepModel model(costs, arch, config);
    const int n = std::min({request.concurrency, config.batch, slots});
    e.concurrency = request.concurrency;
    e.running = n;
    const int isl = request.isl;
    const int steps = request.osl - 1;
    const double others = n - 1.0;

    // The decodes sharing a prefill step's token budget (they go first), none when prefill
    // steps carry prefills only.
    const double budgetDecodes = d.mixesPrefillAndDecode ? others : 0.0;
    int chunks = 1;
    if (d.chunkedPrefill) {
        const double room = std::max(1.0, d.stepTokenBudget - budgetDecodes);
        chunks = std::max(1, static_cast<int>(std::ceil(isl / room)));
    }
    const double chunkTokens = static_cast<double>(isl) / chunks;
    const double cycleSteps = chunks + static_cast<double>(steps);
    // Most prefill chunks one step can carry (at least one).
    const double chunkRoom = std::max(1.0, (d.stepTokenBudget - budgetDecodes) / chunkTokens);
    const double r = std::min(others * chunks / cycleSteps, chunkRoom);
    const double phi = std::min(1.0, r);
    const double k = std::max(1.0, r);
    e.prefillChunks = chunks;
    e.mixedShare = phi;
    e.chunksPerMixedStep = phi > 0 ? k : 0.0;
    const double ctxMean = isl + 1.0 + steps / 2.0; // the others sit uniformly over their output

    // The request's own prefill step carries ownK chunks; when that is the mixed step's k (the
    // common case: both are 1 while the prefill demand is below one chunk a step) it is the
    // same step, costed once.
    const double demand = n * chunks / cycleSteps; // chunks per step, all requests
    const double ownK = std::max(1.0, std::min(demand, chunkRoom));
    // Separate prefill steps carry no decodes; in mixed steps the chunks take their
    // requests' decode places.
    const double stepDecodes = d.mixesPrefillAndDecode ? n - k : 0.0;
    const double ownDecodes = d.mixesPrefillAndDecode ? n - ownK : 0.0;
    const bool ownIsMixed = phi > 0 && ownK == k;
    // The share of a request's decode steps a prefill step replaces: phi when they mix, none
    // when prefill steps come on top of the decode steps.
    const double replaced = d.mixesPrefillAndDecode ? phi : 0.0;

    LatencyEstimate& lat = e.latency;
    StepBreakdown decode;
    const double decodeFixed = model.decodeFixedMs(n, &decode);
    const double mixedFixed =
        phi > 0 ? model.mixedFixedMs(k, isl, chunkTokens, stepDecodes, &lat.prefill) : 0.0;

    // Every decode-attention lookup in one call (one shape, so the costs resolve it once): the
    // TPOT samples at (n, kvLen) and, with mixed steps, at (n - k, kvLen); then the steps at
    // the mean context; then the own prefill step's decodes when it is not the mixed step.
    const int stride = decodeStride(request.osl);
    const bool mixedDecodes = phi > 0 && stepDecodes > 0;
    std::array<double, 2 * kMaxDecodeSamples + 3> batch{}, kvLen{}, ms{};
    std::size_t q = 0;
    auto ask = [&](double b, double len) {
        batch[q] = b;
        kvLen[q] = len;
        return q++;
    };
    for (int i = 0; i < steps; i += stride) {
        const double len = (isl + i + 1.0 + others * ctxMean) / n;
        ask(n, len);
        if (mixedDecodes)
            ask(stepDecodes, len);
    }
    const std::size_t decodeAt = ask(n, ctxMean);
    const std::size_t mixedAt = mixedDecodes ? ask(stepDecodes, ctxMean) : 0;
    const std::size_t ownAt = ownDecodes > 0 && !ownIsMixed ? ask(ownDecodes, ctxMean) : 0;
    model.decodeAttentionManyMs(std::span(batch).first(q), std::span(kvLen).first(q),
                                std::span(ms).first(q));
    const double mixedAttention = mixedDecodes ? ms[mixedAt] : 0.0;
    e.decodeStepMs = decodeFixed + ms[decodeAt];
    e.mixedStepMs = phi > 0 ? mixedFixed + mixedAttention : 0.0;

    // TPOT: the request's own context moves as in the static integration; the batch's mean
    // KV length blends it with the others' mean. Mixed steps replace a share phi of the
    // decode steps; separate prefill steps come on top of every decode step, phi of them
    // per token.
    if (steps >= 1) {
        double attention = 0;
        std::size_t at = 0;
        for (int i = 0; i < steps; i += stride) {
            const int weight = std::min(stride, steps - i);
            double a = ms[at++];
            if (replaced > 0)
                a = (1.0 - replaced) * a + replaced * (mixedDecodes ? ms[at++] : 0.0);
            attention += weight * a;
            ++lat.decodeSamples;
        }
        lat.decode = decode;
        lat.decode.attention = attention / steps;
        lat.tpotMs = (1.0 - replaced) * decodeFixed + phi * mixedFixed + lat.decode.attention;
    }

    // TTFT: the step in progress (and the one scheduled behind it), then the request's own
    // chunks; its steps carry the chunks of every request (its own included) arriving at the
    // same rate. Per output token there are 1 - replaced decode steps and phi prefill steps.
    const double meanStepMs =
        ((1.0 - replaced) * e.decodeStepMs + phi * e.mixedStepMs) / (1.0 + (phi - replaced));
    e.arrivalWaitMs = n > 1 ? d.stepsBeforeOwnPrefill() * meanStepMs : 0.0;
    // lat.prefill holds the mixed step's breakdown when it is the own step.
    e.ownPrefillStepMs = ownIsMixed
                             ? mixedFixed
                             : model.mixedFixedMs(ownK, isl, chunkTokens, ownDecodes, &lat.prefill);
    if (ownDecodes > 0) {
        const double a = ownIsMixed ? mixedAttention : ms[ownAt];
        e.ownPrefillStepMs += a;
        lat.prefill.attention += a;
    }
    // Prefill demand above what the steps can carry stretches the cycle: the excess steps
    // are spent waiting for a prefill slot.
    if (demand > chunkRoom)
        e.backlogWaitMs = (n * chunks / chunkRoom - cycleSteps) * meanStepMs;
    const double ttftRun = e.backlogWaitMs + e.arrivalWaitMs + chunks * e.ownPrefillStepMs;
    // Benchmark warm-up: the first round's n requests arrive together and are prefilled in
    // budget-sized steps; the mean over kBenchmarkRounds rounds carries 1 / rounds of it.
    double ttftMean = ttftRun;
    if (n > 1) {
        e.warmupPrefillMs = firstWaveMeanTtftMs(model, n, isl, d);
        ttftMean = (e.warmupPrefillMs + (kBenchmarkRounds - 1.0) * ttftRun) / kBenchmarkRounds;
    }
    e.cycleMs = ttftRun + steps * lat.tpotMs;
    if (request.concurrency > n)
        e.queueWaitMs = e.cycleMs * (request.concurrency - n) / n;
    // The overhead is outside the steps: it holds no slot and does not lengthen the cycle.
    e.requestOverheadMs = d.requestOverheadMs;
    lat.ttftMs = e.queueWaitMs + ttftMean + e.requestOverheadMs;
    return e;
}

void requirePositive(const Config& config, const Request& request)
{
    if (request.isl < 1 || request.osl < 1 || config.batch < 1 || request.concurrency < 1)
        throw std::invalid_argument("isl, osl, batch and concurrency must be at least 1");
}

} // namespace

ServingEstimate estimateServing(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                const Request& request)
{
    requirePositive(config, request);
    const ServingDefaults d = servingDefaults(request, costs.platform());
    const KvCapacity kv = kvCapacity(arch, config, request, costs.platform(), d);
    if (!kv.holdsOneRequest())
        throw std::invalid_argument(kvDoesNotFitReason(kv, request));
    return estimateWithSlots(costs, arch, config, request, d, kv, kv.requestsThatFit);
}

LatencyEstimate estimateServingLatency(const OpCosts& costs, const ModelArch& arch,
                                       const Config& config, const Request& request)
{
    if (request.mode == ServingMode::Static)
        return estimateLatency(costs, arch, config, request);
    requirePositive(config, request);
    const ServingDefaults d = servingDefaults(request, costs.platform());
    const KvCapacity kv = kvCapacity(arch, config, request, costs.platform(), d);
    const int slots = kv.holdsOneRequest() ? kv.requestsThatFit : config.batch;
    return estimateWithSlots(costs, arch, config, request, d, kv, slots).latency;
}

int RunningRule::slotsAt(double totalBytes) const
{
    const double available = pool.poolBytes(freeAtZeroTotal - totalBytes);
    return static_cast<int>(std::min(std::floor(available / bytesPerRequest), 1e9));
}

int RunningRule::runningAt(double totalBytes) const
{
    const double available = pool.poolBytes(freeAtZeroTotal - totalBytes);
    const int slots = slotsAt(totalBytes);
    const bool holdsOneRequest = slots >= 1 && available >= bytesFullLength;
    return holdsOneRequest ? std::min(limit, slots) : limit;
}

RunningRule runningRule(const ModelArch& arch, const Config& config, const Request& request,
                        const Platform& platform)
{
    const ServingDefaults d = servingDefaults(request, platform);
    const double free = freeBytes(arch, config, request, platform, d);
    const KvCapacity kv = kvCapacity(arch, config, request, platform, d);
    RunningRule rule;
    rule.limit = std::min(request.concurrency, config.batch);
    rule.freeAtZeroTotal = free + estimateMemory(arch, config, request, platform).total();
    rule.pool = kvPoolLine(d, arch, platform, config.tp);
    rule.bytesPerRequest = kv.bytesPerRequest;
    rule.bytesFullLength = kv.bytesFullLength;
    return rule;
}

LatencyEstimate estimateServingAt(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                  const Request& request, int running)
{
    requirePositive(config, request);
    if (running < 1 || running > std::min(request.concurrency, config.batch))
        throw std::invalid_argument("running requests must be within 1 and min(concurrency, "
                                    "batch)");
    const ServingDefaults d = servingDefaults(request, costs.platform());
    const KvCapacity kv = kvCapacity(arch, config, request, costs.platform(), d);
    return estimateWithSlots(costs, arch, config, request, d, kv, running).latency;
}

} // namespace acsel
