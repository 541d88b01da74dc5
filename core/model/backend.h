// The serving backends (engines) a stack runs on, and the one table describing each: its name
// in stack ids and files, the release the launch templates were written for, the flag that
// sizes its memory and how that flag sizes the KV pool, and the scheduling defaults the
// serving model assumes (docs/SERVING.md lists the sources). Every other part of the tool
// reads a backend's name and facts from here.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace acsel
{

enum class Backend : std::uint8_t { TrtLlm, Vllm, Sglang };

// How an engine sizes its KV pool from the device memory C, the weights W (embeddings and
// lm_head included), the runtime R and the step activations A, at its memory flag f.
enum class KvPoolRule : std::uint8_t {
    // TRT-LLM's free_gpu_memory_fraction f: f x (C - W - R - A), a share of what is left.
    ShareOfFree,
    // vLLM's gpu_memory_utilization f: the engine may use f x C in all, so f x C - W - R - A.
    ShareOfDevice,
    // SGLang's mem_fraction_static f: weights and KV pool take f x C, so f x C - W - R; the
    // rest of C is the engine's reserve for activations and CUDA graphs.
    StaticShareOfDevice,
};

struct BackendInfo {
    Backend backend;
    std::string_view name;            // in stack ids and files: "vllm"
    std::string_view title;           // for people: "vLLM"
    std::string_view templateVersion; // the release the launch command was written for
    std::string_view memoryFlag;      // the launch flag sizing the engine's memory
    KvPoolRule kvPool;                // what that flag is a share of
    double defaultMemoryFlag;         // its default (SGLang's depends on the GPU: 0 here)
    // true: prompts longer than the step budget's free part are split by default.
    bool chunkedPrefill;
    // true: a request reserves KV for isl + osl tokens when admitted (TRT-LLM's
    // GUARANTEED_NO_EVICT); false: pages are taken as tokens arrive.
    bool reservesFullLength;
    // true: prefill chunks ride in the decode steps; false: a step carries prefills or
    // decodes, never both (SGLang's default, enable_mixed_chunk off).
    bool mixesPrefillAndDecode;
    bool pythonRuntime; // the engine's host process is Python (vLLM, SGLang)
};

inline constexpr int kBackendCount = 3;
inline constexpr std::array<BackendInfo, kBackendCount> kBackends = {{
    {Backend::TrtLlm, "trtllm", "TensorRT-LLM", "1.3.0rc20", "--kv_cache_free_gpu_memory_fraction",
     KvPoolRule::ShareOfFree, 0.9, false, true, true, false},
    {Backend::Vllm, "vllm", "vLLM", "0.24.0", "--gpu-memory-utilization", KvPoolRule::ShareOfDevice,
     0.9, true, false, true, true},
    {Backend::Sglang, "sglang", "SGLang", "0.5.14", "--mem-fraction-static",
     KvPoolRule::StaticShareOfDevice, 0.0, true, false, false, true},
}};

const BackendInfo& info(Backend b);
inline std::string_view toString(Backend b)
{
    return info(b).name;
}
std::optional<Backend> parseBackend(std::string_view name);
// "trtllm, vllm, sglang": the names, for messages and --help.
std::string backendNames();

} // namespace acsel
