#include "core/export/launch.h"

#include "core/export/exporter.h"
#include "core/export/hfquantconfig.h"
#include "core/export/quantplan.h"
#include "core/latency/memorymodel.h"
#include "core/latency/servingmodel.h"

#include <algorithm>
#include <cstdio>

namespace acsel
{

namespace
{

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// The hf_quant_config quant_algo the checkpoint will name ("MIXED_PRECISION" for several).
std::string checkpointAlgo(const std::vector<Format>& formats)
{
    return formats.size() == 1 ? std::string(hfQuantAlgo(formats.front())) : "MIXED_PRECISION";
}

// vLLM's and SGLang's ModelOpt loaders as their docs describe them for the versions named: FP8
// variants and NVFP4; a mixed checkpoint has its own method name in vLLM.
std::optional<std::string> quantizationFlag(Backend e, const std::vector<Format>& formats)
{
    const auto only = [&formats](std::initializer_list<Format> allowed) {
        return std::all_of(formats.begin(), formats.end(), [&](Format f) {
            return std::find(allowed.begin(), allowed.end(), f) != allowed.end();
        });
    };
    if (formats.empty() || e == Backend::TrtLlm)
        return std::nullopt;
    if (formats.size() > 1)
        return e == Backend::Vllm ? std::optional<std::string>("modelopt_mixed") : std::nullopt;
    if (only({Format::Nvfp4}))
        return std::string("modelopt_fp4");
    if (only({Format::Fp8, Format::Fp8Block}))
        return std::string(e == Backend::Vllm ? "modelopt" : "modelopt_fp8");
    return std::nullopt;
}

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", bytes / kGiB);
    return buf;
}

// What the memory flag of each engine is a share of.
std::string memoryShareMeaning(KvPoolRule rule)
{
    switch (rule) {
    case KvPoolRule::ShareOfFree:
        return " of the memory left after the weights for the KV cache";
    case KvPoolRule::ShareOfDevice:
        return " of the device memory for the whole engine";
    case KvPoolRule::StaticShareOfDevice:
        break;
    }
    return " of the device memory for the weights and the KV cache";
}

// The memory flag's arithmetic: what the engine takes at it and what its KV pool holds.
std::string memoryNote(const EngineMemory& m, const Platform& gpu)
{
    return memoryFlagText(m) + memoryShareMeaning(info(m.backend).kvPool) + " on " + gpu.id + " (" +
           gib(m.capacityBytes) + " GiB): the engine takes " + gib(m.totalBytes) +
           " GiB = weights " + gib(m.weightBytes) + " + runtime " + gib(m.runtimeBytes) +
           " + step activations " + gib(m.activationBytes) + " + KV pool " + gib(m.poolBytes) +
           " GiB, holding the KV of " + std::to_string(m.kvRequests) +
           (m.kvRequests == 1 ? " request (" : " requests (") + gib(m.kvBytes) +
           " GiB), against the limit " + gib(m.limitBytes) + " GiB";
}

} // namespace

std::string servedModel(const ExportInput& in)
{
    const bool quantizesWeights = !quantizedFormats(planOf(in.config, in.arch.layers)).empty();
    return quantizesWeights ? exportFolder(in.arch) : in.arch.hfId;
}

LaunchSettings launchSettings(Backend e, const ExportInput& in, const Platform& gpu,
                              std::string_view checkpointDir)
{
    const QuantPlan plan = planOf(in.config, in.arch.layers);
    const std::vector<Format> formats = quantizedFormats(plan);
    const ServingDefaults d = servingDefaults(toString(e), gpu);
    const Request& q = in.request;
    const std::string dir(checkpointDir);
    const std::string maxLen = std::to_string(q.isl + q.osl);
    const std::string seqs = std::to_string(in.config.batch);
    const std::string tokens = number(d.stepTokenBudget);
    const EngineMemory mem = engineMemory(e, in.arch, in.config, q, gpu);
    const std::string memFlag = memoryFlagText(mem);
    const bool kvFp8 = plan.kv == KvFormat::Fp8;
    const std::string next = " \\\n  ";

    LaunchSettings s;
    s.engine = e;
    s.memory = mem;
    const auto flag = quantizationFlag(e, formats);
    switch (e) {
    case Backend::Vllm:
        s.command = "vllm serve " + dir + next + "--max-model-len " + maxLen + next +
                    "--max-num-seqs " + seqs + next + "--max-num-batched-tokens " + tokens + next +
                    memFlag;
        if (kvFp8)
            s.command += next + "--kv-cache-dtype fp8";
        if (flag)
            s.command += next + "--quantization " + *flag;
        break;
    case Backend::Sglang:
        s.command = "python3 -m sglang.launch_server --model-path " + dir + next +
                    "--context-length " + maxLen + next + "--max-running-requests " + seqs + next +
                    "--chunked-prefill-size " + tokens + next + memFlag;
        if (kvFp8)
            s.command += next + "--kv-cache-dtype fp8_e4m3";
        if (flag)
            s.command += next + "--quantization " + *flag;
        break;
    case Backend::TrtLlm:
        s.optionsFile = "extra_llm_api_options.yaml";
        s.command = "trtllm-serve " + dir + " --backend pytorch" + next + "--max_seq_len " +
                    maxLen + next + "--max_batch_size " + seqs + next + "--max_num_tokens " +
                    tokens + next + memFlag + next + "--extra_llm_api_options " + s.optionsFile;
        s.optionsText = std::string("# TensorRT-LLM LLM API options (written for ") +
                        std::string(info(e).templateVersion) +
                        ")\nenable_chunked_prefill: " + (d.chunkedPrefill ? "true" : "false") +
                        "\nkv_cache_config:\n  dtype: " + (kvFp8 ? "fp8" : "auto") + "\n";
        break;
    }
    if (in.config.tp > 1) // the model split over tp GPUs of the node
        s.command += next +
                     (e == Backend::Vllm     ? "--tensor-parallel-size "
                      : e == Backend::Sglang ? "--tp "
                                             : "--tp_size ") +
                     std::to_string(in.config.tp);
    if (in.arch.isMoe() && in.config.moeEp > 1) { // experts split over moe_ep GPUs
        const std::string ep = std::to_string(in.config.moeEp);
        if (e == Backend::Vllm) {
            // vLLM's expert-parallel size is the tensor-parallel size: no partial split.
            s.command += next + "--enable-expert-parallel";
            if (in.config.moeEp != in.config.tp)
                s.notes.push_back("vLLM splits the experts over all " +
                                  std::to_string(in.config.tp) + " GPUs with " +
                                  "--enable-expert-parallel, not over " + ep +
                                  " as this configuration assumed");
        } else {
            s.command += next + (e == Backend::Sglang ? "--ep-size " : "--ep_size ") + ep;
        }
    }

    s.notes.push_back("a template written for " + std::string(toString(e)) + " " +
                      std::string(info(e).templateVersion) +
                      ": check every flag against the --help of the version you run");
    if (formats.empty())
        s.notes.push_back(nothingQuantizedNote(in.config, in.arch.layers) +
                          " (no quantization flag)");
    else
        s.notes.push_back("the checkpoint's hf_quant_config.json names quant_algo " +
                          checkpointAlgo(formats) + "; the engine reads it from " + dir);
    if (!formats.empty() && e != Backend::TrtLlm && !flag)
        s.notes.push_back("no " + std::string(toString(e)) + " " +
                          std::string(info(e).templateVersion) +
                          " ModelOpt loading method is known for " + checkpointAlgo(formats) +
                          ": check that your version loads it, or serve it with TensorRT-LLM");
    else if (flag && *flag == "modelopt_mixed")
        s.notes.push_back("--quantization modelopt_mixed: per-layer formats from the checkpoint's "
                          "quantized_layers; check that your vLLM version has it");
    s.notes.push_back("limits as the prediction assumed: context " + maxLen + " tokens (isl " +
                      std::to_string(q.isl) + " + osl " + std::to_string(q.osl) + "), at most " +
                      seqs + " sequences (the configuration's batch), " + tokens +
                      " tokens per step");
    s.notes.push_back(memoryNote(mem, gpu));
    return s;
}

std::string memoryFlagText(const EngineMemory& m)
{
    return std::string(info(m.backend).memoryFlag) + " " + number(m.flag);
}

std::string engineMemoryText(const EngineMemory& m)
{
    return gib(m.totalBytes) + " GiB at " + memoryFlagText(m);
}

std::string nothingQuantizedNote(const Config& c, int numLayers)
{
    const QuantPlan plan = planOf(c, numLayers);
    if (!quantizedFormats(plan).empty())
        return {};
    std::string note = "this configuration quantizes nothing: every layer and the lm_head stay "
                       "bf16, so serve the original checkpoint";
    if (plan.kv == KvFormat::Fp8)
        note += "; only the KV cache is fp8 (without calibrated scales the engine uses its "
                "default scale)";
    return note;
}

std::string launchScript(const LaunchSettings& s, const ExportInput& in)
{
    std::string out = "#!/usr/bin/env bash\n# " + std::string(toString(s.engine)) +
                      " launch settings for " + in.arch.name + ": " +
                      in.config.recipe.describe(in.arch.isMoe()) + "\n";
    for (const std::string& n : s.notes)
        out += "# - " + n + "\n";
    if (!in.predictionNote.empty()) // where the predictions it was chosen on come from
        out += "# - predictions: " + in.predictionNote + "\n";
    out += "set -euo pipefail\n";
    if (!s.optionsFile.empty())
        out += "cat > " + s.optionsFile + " <<'EOF'\n" + s.optionsText + "EOF\n";
    return out + s.command + "\n";
}

} // namespace acsel
