// acsel launch and the export's word on a configuration that quantizes nothing, end to end on
// configuration files: the printed settings follow the file's request and formats.
#include "clirun.h"
#include "testmain.h"

#include <QFile>
#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace acsel::cli::test;
using nlohmann::json;

namespace
{

// Qwen3-8B (36 layers) on the spec-only Thor stack, one band of `format`, batch 4, isl 512 +
// osl 128.
std::string writeConfig(const QTemporaryDir& dir, const std::string& format, const char* kv,
                        const char* stack = "jetson_agx_thor/vllm")
{
    const json j = {
        {"schema_version", 1},
        {"tool", {{"name", "acsel-studio"}, {"version", "0.1.0"}}},
        {"model", {{"name", "Qwen3-8B"}, {"hf_id", "Qwen/Qwen3-8B"}}},
        {"stack", stack},
        {"request",
         {{"isl", 512},
          {"osl", 128},
          {"concurrency", 4},
          {"ttft_budget_ms", 1000},
          {"tpot_budget_ms", 100},
          {"memory_budget_gib", 64},
          {"mode", "static"}}},
        {"config",
         {{"batch", 4},
          {"bands",
           {{{"first_layer", 0}, {"last_layer", 35}, {"format", format}, {"scope", "full"}}}},
          {"algorithm", "max"},
          {"lm_head_quantized", false},
          {"kv_cache", kv}}}};
    const std::string path =
        dir.filePath(QString::fromStdString(format + kv + ".json")).toStdString();
    std::ofstream(path) << j.dump();
    return path;
}

} // namespace

class TestCliLaunch : public QObject
{
    Q_OBJECT
private slots:
    void settingsFollowTheFile();
    void allBf16SaysItQuantizesNothing();
    void badEngine();
    void unknownStack();
    void engineReleaseThatDoesNotLoadIt();
    void expertParallelFlags();
};

void TestCliLaunch::settingsFollowTheFile()
{
    QTemporaryDir dir;
    const Run r =
        run({"launch", "--workspace", kWorkspace, "--config", writeConfig(dir, "nvfp4", "fp8")});
    QCOMPARE(r.code, 0);
    // The stack's backend is vllm: one vllm script, context 512 + 128, batch 4.
    QVERIFY(contains(r.out, "vllm serve Qwen3-8B-acsel \\\n"));
    QVERIFY(contains(r.out, "--max-model-len 640 \\\n"));
    QVERIFY(contains(r.out, "--max-num-seqs 4 \\\n"));
    QVERIFY(contains(r.out, "--kv-cache-dtype fp8 \\\n"));
    QVERIFY(contains(r.out, "--quantization modelopt_fp4\n"));
    QVERIFY(!contains(r.out, "trtllm-serve"));
    const Run all =
        run({"launch", "--workspace", kWorkspace, "--config", writeConfig(dir, "nvfp4", "fp8"),
             "--engine", "all", "--checkpoint", "/models/q8"});
    QCOMPARE(all.code, 0);
    QVERIFY(contains(all.out, "vllm serve /models/q8"));
    QVERIFY(contains(all.out, "--model-path /models/q8"));
    QVERIFY(contains(all.out, "trtllm-serve /models/q8"));
}

void TestCliLaunch::allBf16SaysItQuantizesNothing()
{
    QTemporaryDir dir;
    const std::string config = writeConfig(dir, "bf16", "bf16");
    const Run l = run({"launch", "--workspace", kWorkspace, "--config", config});
    QCOMPARE(l.code, 0);
    QVERIFY(contains(l.out, "quantizes nothing"));
    QVERIFY(!contains(l.out, "--quantization"));
    const std::string yaml = dir.filePath("r.yaml").toStdString();
    const Run e = run({"export", "--workspace", kWorkspace, "--config", config, "--as",
                       "modelopt-yaml", "-o", yaml});
    QCOMPARE(e.code, 0);
    QVERIFY(contains(e.err, "acsel export: note: this configuration quantizes nothing"));
    // A quantized one gets no such note.
    const Run q = run({"export", "--workspace", kWorkspace, "--config",
                       writeConfig(dir, "fp8", "bf16"), "--as", "modelopt-yaml", "-o", "-"});
    QCOMPARE(q.code, 0);
    QVERIFY(!contains(q.err, "quantizes nothing"));
}

void TestCliLaunch::badEngine()
{
    QTemporaryDir dir;
    const Run r = run({"launch", "--workspace", kWorkspace, "--config",
                       writeConfig(dir, "fp8", "bf16"), "--engine", "tgi"});
    QCOMPARE(r.code, 2);
    QVERIFY(contains(r.err, "--engine tgi: expected trtllm, vllm, sglang or all"));
    QCOMPARE(run({"launch", "--workspace", kWorkspace}).code, 2);
}

// The flags follow the stack's GPU, so a stack the workspace lacks is an input error.
void TestCliLaunch::unknownStack()
{
    QTemporaryDir dir;
    const Run r = run({"launch", "--workspace", kWorkspace, "--config",
                       writeConfig(dir, "fp8", "bf16", "h900/vllm"), "--engine", "vllm"});
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "/stack: unknown stack 'h900/vllm'"), r.err.c_str());
}

void TestCliLaunch::engineReleaseThatDoesNotLoadIt()
{
    // tests/data/engine_loaders/mine.json: vllm 1.0 and sglang 0.5 load no quantized weights.
    QTemporaryDir dir;
    const std::string config = writeConfig(dir, "nvfp4", "bf16");
    const std::string mine = ACSEL_TEST_DATA "/engine_loaders/mine.json";
    const Run launch = run({"launch", "--workspace", kWorkspace, "--config", config, "--engine",
                            "sglang", "--engine-release", "0.5", "--loaders", mine});
    QCOMPARE(launch.code, 2);
    QVERIFY(launch.out.empty());
    QVERIFY(contains(launch.err, "will not load: sglang 0.5 does not load nvfp4 weights on "
                                 "jetson_agx_thor (blackwell)"));
    const std::string out = dir.filePath("r.yaml").toStdString();
    const Run exp = run({"export", "--workspace", kWorkspace, "--config", config, "--as",
                         "modelopt-yaml", "-o", out, "--engine-release", "1.0", "--loaders", mine});
    QCOMPARE(exp.code, 2);
    QVERIFY(contains(exp.err, "will not load: vllm 1.0 does not load nvfp4 weights"));
    QVERIFY(!QFile::exists(QString::fromStdString(out)));
    // One release for several engines is ambiguous.
    QCOMPARE(run({"launch", "--workspace", kWorkspace, "--config", config, "--engine", "all",
                  "--engine-release", "0.5"})
                 .code,
             2);
}

void TestCliLaunch::expertParallelFlags()
{
    // Qwen3-235B-A22B's experts fp8, tp 8 with the experts over the 8 GPUs.
    QTemporaryDir dir;
    json j = json::parse(R"({"schema_version": 1,
      "model": {"name": "Qwen3-235B-A22B", "hf_id": "Qwen/Qwen3-235B-A22B"},
      "stack": "h100_sxm/trtllm",
      "request": {"isl": 1024, "osl": 256, "concurrency": 8, "ttft_budget_ms": 2000,
                  "tpot_budget_ms": 100, "memory_budget_gib": 80, "mode": "static", "gpus": 8},
      "config": {"batch": 8, "algorithm": "max", "lm_head_quantized": false, "kv_cache": "bf16",
                 "bands": [{"first_layer": 0, "last_layer": 93, "format": "fp8",
                            "scope": "mlp"}],
                 "tp": 8, "moe_ep": 8}})");
    const std::string path = dir.filePath("ep.json").toStdString();
    std::ofstream(path) << j.dump();
    const Run r = run({"launch", "--workspace", kWorkspace, "--config", path, "--engine", "all"});
    QCOMPARE(r.code, 0);
    QVERIFY(contains(r.out, "--tp_size 8 \\\n  --ep_size 8\n"));
    QVERIFY(contains(r.out, "--tensor-parallel-size 8 \\\n  --enable-expert-parallel\n"));
    QVERIFY(contains(r.out, "--tp 8 \\\n  --ep-size 8\n"));
    j["config"]["moe_ep"] = 3;
    std::ofstream(path) << j.dump();
    const Run bad = run({"launch", "--workspace", kWorkspace, "--config", path});
    QCOMPARE(bad.code, 2);
    QVERIFY(contains(bad.err, "/config/moe_ep"));
    QVERIFY(contains(bad.err, "moe_ep 3 does not divide tp 8"));
}

ACSEL_TEST_GUILESS_MAIN(TestCliLaunch)
#include "test_cli_launch.moc"
