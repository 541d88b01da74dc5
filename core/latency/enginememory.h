// What a serving engine allocates on the device when `acsel launch` starts it for a
// configuration, and the memory flag the launch sets (docs/SERVING.md, "Engine memory"):
//  - the weights W (decoder layers, embeddings, lm_head: estimateStaticMemory's terms), the
//    runtime R (the platform's misc.other_mem: CUDA context, CUDA graphs, allocator slack) and
//    the step activations A at the step token budget the launch sets (the engine profiles a
//    step of that many tokens before it sizes its KV pool);
//  - the KV the pool must hold, K: static batching, min(concurrency, batch) requests of
//    isl + osl tokens; continuous, the n requests the serving model runs at once
//    (RunningRule), each of the tokens it holds on that engine, and at least one request to
//    its end;
//  - the flag, the smallest multiple of 0.001 whose pool holds K, by the engine's rule
//    (KvPoolRule): vLLM u = (W + R + A + K) / C (the engine takes u C in all); SGLang
//    f = (W + R + K) / C (weights and pool take f C, the step's activations come on top);
//    TRT-LLM f = K / (C - W - R - A) (a share of what is left after the weights and the
//    activations; the engine takes W + R + A + f (C - W - R - A)).
// The configuration loads when the flag is at most 1 and the engine's total at that flag is
// within min(memory budget, C): what the gate admits and what the printed command sizes.
#pragma once

#include "core/model/backend.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/platform.h"

#include <string>

namespace acsel
{

// The launch flags' resolution: SGLang rounds its own default to 3 decimals too.
inline constexpr double kMemoryFlagStep = 0.001;

struct EngineMemory {
    Backend backend = Backend::Vllm;
    double capacityBytes = 0;   // C
    double limitBytes = 0;      // min(memory budget, C)
    double weightBytes = 0;     // W
    double runtimeBytes = 0;    // R
    double activationBytes = 0; // A
    int kvRequests = 0;         // requests the pool holds (static: min(concurrency, batch))
    double kvBytes = 0;         // K
    double flag = 0;            // the memory flag's value (info(backend).memoryFlag)
    double poolBytes = 0;       // the KV pool the engine sizes at `flag` (>= K)
    double totalBytes = 0;      // what the engine takes at `flag`
    bool loads() const { return flag <= 1.0 && totalBytes <= limitBytes; }
};

EngineMemory engineMemory(Backend b, const ModelArch& arch, const Config& config,
                          const Request& request, const Platform& platform);

// m with weights W = weightBytes, its other terms kept, and the flag, pool and total its
// backend's rule gives them: what engineMemory gives a configuration that differs from m's in
// its weights alone. The total is non-decreasing in W wherever the flag is at most 1 (TRT-LLM:
// W + flag x (C - W - ...) grows with slope 1 - flag between the flag's steps), and at most
// W + R + A + K + kMemoryFlagStep x C (the flag rounds its share up by less than one step).
EngineMemory withWeights(EngineMemory m, double weightBytes);

// Empty when m.loads(); else one sentence: the flag the pool needs and what the engine
// would take against the limit.
std::string engineMemoryProblem(const EngineMemory& m);

} // namespace acsel
