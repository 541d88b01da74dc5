// Tensor parallelism within one node (docs/LATENCY.md, "Tensor parallelism"): what one of the
// tp GPUs of a configuration holds and computes. Megatron-style split, as vLLM, SGLang and
// TRT-LLM run dense decoders: q, k, v and gate/up are split by output columns, o_proj and
// down by input rows, attention by heads; a GPU keeps at least one KV head (with fewer KV
// heads than GPUs each KV head is replicated); the embedding table and lm_head are split by
// vocabulary rows; norms are replicated.
#pragma once

#include "core/model/modelarch.h"

#include <string>

namespace acsel
{

// The largest tensor-parallel degree (and GPU count of a request): one node of 8 GPUs.
inline constexpr int kMaxGpus = 8;

struct TpShard {
    int tp = 1;
    int heads = 0;           // query heads per GPU: heads / tp
    int kvHeads = 0;         // KV heads per GPU: max(1, ceil(kvHeads / tp))
    double intermediate = 0; // MLP columns per GPU: intermediate / tp
    double vocab = 0;        // embedding and lm_head rows per GPU: vocab / tp
    double qkvColumns = 0;   // (heads + 2 kvHeads) x headDim per GPU
    double attnOut = 0;      // heads x headDim per GPU: o_proj's input rows
    // Linear weights of one layer on one GPU (q, k, v, o and gate, up, down).
    double attnLinearParams = 0;
    double mlpLinearParams = 0;
};

TpShard shardOf(const ModelArch& arch, int tp);

// Empty when tp is a legal degree for the model: a power of two from 1 to kMaxGpus that
// divides the attention heads; else why not ("tp 3 is not a power of two ...").
std::string tpProblem(const ModelArch& arch, int tp);

} // namespace acsel
