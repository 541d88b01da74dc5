// Engine launch settings for an exported configuration: the vLLM, SGLang and TensorRT-LLM
// command lines (and TensorRT-LLM's options file) that serve the quantized checkpoint at the
// request's workload, with the limits the latency model assumed (docs/EXPORT.md, "Serving the
// checkpoint"). Templates: each names the engine version it was written for and what to check.
#pragma once

#include "core/export/exportinput.h"
#include "core/latency/enginememory.h"
#include "core/model/backend.h"

#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

struct LaunchSettings {
    Backend engine = Backend::Vllm;
    std::string command;            // one shell command line, continued with " \\\n  "
    std::string optionsFile;        // file name of the options file the command names, or empty
    std::string optionsText;        // its text
    std::vector<std::string> notes; // what the settings assume and what to check
    EngineMemory memory;            // what the engine takes at the memory flag printed
};

// What the engine loads: the base model's Hugging Face id when the configuration quantizes no
// weight (its recipe changes nothing ModelOpt exports), else the folder `export` names
// (exportFolder).
std::string servedModel(const ExportInput& in);

// The settings serving `checkpointDir` (servedModel, unless the user names another) for the
// request: context length isl + osl, at most Config::batch sequences, the KV-cache format, the
// quantization flag the checkpoint's formats need, the step token budget the latency model
// assumed for that engine on `gpu` (servingDefaults), and the memory flag whose KV pool holds
// the configuration's KV (engineMemory; memory.loads() false: no flag does within the budget).
LaunchSettings launchSettings(Backend e, const ExportInput& in, const Platform& gpu,
                              std::string_view checkpointDir);

// The memory flag as the launch command sets it: "--gpu-memory-utilization 0.99".
std::string memoryFlagText(const EngineMemory& m);
// What the engine takes at that flag, as the outputs show it beside the memory estimate:
// "79.20 GiB at --gpu-memory-utilization 0.99".
std::string engineMemoryText(const EngineMemory& m);

// Empty when the configuration quantizes some weight; else says that it quantizes nothing (every
// layer and the lm_head bf16) or only the KV cache, so that its recipe is a no-op for the weights.
std::string nothingQuantizedNote(const Config& c, int numLayers);

// The settings as a commented bash script that stops at the first failing command (the
// options file, if any, as a here-document).
std::string launchScript(const LaunchSettings& s, const ExportInput& in);

} // namespace acsel
