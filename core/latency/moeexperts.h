// How many routed experts a step touches, and the cost of an MoE block as one GEMM per touched
// expert (docs/LATENCY.md, "Mixture of experts"): the model of the MoE block where no measured
// fused-MoE table covers the shape (spec-only GPUs, shapes a stack's table lacks).
#pragma once

#include "core/latency/opcosts.h"

namespace acsel
{

// The expected number of distinct experts, out of `experts`, that `tokens` tokens hit when
// each token picks `topk` distinct experts uniformly at random, independently of the others.
// One token misses a given expert with probability C(E-1, k) / C(E, k) = 1 - k / E; B tokens
// all miss it with probability (1 - k / E)^B; by linearity of expectation over the E experts
//   E[distinct] = E (1 - (1 - k / E)^B).
// tokens may be fractional (a steady-state mean batch); 0 tokens touch no expert.
double expectedDistinctExperts(double experts, double topk, double tokens);

// One GPU's routed experts over `tokens` tokens as GEMMs: each of the D experts it holds that
// the tokens are expected to touch, D = expectedDistinctExperts(E, k, tokens) / moeEp, runs
// gate/up (m x 2 I' x h) and down (m x h x I') on its m = tokens k / moeEp / D routed tokens
// (I' = I / moeTp), so decode reads the weights of every touched expert, not only topk of
// them; plus two memory-bound passes: SiLU x mul over the routed tokens' I' columns
// (6 I' bytes per routed token) and the permute and weighted combine of their hidden vectors
// (2 x 4 h bytes per routed token).
double moeGemmsMs(const OpCosts& costs, Format f, double tokens, const MoeShape& s);

} // namespace acsel
