// Tensor parallelism within one node (docs/LATENCY.md, "Tensor parallelism"): what one of the
// tp GPUs of a configuration holds and computes. Megatron-style split, as vLLM, SGLang and
// TRT-LLM run dense decoders: q, k, v and gate/up are split by output columns, o_proj and
// down by input rows, attention by heads; a GPU keeps at least one KV head (with fewer KV
// heads than GPUs each KV head is replicated); the embedding table and lm_head are split by
// vocabulary rows; norms are replicated.
//
// Mixture of experts: the routed experts of an MoE layer are split over the same tp GPUs as
// moeTp x moeEp = tp (AIConfigurator's and TRT-LLM's moe_tp_size / moe_ep_size): expert
// parallelism gives each GPU experts / moeEp whole experts, expert TP splits each of them by
// its intermediate columns over moeTp GPUs. The router (hidden x experts) is replicated; a
// shared expert is split as a dense MLP.
#pragma once

#include "core/model/modelarch.h"

#include <functional>
#include <string>
#include <vector>

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
    // MoE layers (zero for a dense model).
    int moeTp = 1, moeEp = 1;
    double localExperts = 0;       // routed experts per GPU: experts / moeEp
    double expertIntermediate = 0; // columns of one expert per GPU: expertIntermediate / moeTp
    double sharedIntermediate = 0; // shared expert columns per GPU: sharedIntermediate / tp
    // Linear weights of one MoE layer's experts on one GPU: the local routed experts and the
    // shared expert's share; the router is not in it (routerParams, on every GPU).
    double moeLinearParams = 0;
};

// moeEp: the expert-parallel degree (1: every GPU holds every expert, split by expert TP).
TpShard shardOf(const ModelArch& arch, int tp, int moeEp = 1);

// Empty when tp is a legal degree for the model: a power of two from 1 to kMaxGpus that
// divides the attention heads; else why not ("tp 3 is not a power of two ...").
std::string tpProblem(const ModelArch& arch, int tp);

// The legal degrees (tpProblem) from 1 up to `gpus` that `costed` accepts, ascending: what a
// request with that many GPUs can split the model over.
std::vector<int> tpDegrees(const ModelArch& arch, int gpus, const std::function<bool(int)>& costed);

// Empty when moeEp is a legal expert-parallel degree at tp: 1 for a dense model; for an MoE
// model a divisor of tp that divides the experts; else why not.
std::string moeEpProblem(const ModelArch& arch, int tp, int moeEp);

} // namespace acsel
