// Tensor parallelism (docs/LATENCY.md, "Tensor parallelism"): the all-reduce tables and their
// log-size interpolation, one GPU's GEMM and attention shapes per degree, and the memory of one
// GPU for a 2-layer toy model, each against values worked out by hand in the comments.
#include "core/data/commtables.h"
#include "core/data/loaderror.h"
#include "core/latency/allreducetable.h"
#include "core/latency/memorymodel.h"
#include "core/latency/opmodel.h"
#include "latencyfixtures.h"
#include "modelfixtures.h"
#include "nearly.h"
#include "testmain.h"

#include <cmath>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace acsel;
using acsel::test::configOf;
using acsel::test::FakeCostsBase;
using acsel::test::tinyArch;

namespace
{

// Records every GEMM and attention shape and every all-reduce it is asked for. A GEMM costs
// 1 ms, an attention call 1 ms; an all-reduce over g GPUs of e elements 0.001 g + 1e-6 e ms.
class RecordingCosts : public FakeCostsBase
{
public:
    bool supports(Format) const override { return true; }
    double gemmMs(Format, double m, double n, double k) const override
    {
        gemms.emplace_back(m, n, k);
        return 1.0;
    }
    double contextAttentionMs(double, double, int heads, int kvHeads, int, KvFormat) const override
    {
        attention.emplace_back(heads, kvHeads);
        return 1.0;
    }
    double generationAttentionMs(double, double, int heads, int kvHeads, int,
                                 KvFormat) const override
    {
        attention.emplace_back(heads, kvHeads);
        return 1.0;
    }
    bool supportsTp(int gpus) const override { return gpus <= 8; }
    double allReduceMs(int gpus, double elements) const override
    {
        allReduces.emplace_back(gpus, elements);
        return gpus == 1 ? 0.0 : 0.001 * gpus + 1e-6 * elements;
    }
    mutable std::vector<std::tuple<double, double, double>> gemms;
    mutable std::vector<std::pair<int, int>> attention;
    mutable std::vector<std::pair<int, double>> allReduces;
};

// Costs without interconnect data (the OpCosts default: one GPU only).
class SingleGpuCosts : public FakeCostsBase
{
public:
    bool supports(Format) const override { return true; }
    double gemmMs(Format, double, double, double) const override { return 1.0; }
    double contextAttentionMs(double, double, int, int, int, KvFormat) const override
    {
        return 1.0;
    }
    double generationAttentionMs(double, double, int, int, int, KvFormat) const override
    {
        return 1.0;
    }
};

Config tinyConfig(int tp)
{
    Config c = configOf(BandRecipe::uniform(2, Format::Bf16), 2);
    c.tp = tp;
    return c;
}

// Engine curve for 2 GPUs at 1024 and 4096 elements; NCCL curves for 2 GPUs (1024, 8192,
// 65536) and 4 GPUs (1024, 2048); nothing for 8.
AllReduceTable handTable()
{
    const std::vector<CommRow> engine = {{2, 4096, 0.03}, {2, 1024, 0.01}};
    const std::vector<CommRow> nccl = {
        {2, 1024, 0.02}, {2, 8192, 0.05}, {2, 65536, 0.4}, {4, 1024, 0.1}, {4, 2048, 0.3}};
    return AllReduceTable(engine, nccl);
}

} // namespace

class TestTensorParallel : public QObject
{
    Q_OBJECT
private slots:
    void allReduceLookupAndInterpolation();
    void customTableKeepsCudaGraphRows();
    void ncclTableTakesTheAllReduceRun();
    void ncclTableRefusesOtherRunCounts();
    void gemmAndAttentionShapesPerTp();
    void allReducesPerStep();
    void illegalDegreesAreRefused();
    void memoryPerGpuOfATwoLayerToy();
};

void TestTensorParallel::allReduceLookupAndInterpolation()
{
    const AllReduceTable t = handTable();
    QVERIFY(t.has(1) && t.has(2) && t.has(4));
    QVERIFY(!t.has(8) && !t.has(3));
    QCOMPARE(t.lookup(1, 1e6), 0.0);
    QVERIFY(std::isnan(t.lookup(8, 1024)));
    // On a sample: the engine's value.
    QVERIFY(nearScaled(t.lookup(2, 1024), 0.01, 1e-12));
    QVERIFY(nearScaled(t.lookup(2, 4096), 0.03, 1e-12));
    // 2048 is halfway from 1024 to 4096 in log2 (10, 11, 12): 0.01 + 0.5 x 0.02 = 0.02.
    QVERIFY(nearScaled(t.lookup(2, 2048), 0.02, 1e-12));
    // 1448 ~ 2^10.5: a quarter of the way: 0.01 + 0.25 x 0.02 = 0.015 (to the rounding of 1448).
    QVERIFY(std::abs(t.lookup(2, std::exp2(10.5)) - 0.015) < 1e-12);
    // Below the smallest sample: the launch floor.
    QVERIFY(nearScaled(t.lookup(2, 100), 0.01, 1e-12));
    // Beyond the engine's 4096: NCCL. 16384 = 2^14 between 2^13 (0.05) and 2^16 (0.4), a third
    // of the way: 0.05 + 0.35 / 3.
    QVERIFY(nearScaled(t.lookup(2, 16384), 0.05 + 0.35 / 3.0, 1e-12));
    // Beyond both: NCCL (sampled further), bandwidth held: 0.4 x 131072 / 65536 = 0.8.
    QVERIFY(nearScaled(t.lookup(2, 131072), 0.8, 1e-12));
    // 4 GPUs: NCCL only; 1536 = 2^10.585, t = 0.585: 0.1 + 0.585 x 0.2; beyond 2048: 0.3 x 2.
    QVERIFY(std::abs(t.lookup(4, 1536) - (0.1 + (std::log2(1536.0) - 10.0) * 0.2)) < 1e-12);
    QVERIFY(nearScaled(t.lookup(4, 4096), 0.6, 1e-12));
    // Monotone in the message size where the samples are.
    double last = 0;
    for (double e = 64; e <= 1 << 20; e *= 1.3) {
        QVERIFY(t.lookup(2, e) >= last - 1e-15);
        last = t.lookup(2, e);
    }
}

void TestTensorParallel::customTableKeepsCudaGraphRows()
{
    const AicTable<CommRow> t = parseCustomAllReduceTable(
        "kernel_source,allreduce_dtype,num_gpus,message_size,latency,backend\n"
        "vLLM_custom_graph,bfloat16,2,128,0.004,vllm_graph\n"
        "vLLM_custom_eager,bfloat16,2,128,0.02,vllm_eager\n"
        "vLLM_custom_graph,bfloat16,2,256,0.005,vllm_graph\n"
        "vLLM_custom_graph,bfloat16,2,256,0.009,vllm_graph\n"
        "vLLM_custom_graph,bfloat16,8,128,0.006,vllm_graph\n",
        "custom.csv");
    QCOMPARE(t.info.rowsRead, 5);
    QCOMPARE(t.info.rowsSkipped, 1);         // the eager row
    QCOMPARE(t.info.duplicatesDropped, 1);   // 256 twice: the first (0.005) kept
    QCOMPARE(t.rows.size(), std::size_t{3}); // sorted by (gpus, size)
    QCOMPARE(t.rows[1].elements, 256.0);
    QCOMPARE(t.rows[1].ms, 0.005);
    QCOMPARE(t.rows[2].gpus, 8);
    try {
        (void)parseCustomAllReduceTable("kernel_source,allreduce_dtype,num_gpus,message_size,"
                                        "latency\nTRTLLM,bfloat16,2,0,0.004\n",
                                        "bad.csv");
        QFAIL("accepted a zero message size");
    } catch (const LoadError& e) {
        QCOMPARE(e.file(), std::string("bad.csv"));
        QVERIFY2(e.message().find("message size") != std::string::npos, e.what());
    }
}

void TestTensorParallel::ncclTableTakesTheAllReduceRun()
{
    // Four runs per num_gpus (all_gather, alltoall, reduce_scatter, all_reduce): the fourth.
    std::string text = "kernel_source,nccl_dtype,num_gpus,message_size,latency\n";
    for (int run = 1; run <= 4; ++run)
        for (int size : {256, 512})
            text += "NCCL,half," + std::to_string(2) + "," + std::to_string(size) + "," +
                    std::to_string(run) + "." + std::to_string(size) + "\n";
    text += "NCCL,int8,2,256,9.0\n"; // another dtype: skipped, runs not counted
    const AicTable<CommRow> t = parseNcclAllReduceTable(text, "nccl.csv");
    QCOMPARE(t.rows.size(), std::size_t{2});
    QCOMPARE(t.rows[0].ms, 4.256);
    QCOMPARE(t.rows[1].ms, 4.512);
    // With an op_name column the op is read, not inferred.
    const AicTable<CommRow> named =
        parseNcclAllReduceTable("kernel_source,op_name,nccl_dtype,num_gpus,message_size,latency\n"
                                "NCCL,all_gather,half,4,256,0.1\nNCCL,all_reduce,half,4,256,0.2\n",
                                "named.csv");
    QCOMPARE(named.rows.size(), std::size_t{1});
    QCOMPARE(named.rows[0].ms, 0.2);
}

void TestTensorParallel::ncclTableRefusesOtherRunCounts()
{
    const std::string text = "kernel_source,nccl_dtype,num_gpus,message_size,latency\n"
                             "NCCL,half,2,256,0.1\nNCCL,half,2,512,0.2\n"
                             "NCCL,half,2,256,0.1\nNCCL,half,2,512,0.2\n"
                             "NCCL,half,2,256,0.1\nNCCL,half,2,512,0.2\n";
    try {
        (void)parseNcclAllReduceTable(text, "three.csv");
        QFAIL("accepted three runs");
    } catch (const LoadError& e) {
        QCOMPARE(e.file(), std::string("three.csv"));
        QCOMPARE(e.where(), std::string("line 2"));
        QVERIFY2(e.message().find("expected 4 runs") != std::string::npos, e.what());
        QVERIFY2(e.message().find("found 3") != std::string::npos, e.what());
    }
}

void TestTensorParallel::gemmAndAttentionShapesPerTp()
{
    // tiny: hidden 256, 4 heads of 64, 2 KV heads, MLP 512, vocabulary 1000.
    const ModelArch a = tinyArch(2);
    struct Case {
        int tp;
        double qkvN, oK, gateUpN, downK, lmN;
        int heads, kvHeads;
    };
    // tp 1: qkv (4 + 2 x 2) x 64 = 512; tp 2: (2 + 2 x 1) x 64 = 256, o_proj k 2 x 64 = 128,
    // gate_up 2 x 512 / 2 = 512, down k 256, lm_head 500; tp 4: one query head, the 2 KV heads
    // cannot split 4 ways so each GPU keeps one: (1 + 2) x 64 = 192, o_proj k 64, gate_up 256,
    // down k 128, lm_head 250.
    for (const Case& c :
         {Case{1, 512, 256, 1024, 512, 1000, 4, 2}, Case{2, 256, 128, 512, 256, 500, 2, 1},
          Case{4, 192, 64, 256, 128, 250, 1, 1}}) {
        RecordingCosts costs;
        const StepModel model(costs, a, tinyConfig(c.tp));
        (void)model.prefillStepMs(2, 8); // 16 tokens
        // One layer group: qkv, o_proj, gate_up, down, then lm_head (2 rows: the batch).
        QCOMPARE(costs.gemms.size(), std::size_t{5});
        using G = std::tuple<double, double, double>;
        QCOMPARE(costs.gemms[0], G(16, c.qkvN, 256));
        QCOMPARE(costs.gemms[1], G(16, 256, c.oK));
        QCOMPARE(costs.gemms[2], G(16, c.gateUpN, 256));
        QCOMPARE(costs.gemms[3], G(16, 256, c.downK));
        QCOMPARE(costs.gemms[4], G(2, c.lmN, 256));
        QCOMPARE(costs.attention.size(), std::size_t{1});
        QCOMPARE(costs.attention[0], std::make_pair(c.heads, c.kvHeads));
    }
}

void TestTensorParallel::allReducesPerStep()
{
    const ModelArch a = tinyArch(2);
    RecordingCosts costs;
    const StepModel model(costs, a, tinyConfig(2));
    StepBreakdown b;
    const double total = model.prefillStepMs(2, 8, &b);
    // Every all-reduce carries 16 tokens x 256 = 4096 elements: 0.002 + 0.004096 ms. Two per
    // layer (2 layers) and one after the embedding: 5 x 0.006096 = 0.03048 ms.
    for (const auto& [gpus, elements] : costs.allReduces) {
        QCOMPARE(gpus, 2);
        QCOMPARE(elements, 4096.0);
    }
    QVERIFY(nearScaled(b.allReduce, 5 * (0.002 + 0.004096), 1e-12));
    // The breakdown still sums to the step.
    const double sum =
        b.gemm() + b.attention + b.memoryOps + b.lmHead + b.embedding + b.conversion + b.allReduce;
    QVERIFY(nearScaled(sum, total, 1e-12));
    // tp 1: no all-reduce time at all.
    RecordingCosts one;
    StepBreakdown b1;
    (void)StepModel(one, a, tinyConfig(1)).prefillStepMs(2, 8, &b1);
    QCOMPARE(b1.allReduce, 0.0);
}

void TestTensorParallel::illegalDegreesAreRefused()
{
    const ModelArch a = tinyArch(2);
    RecordingCosts costs;
    QVERIFY(tpProblem(a, 1).empty() && tpProblem(a, 2).empty() && tpProblem(a, 4).empty());
    QVERIFY(tpProblem(a, 3).find("not a power of two") != std::string::npos);
    QVERIFY(tpProblem(a, 16).find("not a power of two from 1 to 8") != std::string::npos);
    QVERIFY(tpProblem(a, 8).find("does not divide the 4 attention heads") != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StepModel(costs, a, tinyConfig(8)));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StepModel(costs, a, tinyConfig(3)));
    // Costs without all-reduce data take tp 1 only.
    SingleGpuCosts single;
    (void)StepModel(single, a, tinyConfig(1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StepModel(single, a, tinyConfig(2)));
}

void TestTensorParallel::memoryPerGpuOfATwoLayerToy()
{
    const ModelArch a = tinyArch(2); // no qk-norm, untied embeddings
    Platform p;
    p.memCapacityBytes = 1e12;
    p.otherMemBytes = 1e9;
    Request q;
    q.isl = 100;
    q.osl = 28; // 128 tokens of context
    Config c = configOf(BandRecipe::uniform(2, Format::Bf16), 1);
    c.tp = 2;
    const MemoryEstimate m = estimateStaticMemory(a, c, q, p);
    // One GPU of tp 2, bf16 (2 bytes a parameter):
    //  attention linears 256 x (256 qkv + 128 o_proj columns) = 98,304; MLP 3 x 256 x 256 =
    //  196,608; norms 2 x 256 = 512: 295,424 x 2 B = 590,848 B a layer; 2 layers and the final
    //  norm (512 B): 1,182,208 B.
    QCOMPARE(m.weightBytes, 1182208.0);
    // embedding and lm_head: 500 x 256 x 2 B = 256,000 B each.
    QCOMPARE(m.embeddingBytes, 256000.0);
    QCOMPARE(m.lmHeadBytes, 256000.0);
    // KV: 2 layers x (K, V) x 1 KV head x 64 x 2 B = 512 B a token; 128 tokens: 65,536 B.
    QCOMPARE(m.kvCacheBytes, 65536.0);
    // Activations: 2 x 100 x 2 heads x 64 x 11 = 281,600 B, below the 70 MiB floor.
    QCOMPARE(m.activationBytes, 70.0 * 1024 * 1024);
    QCOMPARE(m.runtimeBytes, 1e9); // every GPU runs its own engine process
    // tp 4: q and o_proj 1 head, k and v one replicated KV head each: 256 x (192 + 64) =
    // 65,536; MLP 3 x 256 x 128 = 98,304; norms 512: 164,352 x 2 = 328,704 B a layer,
    // 657,408 + 512 = 657,920 B. KV stays 512 B a token (the KV head is replicated).
    c.tp = 4;
    const MemoryEstimate m4 = estimateStaticMemory(a, c, q, p);
    QCOMPARE(m4.weightBytes, 657920.0);
    QCOMPARE(m4.embeddingBytes, 128000.0);
    QCOMPARE(m4.kvCacheBytes, 65536.0);
    // tp 1 is the whole model: attention 196,608 + MLP 393,216 + norms 512 = 590,336 x 2 B a
    // layer, 2,361,344 + 512 B; KV 2 x 2 x 2 KV heads x 64 x 2 B = 1,024 B a token.
    c.tp = 1;
    const MemoryEstimate m1 = estimateStaticMemory(a, c, q, p);
    QCOMPARE(m1.weightBytes, 2361856.0);
    QCOMPARE(m1.kvCacheBytes, 131072.0);
}

ACSEL_TEST_APPLESS_MAIN(TestTensorParallel)
#include "test_tensorparallel.moc"
