// Engine launch settings: the flags follow the request's workload (isl + osl, the batch), the
// KV format and the checkpoint's formats, each worked out by hand from the configuration.
#include "core/export/exporter.h"
#include "core/export/launch.h"
#include "test_export_fixtures.h"
#include "testmain.h"

#include <cstdio>

using namespace exporttest;

namespace
{

bool has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

bool anyNote(const acsel::LaunchSettings& s, const std::string& part)
{
    for (const std::string& n : s.notes)
        if (has(n, part))
            return true;
    return false;
}

// The GPU of the export fixtures' stack, as its system.yaml gives it (80 GiB).
Platform h100()
{
    Platform p;
    p.id = "h100_sxm";
    p.memCapacityBytes = 80.0 * 1024 * 1024 * 1024;
    return p;
}

ExportInput uniformInput(Format f, KvFormat kv)
{
    ExportInput in = acceptanceInput();
    in.config = makeConfig(36, {}, {{f, Scope::Full}}, Algorithm::Max, kv, false, 16);
    in.config.model = workspaceModelIndex("Qwen3-8B");
    return in;
}

} // namespace

class TestLaunch : public QObject
{
    Q_OBJECT
private slots:
    void workloadLimitsFromTheRequest();
    void quantizationFlagFollowsTheFormats();
    void allBf16QuantizesNothing();
    void trtllmOptionsFile();
    void tensorParallelFlag();
    void expertParallelFlags();
    void servesWhatExportWrites();
    void scriptStopsAtTheFirstFailure();
};

void TestLaunch::workloadLimitsFromTheRequest()
{
    // isl 1024 + osl 256 = 1280 tokens of context; batch 8; fp8 KV; the step token budget of
    // the latency model (8192); the memory flag from the engine memory (test_enginememory).
    const ExportInput in = acceptanceInput();
    const auto v = launchSettings(Backend::Vllm, in, h100(), "Qwen3-8B-acsel");
    QVERIFY(has(v.command, "vllm serve Qwen3-8B-acsel"));
    QVERIFY(has(v.command, "--max-model-len 1280"));
    QVERIFY(has(v.command, "--max-num-seqs 8"));
    QVERIFY(has(v.command, "--max-num-batched-tokens 8192"));
    char flag[64];
    std::snprintf(flag, sizeof flag, "--gpu-memory-utilization %g", v.memory.flag);
    QVERIFY(has(v.command, flag));
    QVERIFY(v.memory.loads());
    QVERIFY(has(v.command, "--kv-cache-dtype fp8"));
    const auto s = launchSettings(Backend::Sglang, in, h100(), "ckpt");
    QVERIFY(has(s.command, "--model-path ckpt"));
    QVERIFY(has(s.command, "--context-length 1280"));
    QVERIFY(has(s.command, "--max-running-requests 8"));
    QVERIFY(has(s.command, "--kv-cache-dtype fp8_e4m3"));
    // SGLang on 80 GiB: chunks of 8,192.
    QVERIFY(has(s.command, "--chunked-prefill-size 8192"));
    QVERIFY(anyNote(s, "of the device memory for the weights and the KV cache on h100_sxm"));
    QVERIFY(anyNote(v, "of the device memory for the whole engine on h100_sxm (80.00 GiB): the "
                       "engine takes"));
    const auto t = launchSettings(Backend::TrtLlm, in, h100(), "ckpt");
    QVERIFY(has(t.command, "--max_seq_len 1280"));
    QVERIFY(has(t.command, "--max_batch_size 8"));
    QVERIFY(has(t.command, "--max_num_tokens 8192"));
    QVERIFY(anyNote(t, "of the memory left after the weights for the KV cache"));
    // A 48 GiB GPU: vLLM's API server takes 2,048 tokens a step, SGLang chunks of 4,096.
    Platform l40s = h100();
    l40s.id = "l40s";
    l40s.memCapacityBytes = 48.0 * 1024 * 1024 * 1024;
    QVERIFY(has(launchSettings(Backend::Vllm, in, l40s, "ckpt").command,
                "--max-num-batched-tokens 2048"));
    const auto small = launchSettings(Backend::Sglang, in, l40s, "ckpt");
    QVERIFY(has(small.command, "--chunked-prefill-size 4096"));
    // bf16 KV: no KV flag.
    const auto b =
        launchSettings(Backend::Vllm, uniformInput(Format::Fp8, KvFormat::Bf16), h100(), "ckpt");
    QVERIFY(!has(b.command, "--kv-cache-dtype"));
    QVERIFY(has(b.command, "--max-num-seqs 16"));
}

void TestLaunch::quantizationFlagFollowsTheFormats()
{
    const auto flag = [](Format f, Backend e) {
        return launchSettings(e, uniformInput(f, KvFormat::Bf16), h100(), "ckpt").command;
    };
    QVERIFY(flag(Format::Fp8, Backend::Vllm).ends_with("--quantization modelopt"));
    QVERIFY(has(flag(Format::Nvfp4, Backend::Vllm), "--quantization modelopt_fp4"));
    QVERIFY(has(flag(Format::Fp8, Backend::Sglang), "--quantization modelopt_fp8"));
    QVERIFY(has(flag(Format::Nvfp4, Backend::Sglang), "--quantization modelopt_fp4"));
    // TensorRT-LLM reads hf_quant_config.json: no flag.
    QVERIFY(!has(flag(Format::Fp8, Backend::TrtLlm), "quantization"));
    // fp8 + nvfp4 bands: a mixed checkpoint.
    const auto mixed = launchSettings(Backend::Vllm, acceptanceInput(), h100(), "ckpt");
    QVERIFY(has(mixed.command, "--quantization modelopt_mixed"));
    QVERIFY(anyNote(mixed, "quant_algo MIXED_PRECISION"));
    // int4 AWQ: no vLLM ModelOpt method known: no flag, and a note that says so.
    const auto awq = launchSettings(
        Backend::Vllm,
        [] {
            ExportInput in = uniformInput(Format::Int4Wo, KvFormat::Bf16);
            in.config.algorithm = Algorithm::Awq;
            return in;
        }(),
        h100(), "ckpt");
    QVERIFY(!has(awq.command, "--quantization"));
    QVERIFY(anyNote(awq, "W4A16_AWQ: check that your version loads it"));
}

void TestLaunch::allBf16QuantizesNothing()
{
    for (const BackendInfo& b : kBackends) {
        const Backend e = b.backend;
        const auto s =
            launchSettings(e, uniformInput(Format::Bf16, KvFormat::Bf16), h100(), "ckpt");
        QVERIFY(anyNote(s, "quantizes nothing"));
        QVERIFY(!has(s.command, "--quantization"));
    }
    const auto kv =
        launchSettings(Backend::Vllm, uniformInput(Format::Bf16, KvFormat::Fp8), h100(), "ckpt");
    QVERIFY(anyNote(kv, "only the KV cache is fp8"));
    QVERIFY(!nothingQuantizedNote(uniformInput(Format::Bf16, KvFormat::Bf16).config, 36).empty());
    QVERIFY(nothingQuantizedNote(uniformInput(Format::Fp8, KvFormat::Bf16).config, 36).empty());
    QVERIFY(nothingQuantizedNote(acceptanceInput().config, 36).empty());
}

void TestLaunch::trtllmOptionsFile()
{
    const auto fp8 = launchSettings(Backend::TrtLlm, acceptanceInput(), h100(), "ckpt");
    QCOMPARE(fp8.optionsFile, std::string("extra_llm_api_options.yaml"));
    QVERIFY(has(fp8.command, "--extra_llm_api_options extra_llm_api_options.yaml"));
    QVERIFY(has(fp8.optionsText, "kv_cache_config:\n  dtype: fp8\n"));
    // TensorRT-LLM's default: chunked prefill off (docs/SERVING.md).
    QVERIFY(has(fp8.optionsText, "enable_chunked_prefill: false\n"));
    const auto bf16 =
        launchSettings(Backend::TrtLlm, uniformInput(Format::Fp8, KvFormat::Bf16), h100(), "ckpt");
    QVERIFY(has(bf16.optionsText, "dtype: auto\n"));
    const std::string script = launchScript(fp8, acceptanceInput());
    QVERIFY(has(script, "cat > extra_llm_api_options.yaml <<'EOF'\n"));
    QVERIFY(has(script, "# - a template written for trtllm 1.3.0rc20"));
}

void TestLaunch::servesWhatExportWrites()
{
    // Nothing quantized (bf16 weights, even with an fp8 KV cache): the base model's HF id.
    QCOMPARE(servedModel(uniformInput(Format::Bf16, KvFormat::Bf16)), std::string("Qwen/Qwen3-8B"));
    QCOMPARE(servedModel(uniformInput(Format::Bf16, KvFormat::Fp8)), std::string("Qwen/Qwen3-8B"));
    // Quantized: the folder the export's how-to names as hf_ptq.py's --export_path.
    const ExportInput in = acceptanceInput();
    QCOMPARE(servedModel(in), std::string("Qwen3-8B-acsel"));
    QCOMPARE(exportFolder(in.arch), servedModel(in));
    QVERIFY(has(howToApply(ExportFormat::ModelOptYaml, "r.yaml", in.arch),
                "--export_path Qwen3-8B-acsel\n"));
}

void TestLaunch::scriptStopsAtTheFirstFailure()
{
    for (const BackendInfo& b : kBackends) {
        const ExportInput in = acceptanceInput();
        const std::string script =
            launchScript(launchSettings(b.backend, in, h100(), servedModel(in)), in);
        QVERIFY(script.starts_with("#!/usr/bin/env bash\n# "));
        const auto strict = script.find("\nset -euo pipefail\n");
        QVERIFY(strict != std::string::npos);
        // Before the first command (the options file or the engine).
        QVERIFY(strict < script.find("\ncat > ") || script.find("\ncat > ") == std::string::npos);
        QVERIFY(strict < script.find(b.backend == Backend::TrtLlm ? "\ntrtllm-serve"
                                     : b.backend == Backend::Vllm ? "\nvllm serve"
                                                                  : "\npython3 -m sglang"));
    }
}

void TestLaunch::tensorParallelFlag()
{
    ExportInput in = uniformInput(Format::Bf16, KvFormat::Bf16);
    for (Backend e : {Backend::Vllm, Backend::Sglang, Backend::TrtLlm}) {
        const std::string c = launchSettings(e, in, h100(), "ckpt").command;
        QVERIFY(!has(c, "--tensor-parallel-size") && !has(c, "--tp ") && !has(c, "--tp_size"));
    }
    in.config.tp = 4;
    QVERIFY(
        has(launchSettings(Backend::Vllm, in, h100(), "ckpt").command, "--tensor-parallel-size 4"));
    QVERIFY(has(launchSettings(Backend::Sglang, in, h100(), "ckpt").command, "--tp 4"));
    QVERIFY(has(launchSettings(Backend::TrtLlm, in, h100(), "ckpt").command, "--tp_size 4"));
}

void TestLaunch::expertParallelFlags()
{
    // Qwen3-235B-A22B (94 layers, 128 experts) over 8 GPUs at bf16.
    ExportInput in = uniformInput(Format::Bf16, KvFormat::Bf16);
    in.arch = workspaceModel("Qwen3-235B-A22B");
    in.config = makeConfig(94, {}, {{Format::Bf16, Scope::Full}}, Algorithm::Max, KvFormat::Bf16);
    in.config.model = workspaceModelIndex("Qwen3-235B-A22B");
    in.config.tp = 8;
    auto command = [&](Backend e) { return launchSettings(e, in, h100(), "ckpt").command; };
    for (Backend e : {Backend::Vllm, Backend::Sglang, Backend::TrtLlm}) { // expert TP: no flag
        QVERIFY(!has(command(e), "expert-parallel") && !has(command(e), "--ep"));
        QVERIFY(!anyNote(launchSettings(e, in, h100(), "ckpt"), "--enable-expert-parallel"));
    }
    in.config.moeEp = 8;
    QVERIFY(has(command(Backend::Vllm), " \\\n  --enable-expert-parallel"));
    QVERIFY(has(command(Backend::Sglang), " \\\n  --ep-size 8"));
    QVERIFY(has(command(Backend::TrtLlm), " \\\n  --ep_size 8"));
    QVERIFY(!anyNote(launchSettings(Backend::Vllm, in, h100(), "ckpt"), "not over"));
    // Experts over 4 of the 8 GPUs: vLLM has no such split, and says so.
    in.config.moeEp = 4;
    QVERIFY(has(command(Backend::Sglang), "--ep-size 4"));
    QVERIFY(has(command(Backend::TrtLlm), "--ep_size 4"));
    const LaunchSettings v = launchSettings(Backend::Vllm, in, h100(), "ckpt");
    QVERIFY(has(v.command, "--enable-expert-parallel"));
    QVERIFY(anyNote(v, "over all 8 GPUs with --enable-expert-parallel, not over 4"));
}

ACSEL_TEST_APPLESS_MAIN(TestLaunch)
#include "test_launch.moc"
