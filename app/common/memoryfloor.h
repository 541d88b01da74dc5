// Why nothing fits when memory rules out every configuration: the memory one GPU needs for the
// lightest configuration of a request's space (the smallest format and scope, batch and KV
// format the space allows, each model split over the most GPUs the request has), against the
// memory budget per GPU, with its parts (the weights alone may exceed it) and over how many
// GPUs of one node it would fit. The nearest miss (core/search/nearestmiss.h) says which budget
// binds; this says why none does. acsel search and recommend print the sentence under the
// nearest miss, the window's card under its text.
#pragma once

#include "core/latency/memorymodel.h"
#include "core/model/format.h"
#include "core/search/searcher.h"

#include <optional>
#include <string>

namespace acsel::app
{

struct MemoryFloor {
    std::string model;
    Format format = Format::Bf16;
    Scope scope = Scope::Full;
    bool moe = false; // the model has experts: the MLP scope reads "experts"
    int batch = 1;
    KvFormat kv = KvFormat::Bf16;
    int tp = 1;              // the largest degree the request allows that model
    MemoryEstimate estimate; // on one of its tp GPUs, as the gate counts it
    double budgetBytes = 0;  // per GPU: min(memory budget, the GPU's memory)
    // The fewest GPUs of one node (a degree the model's heads and the stack's all-reduce data
    // allow, up to kMaxGpus) over which some model's lightest configuration fits the budget,
    // that model and its memory there; nullopt when no degree does.
    std::optional<int> fitsAtTp;
    std::string fitsAtModel;
    double fitsAtBytes = 0;

    double weightBytes() const
    {
        return estimate.weightBytes + estimate.embeddingBytes + estimate.lmHeadBytes;
    }
};

// The lightest configuration when even it exceeds the budget of `gated` (the budgets the gate
// compares: after any margin); nullopt when it fits, or when the space has no model the
// request can run. Throws std::invalid_argument for an unknown stack.
std::optional<MemoryFloor> memoryFloor(const Engine& e, const Request& gated,
                                       const SearchOptions& o);

// "memory rules out every configuration: the lightest, Llama-3.1-70B, batch 16, fp8/full, KV
// bf16, split over 1 GPU (tp 1), needs 80.17 GiB per GPU (weights 67.67, KV cache 6.25,
// activations 2.75, runtime 3.50 GiB) against 80.00 GiB per GPU; split over 2 GPUs (tp 2) it
// needs 41.71 GiB", saying "the weights alone exceed the budget" when they do.
std::string memoryFloorText(const MemoryFloor& f);

} // namespace acsel::app
