// RMQD (docs/METHOD.md 2): mean over calibration tokens of KL(oracle || candidate) on m+1 bins, the
// oracle's top-m token ids plus one tail bin, from cached safetensors files.
//
// Oracle file:    topk_ids   [T, m]  I32|I64   the oracle's m most likely token ids per token
//                 topk_probs [T, m]  F32|F16|BF16  their probabilities
//                 tail_mass  [T]     F32|F16|BF16  1 - sum(topk_probs) (the rest of the vocabulary)
// Candidate file: logits     [T, V]  F32|F16|BF16  raw logits or log-probabilities (either works:
//                 (or log_probs)                   log-softmax is applied, and is idempotent)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acsel
{

class SafetensorsFile;

// The oracle's truncated distributions, renormalised so that each token's m+1 bins sum to 1.
struct OracleTopM {
    std::string file;
    int tokens = 0;
    int m = 0;
    std::vector<std::int64_t> ids; // tokens x m
    std::vector<double> probs;     // tokens x m
    std::vector<double> tail;      // tokens
    std::int64_t maxId = -1;       // the candidate's vocabulary must exceed it
};

// Reads and checks an oracle file: probabilities in [0, 1], each token's bins summing to
// 1 within 1e-2 (16-bit storage rounds), ids in range and distinct per token.
OracleTopM loadOracle(const std::string& path);

struct RmqdOptions {
    double epsilon = 1e-12; // probability clamp for the candidate's bins
};

struct RmqdResult {
    double rmqd = 0.0;       // nats
    int tokens = 0;          // calibration tokens used
    int m = 0;               // oracle bins (plus one tail bin)
    std::int64_t vocab = 0;  // candidate vocabulary size
    double maxTokenKl = 0.0; // the worst token, to spot a broken dump
    int maxToken = 0;
};

// KL(p || q) for one token. p: the oracle's m probabilities and tail; q: the candidate's
// distribution from a row of `vocab` logits, collapsed onto the oracle's ids plus the rest.
// Stable: max-shifted log-sum-exp in double, log q clamped at log(epsilon). No allocation.
double tokenKl(const double* p, double pTail, const std::int64_t* ids, int m, const float* logits,
               std::int64_t vocab, double epsilon);

RmqdResult computeRmqd(const OracleTopM& oracle, SafetensorsFile& candidate,
                       RmqdOptions options = {});
RmqdResult computeRmqd(const std::string& oraclePath, const std::string& candidatePath,
                       RmqdOptions options = {});

} // namespace acsel
