// The capacity gap of the demo data: RMQD of a bf16 model against its family's oracle.
//
// The paper scores every candidate against one shared oracle per family (Llama-3.1-405B for
// Llama-3.x, Qwen3-235B-A22B for Qwen3), so a bf16 model's RMQD is KL(oracle || model), not ~0.
// No cross-size KLD figure exists in ../shared/quality, so the gap is an ASSUMPTION:
//   gap(N) = A (N^-alpha - N_oracle^-alpha),  A = 406.4, alpha = 0.34
// the difference of the parameter terms of the Chinchilla loss law (Hoffmann et al. 2022,
// L(N, D) = E + A/N^alpha + B/D^beta). It reads KL(oracle || model) as the reducible loss the
// model has beyond the oracle ("nested" errors). The data term B/D^beta cancels because every
// member of a family, oracle included, saw the same token budget (Llama 3.1 15T, Qwen3 36T).
// The Qwen3 oracle is a mixture of experts: its N_oracle is a dense-equivalent 110B (= 5 x 22B
// active, after the Qwen3 report's claim that its MoE base models match dense ones with 1/5 of
// the activated parameters), also an ASSUMPTION. See docs/QUALITY.md 5 for what it implies.
#pragma once

#include "core/model/modelarch.h"

#include <span>
#include <string_view>

namespace acsel
{

struct FamilyOracle {
    std::string_view family;      // ModelArch::family
    std::string_view name;        // the paper's oracle
    double params;                // parameters (total for an MoE)
    double denseEquivalentParams; // N_oracle in the law above
    std::string_view basis;
};

inline constexpr double kChinchillaA = 406.4;
inline constexpr double kChinchillaAlpha = 0.34;

// nullptr when no oracle is known for the family.
const FamilyOracle* findFamilyOracle(std::string_view family);
std::span<const FamilyOracle> familyOracles();

// A / N^alpha: the parameter-limited part of the Chinchilla loss, nats per token.
double chinchillaParamLoss(double params);

// gap(N) above for the model's derived parameter count. Throws std::invalid_argument naming the
// model when its family has no oracle or the model is not smaller than the oracle.
double capacityGapNats(const ModelArch& model);

} // namespace acsel
