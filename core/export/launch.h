// Engine launch settings for an exported configuration: the vLLM, SGLang and TensorRT-LLM
// command lines (and TensorRT-LLM's options file) that serve the quantized checkpoint at the
// request's workload, with the limits the latency model assumed (docs/EXPORT.md, "Serving the
// checkpoint"). Templates: each names the engine version it was written for and what to check.
#pragma once

#include "core/export/exportinput.h"
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
};

// The settings serving `checkpointDir` (ModelOpt's export of the configuration) for the
// request: context length isl + osl, at most Config::batch sequences, the KV-cache format, the
// quantization flag the checkpoint's formats need, and the step token budget and memory flag
// the latency and memory models assumed for that engine on `gpu` (servingDefaults).
LaunchSettings launchSettings(Backend e, const ExportInput& in, const Platform& gpu,
                              std::string_view checkpointDir);

// Empty when the configuration quantizes some weight; else says that it quantizes nothing (every
// layer and the lm_head bf16) or only the KV cache, so that its recipe is a no-op for the weights.
std::string nothingQuantizedNote(const Config& c, int numLayers);

// The settings as a commented shell script (the options file, if any, as a here-document).
std::string launchScript(const LaunchSettings& s, const ExportInput& in);

} // namespace acsel
