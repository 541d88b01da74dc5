// Engine memory (core/latency/enginememory.h): the memory flag `acsel launch` prints sizes a
// KV pool that holds the configuration's KV within the memory budget, per engine, worked out
// by hand on a small synthetic model; and on real tables, every admitted answer of random
// requests loads at the flag its launch command prints.
#include "core/data/workspacefile.h"
#include "core/export/launch.h"
#include "core/latency/memorymodel.h"
#include "core/latency/servingmodel.h"
#include "core/search/searcher.h"
#include "core/search/workspaceengine.h"
#include "testmain.h"

#include <QFileInfo>
#include <charconv>
#include <random>

using namespace acsel;

namespace
{

// One bf16 layer: attention 4 x 1024 x 1024 = 4,194,304 parameters, MLP 3 x 1024 x 4096 =
// 12,582,912, norms 2 x 1024; 32768 x 1024 embeddings and an untied lm_head. Bytes (bf16):
// layer 2 x 4,194,304 + 2 x 12,582,912 + 2 x 2048 = 33,558,528; final norm 2,048; embeddings
// and lm_head 2 x 67,108,864: W = 167,778,304. KV per token 1 x 2 x 8 x 128 x 2 = 4096 bytes.
ModelArch oneLayer()
{
    ModelArch a;
    a.name = "one-layer-synthetic";
    a.hfId = "acsel-test/one-layer-synthetic";
    a.layers = 1;
    a.hidden = 1024;
    a.heads = 8;
    a.kvHeads = 8;
    a.headDim = 128;
    a.intermediate = 4096;
    a.vocab = 32768;
    return a;
}

constexpr double kW = 167778304, kC = 1073741824, kR = 67108864;

// 1 GiB device, 64 MiB runtime.
Platform gpu()
{
    Platform p;
    p.id = "tiny_gpu";
    p.memCapacityBytes = kC;
    p.otherMemBytes = kR;
    return p;
}

// 4 requests of isl 1000 + osl 24 = 1024 tokens: K = 4 x 1024 x 4096 = 16,777,216 bytes.
constexpr double kK = 16777216;

Config config()
{
    Config c;
    c.batch = 4;
    c.recipe = BandRecipe::uniform(1, Format::Bf16, Scope::Full);
    return c;
}

Request request(Backend b, double budgetGiB)
{
    Request q;
    q.stack = "tiny_gpu/" + std::string(toString(b));
    q.isl = 1000;
    q.osl = 24;
    q.concurrency = 4;
    q.memBudgetGiB = budgetGiB;
    return q;
}

EngineMemory memoryOf(Backend b, double budgetGiB)
{
    return engineMemory(b, oneLayer(), config(), request(b, budgetGiB), gpu());
}

// The memory flag's value as the launch command prints it.
double printedFlag(const LaunchSettings& s)
{
    const std::string flag(info(s.engine).memoryFlag);
    const auto at = s.command.find(flag + " ");
    if (at == std::string::npos)
        return -1;
    const char* begin = s.command.data() + at + flag.size() + 1;
    double v = -1;
    std::from_chars(begin, s.command.data() + s.command.size(), v);
    return v;
}

} // namespace

class TestEngineMemory : public QObject
{
    Q_OBJECT
private slots:
    void vllmByHand();
    void sglangByHand();
    void trtllmByHand();
    void budgetDecidesWhatLoads();
    void continuousHoldsTheRunningRequests();
    void launchPrintsTheFlag();
    void randomAdmittedAnswersLoad();
    void theSeventyBAnswerLoads();
};

void TestEngineMemory::vllmByHand()
{
    // A: max(2 x 2048 tokens (vLLM's budget below 70 GiB) x 8 x 128 x 11, 70 MiB) = 73,400,320.
    // u = (W + R + A + K) / C = 325,064,704 / 1,073,741,824 = 0.302734375 -> 0.303; the engine
    // takes 0.303 C = 325,343,772.672; pool = that - W - R - A = 17,056,284.672 >= K.
    const EngineMemory m = memoryOf(Backend::Vllm, 1);
    QCOMPARE(m.activationBytes, 73400320.0);
    QCOMPARE(m.kvRequests, 4);
    QCOMPARE(m.kvBytes, kK);
    QCOMPARE(m.weightBytes, kW);
    QVERIFY(qFuzzyCompare(m.flag, 0.303));
    QVERIFY(qFuzzyCompare(m.totalBytes, 325343772.672));
    QVERIFY(qFuzzyCompare(m.poolBytes, 17056284.672));
    QVERIFY(m.loads());
}

void TestEngineMemory::sglangByHand()
{
    // SGLang below 20 GiB: chunked prefill 2048, so A = 73,400,320 as above. f = (W + R + K) /
    // C = 251,664,384 / 1,073,741,824 = 0.234375 -> 0.235; pool = 0.235 C - W - R =
    // 17,442,160.64; the engine takes 0.235 C + A = 325,729,648.64.
    const EngineMemory m = memoryOf(Backend::Sglang, 1);
    QVERIFY(qFuzzyCompare(m.flag, 0.235));
    QVERIFY(qFuzzyCompare(m.poolBytes, 17442160.64));
    QVERIFY(qFuzzyCompare(m.totalBytes, 325729648.64));
    QVERIFY(m.loads());
}

void TestEngineMemory::trtllmByHand()
{
    // TRT-LLM: 8192 tokens per step, A = 2 x 8192 x 8 x 128 x 11 = 184,549,376. free = C - W -
    // R - A = 654,305,280; f = K / free = 0.02564.. -> 0.026; pool = 0.026 x free =
    // 17,011,937.28; the engine takes W + R + A + pool = 436,448,481.28.
    const EngineMemory m = memoryOf(Backend::TrtLlm, 1);
    QCOMPARE(m.activationBytes, 184549376.0);
    QVERIFY(qFuzzyCompare(m.flag, 0.026));
    QVERIFY(qFuzzyCompare(m.poolBytes, 17011937.28));
    QVERIFY(qFuzzyCompare(m.totalBytes, 436448481.28));
    QVERIFY(m.loads());
}

void TestEngineMemory::budgetDecidesWhatLoads()
{
    // 0.30 GiB = 322,122,547.2 bytes: below all three totals above. 0.31 GiB =
    // 332,859,965.44: above vLLM's and SGLang's, below TRT-LLM's.
    for (const BackendInfo& b : kBackends)
        QVERIFY(!memoryOf(b.backend, 0.30).loads());
    QVERIFY(memoryOf(Backend::Vllm, 0.31).loads());
    QVERIFY(memoryOf(Backend::Sglang, 0.31).loads());
    const EngineMemory t = memoryOf(Backend::TrtLlm, 0.31);
    QVERIFY(!t.loads());
    QCOMPARE(engineMemoryProblem(t),
             std::string("TensorRT-LLM needs weights 0.16 + runtime 0.06 + step activations "
                         "0.17 + KV 0.02 GiB (4 requests): at "
                         "--kv_cache_free_gpu_memory_fraction 0.026 it takes 0.41 GiB, over the "
                         "limit 0.31 GiB"));
    QVERIFY(engineMemoryProblem(memoryOf(Backend::Vllm, 0.31)).empty());
    // A device the weights fill: no flag holds anything.
    Platform small = gpu();
    small.memCapacityBytes = 0.2 * kC;
    const EngineMemory none =
        engineMemory(Backend::TrtLlm, oneLayer(), config(), request(Backend::TrtLlm, 1), small);
    QVERIFY(!none.loads());
    QVERIFY(engineMemoryProblem(none).ends_with("the weights leave no memory on the device"));
}

void TestEngineMemory::continuousHoldsTheRunningRequests()
{
    // Continuous batching on vLLM (pages on demand): the pool holds the running requests at
    // isl + osl / 2 = 1012 tokens each, 4,145,152 bytes; the default pool (0.9 C - W - R - A =
    // 658,080,153.6 bytes) holds 158 of them, so all 4 run: K = 16,580,608.
    Request q = request(Backend::Vllm, 1);
    q.mode = ServingMode::Continuous;
    const EngineMemory m = engineMemory(Backend::Vllm, oneLayer(), config(), q, gpu());
    QCOMPARE(m.kvRequests, 4);
    QCOMPARE(m.kvBytes, 16580608.0);
    QVERIFY(m.poolBytes >= m.kvBytes);
    QVERIFY(m.loads());
}

void TestEngineMemory::launchPrintsTheFlag()
{
    ExportInput in{oneLayer(), config(), request(Backend::Vllm, 1), std::nullopt};
    for (const BackendInfo& b : kBackends) {
        in.request = request(b.backend, 1);
        const LaunchSettings s = launchSettings(b.backend, in, gpu(), servedModel(in));
        QVERIFY(qFuzzyCompare(printedFlag(s), memoryOf(b.backend, 1).flag));
    }
}

void TestEngineMemory::randomAdmittedAnswersLoad()
{
    const std::string tables = ACSEL_SHARED_DIR "/aic";
    if (!QFileInfo::exists(QString::fromStdString(tables)))
        QSKIP("../shared/aic not present");
    const WorkspaceEngine e(loadWorkspace(ACSEL_DATASETS "/workspace.json", tables),
                            EngineSources{});
    const Workspace& ws = e.workspace();
    std::vector<const Stack*> stacks;
    for (const Stack& s : ws.stacks)
        if (s.source == LatencySource::Tables && parseBackend(s.backend))
            stacks.push_back(&s);
    QVERIFY(stacks.size() >= 9);
    std::mt19937_64 rng(37);
    const auto pick = [&rng](auto lo, auto hi) {
        return lo + static_cast<decltype(lo)>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    };
    int admitted = 0, requests = 0;
    std::array<int, kBackendCount> perBackend{};
    while (admitted < 20) {
        QVERIFY2(++requests < 200, "too few random requests are admitted");
        const Stack& stack = *stacks[rng() % stacks.size()];
        Request q;
        q.stack = stack.id;
        q.isl = pick(1, 8) * 512;
        q.osl = pick(1, 8) * 64;
        q.concurrency = pick(1, 64);
        q.mode = rng() % 2 ? ServingMode::Static : ServingMode::Continuous;
        q.ttftBudgetMs = 1e6;
        q.tpotBudgetMs = 1e6;
        q.memBudgetGiB = pick(8, 200);
        SearchOptions o;
        o.models = {pick(0, static_cast<int>(ws.models.size()) - 1)};
        const std::atomic<bool> stop{false};
        const SearchResult r = makeSearcher("exact")->run(e, q, o, {}, stop);
        if (!r.config)
            continue;
        ++admitted;
        const Backend b = *parseBackend(stack.backend);
        ++perBackend[static_cast<std::size_t>(b)];
        const ModelArch& arch = ws.models[static_cast<std::size_t>(r.config->model)];
        const Platform& p = ws.platformOf(stack);
        const ExportInput in{arch, *r.config, q, std::nullopt};
        const LaunchSettings s = launchSettings(b, in, p, servedModel(in));
        // The engine's own arithmetic at the printed flag, from the parts of the memory
        // model: its pool holds the KV, and it takes no more than the budget allows.
        const double f = printedFlag(s);
        const MemoryEstimate m = estimateStaticMemory(arch, *r.config, q, p);
        const double W = m.weightBytes + m.embeddingBytes + m.lmHeadBytes, R = m.runtimeBytes;
        const double A = stepActivationBytes(arch, servingDefaults(q, p), r.config->tp);
        const double C = p.memCapacityBytes;
        double pool = 0, total = 0;
        switch (b) {
        case Backend::Vllm:
            pool = f * C - W - R - A;
            total = f * C;
            break;
        case Backend::Sglang:
            pool = f * C - W - R;
            total = f * C + A;
            break;
        case Backend::TrtLlm:
            pool = f * (C - W - R - A);
            total = W + R + A + pool;
            break;
        }
        const double full = (q.isl + q.osl) * kvBytesPerToken(arch, r.config->kv, r.config->tp);
        const double needed = q.mode == ServingMode::Static
                                  ? std::min(q.concurrency, r.config->batch) * full
                                  : std::max(full, s.memory.kvBytes);
        const std::string what = q.stack + " " + arch.name + " " + r.config->recipe.describe();
        QVERIFY2(f > 0 && f <= 1, what.c_str());
        QVERIFY2(pool >= needed * (1 - 1e-12), what.c_str());
        QVERIFY2(total <= std::min(q.memBudgetGiB * kGiB, C) * (1 + 1e-12), what.c_str());
    }
    for (int n : perBackend)
        QVERIFY(n > 0);
    qInfo("%d admitted answers of %d random requests", admitted, requests);
}

void TestEngineMemory::theSeventyBAnswerLoads()
{
    // h100_sxm/vllm, Llama-3.1-70B, isl 1024, osl 256, concurrency 1, 80 GiB: the answer
    // admitted at 79.99 GiB before needed --gpu-memory-utilization above 1 once vLLM's step
    // activations (8192 tokens) are counted; whatever is admitted now loads.
    const std::string tables = ACSEL_SHARED_DIR "/aic";
    if (!QFileInfo::exists(QString::fromStdString(tables)))
        QSKIP("../shared/aic not present");
    const WorkspaceEngine e(loadWorkspace(ACSEL_DATASETS "/workspace.json", tables),
                            EngineSources{});
    const Workspace& ws = e.workspace();
    Request q;
    q.stack = "h100_sxm/vllm";
    q.isl = 1024;
    q.osl = 256;
    q.concurrency = 1;
    q.ttftBudgetMs = 5000;
    q.tpotBudgetMs = 200;
    q.memBudgetGiB = 80;
    SearchOptions o;
    o.models = {*ws.findModel("Llama-3.1-70B")};
    const std::atomic<bool> stop{false};
    const SearchResult r = makeSearcher("exact")->run(e, q, o, {}, stop);
    QVERIFY(r.config);
    const ExportInput in{ws.models[static_cast<std::size_t>(*o.models.begin())], *r.config, q,
                         std::nullopt};
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))];
    const LaunchSettings s = launchSettings(Backend::Vllm, in, ws.platformOf(stack), "ckpt");
    QVERIFY(s.memory.loads());
    QVERIFY(printedFlag(s) <= 1.0);
    QVERIFY(s.memory.totalBytes <= 80 * kGiB);
    qInfo("answer %s at --gpu-memory-utilization %.3f, engine total %.2f GiB",
          r.config->recipe.describe().c_str(), printedFlag(s), s.memory.totalBytes / kGiB);
}

ACSEL_TEST_APPLESS_MAIN(TestEngineMemory)
#include "test_enginememory.moc"
