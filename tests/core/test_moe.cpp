// Mixture-of-experts models: config.json parsing and parameter counts worked out by hand.
#include "core/data/hfconfig.h"
#include "core/data/loaderror.h"
#include "core/data/moetables.h"
#include "core/latency/memorymodel.h"
#include "core/latency/moeexperts.h"
#include "core/latency/moetable.h"
#include "core/latency/naiveestimate.h"
#include "core/latency/opmodel.h"
#include "core/latency/roofline.h"
#include "core/latency/solopcosts.h"
#include "core/model/tensorparallel.h"
#include "core/quality/scopecodes.h"
#include "latencyfixtures.h"
#include "testmain.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>
#include <vector>

using namespace acsel;

namespace
{

const std::string kModels = ACSEL_SHARED_DIR "/aic/models/";

ModelArch fromFile(const std::string& name)
{
    const std::string path = kModels + name;
    return parseHfConfig(parseJsonFile(path), path);
}

// The message of the LoadError parseHfConfig throws on `text`, empty when it does not throw.
std::string refusal(const std::string& text)
{
    try {
        parseHfConfig(nlohmann::json::parse(text), "config.json");
    } catch (const LoadError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestMoe : public QObject
{
    Q_OBJECT
private slots:
    void qwen3_30b_a3b();
    void qwen3_235b_a22b();
    void mixtral();
    void denseLayersBySparseStepAndMlpOnlyLayers();
    void denseModelTypeWithExpertFieldsIsRefused();
    void memoryAllExpertsResident();
    void memoryPerGpuUnderExpertParallelism();
    void distinctExpertsMatchSimulation();
    void moeAsGemmsPerTouchedExpert();
    void moeTableInterpolatesInTokens();
    void moeTableBadInput();
    void stepCountsEveryMoeOperator();
    void specOnlyDecodeReadsTouchedExperts();
    void sharedExpertInExpertsScope();
    void qwen2MoeCountsQkvBiases();
    void attentionBiasAddsFourBiases();
    void rooflineRunsActiveExpertsReadsTouchedOnes();
};

// Qwen/Qwen3-30B-A3B config.json: hidden 2048, 48 layers, 32 heads, 4 KV heads, head_dim 128,
// 128 experts of moe_intermediate_size 768, 8 per token, vocabulary 151936, untied lm_head.
void TestMoe::qwen3_30b_a3b()
{
    if (!std::filesystem::exists(kModels))
        QSKIP("../shared/aic/models not present");
    const ModelArch m = fromFile("Qwen--Qwen3-30B-A3B_config.json");
    QVERIFY(m.isMoe());
    QCOMPARE(m.moe.experts, 128);
    QCOMPARE(m.moe.topk, 8);
    QCOMPARE(m.moe.expertIntermediate, 768);
    QCOMPARE(m.moeLayers(), 48);
    // attention: q 2048 x 4096 = 8,388,608; k, v 2 x 2048 x 512 = 2,097,152; o 8,388,608
    //   -> 18,874,368
    QCOMPARE(m.attnLinearParams(), std::int64_t{18'874'368});
    // one expert: 3 x 2048 x 768 = 4,718,592; router 2048 x 128 = 262,144
    QCOMPARE(m.expertParams(), std::int64_t{4'718'592});
    QCOMPARE(m.routerParams(), std::int64_t{262'144});
    // norms per layer: 2 x 2048 + q/k norm 2 x 128 = 4,352
    // layer, all experts: 18,874,368 + 128 x 4,718,592 (603,979,776) + 262,144 + 4,352
    //   = 623,120,640; x 48 = 29,909,790,720
    // embedding and lm_head 2 x 151936 x 2048 = 622,329,856; final norm 2,048
    // total 29,909,790,720 + 622,329,856 + 2,048 = 30,532,122,624 (the card: 30.5 B)
    QCOMPARE(m.paramCount(), std::int64_t{30'532'122'624});
    // layer, 8 experts: 18,874,368 + 37,748,736 + 262,144 + 4,352 = 56,889,600; x 48
    //   = 2,730,700,800; + 622,329,856 + 2,048 = 3,353,032,704 (the card: 3.3 B activated)
    QCOMPARE(m.activeParamCount(), std::int64_t{3'353'032'704});
}

// Qwen/Qwen3-235B-A22B: hidden 4096, 94 layers, 64 heads, 4 KV heads, 128 experts of 1536.
void TestMoe::qwen3_235b_a22b()
{
    if (!std::filesystem::exists(kModels))
        QSKIP("../shared/aic/models not present");
    const ModelArch m = fromFile("Qwen--Qwen3-235B-A22B_config.json");
    // attention 4096 x (64 + 8) x 128 + 64 x 128 x 4096 = 37,748,736 + 33,554,432 = 71,303,168
    // experts 128 x 3 x 4096 x 1536 = 2,415,919,104; router 524,288; norms 8,448
    // layer 2,487,755,008; x 94 = 233,848,970,752; + 2 x 151936 x 4096 (1,244,659,712) + 4,096
    QCOMPARE(m.paramCount(), std::int64_t{235'093'634'560});
    // active layer 71,303,168 + 8 x 18,874,368 + 524,288 + 8,448 = 222,830,848; x 94
    //   = 20,946,099,712; + 1,244,663,808 = 22,190,763,520 (the card: 22 B activated)
    QCOMPARE(m.activeParamCount(), std::int64_t{22'190'763'520});
    // The FP8 checkpoint has the same architecture.
    const ModelArch fp8 = fromFile("Qwen--Qwen3-235B-A22B-FP8_config.json");
    QCOMPARE(fp8.paramCount(), m.paramCount());
}

// mistralai/Mixtral-8x7B-v0.1: intermediate_size is the experts' size; no q/k norm.
void TestMoe::mixtral()
{
    if (!std::filesystem::exists(kModels))
        QSKIP("../shared/aic/models not present");
    const ModelArch m = fromFile("mistralai--Mixtral-8x7B-v0.1_config.json");
    QCOMPARE(m.moe.experts, 8);
    QCOMPARE(m.moe.topk, 2);
    QCOMPARE(m.moe.expertIntermediate, 14336);
    QCOMPARE(m.intermediate, 0);
    // attention 4096 x (32 + 16) x 128 + 4096 x 4096 = 25,165,824 + 16,777,216 = 41,943,040
    // experts 8 x 3 x 4096 x 14336 = 1,409,286,144; router 32,768; norms 8,192
    // layer 1,451,270,144; x 32 = 46,440,644,608; + 2 x 32000 x 4096 (262,144,000) + 4,096
    QCOMPARE(m.paramCount(), std::int64_t{46'702'792'704});
    // active layer 41,943,040 + 2 x 176,160,768 + 32,768 + 8,192 = 394,305,536; x 32
    //   = 12,617,777,152; + 262,148,096 = 12,879,925,248 (the card: 12.9 B active)
    QCOMPARE(m.activeParamCount(), std::int64_t{12'879'925'248});
}

// 4 layers, decoder_sparse_step 2 (layers 1 and 3 sparse), mlp_only_layers [3]: only layer 1
// is MoE.
void TestMoe::denseLayersBySparseStepAndMlpOnlyLayers()
{
    const ModelArch m = parseHfConfig(nlohmann::json::parse(R"({
        "model_type": "qwen3_moe", "num_hidden_layers": 4, "hidden_size": 8,
        "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
        "intermediate_size": 16, "moe_intermediate_size": 2, "num_experts": 4,
        "num_experts_per_tok": 2, "decoder_sparse_step": 2, "mlp_only_layers": [3],
        "vocab_size": 10, "tie_word_embeddings": true})"),
                                      "config.json");
    QVERIFY(!m.isMoeLayer(0) && m.isMoeLayer(1) && !m.isMoeLayer(2) && !m.isMoeLayer(3));
    QCOMPARE(m.moeLayers(), 1);
    // attention 8 x (2 + 2) x 4 + 2 x 4 x 8 = 128 + 64 = 192; norms 16 + 8 = 24
    // dense MLP 3 x 8 x 16 = 384; MoE block 4 x (3 x 8 x 2) + router 8 x 4 = 192 + 32 = 224
    // 4 x (192 + 24) + 3 x 384 + 224 + embedding 80 (tied) + final norm 8
    //   = 864 + 1,152 + 224 + 80 + 8 = 2,328
    QCOMPARE(m.paramCount(), std::int64_t{2328});
    // active: 2 experts (96) instead of 4 (192): 2,328 - 96 = 2,232
    QCOMPARE(m.activeParamCount(), std::int64_t{2232});
    // No dense layer: intermediate_size is not needed.
    QVERIFY(refusal(R"({"model_type": "qwen3_moe", "num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "head_dim": 4, "moe_intermediate_size": 2,
        "num_experts": 4, "num_experts_per_tok": 2, "vocab_size": 10})")
                .empty());
    // A dense layer without intermediate_size, a layer index out of range, topk > experts.
    QVERIFY(refusal(R"({"model_type": "qwen3_moe", "num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "head_dim": 4, "moe_intermediate_size": 2,
        "num_experts": 4, "num_experts_per_tok": 2, "vocab_size": 10, "mlp_only_layers": [0]})")
                .find("intermediate_size") != std::string::npos);
    QVERIFY(refusal(R"({"model_type": "qwen3_moe", "num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "head_dim": 4, "moe_intermediate_size": 2,
        "num_experts": 4, "num_experts_per_tok": 2, "vocab_size": 10, "mlp_only_layers": [2]})")
                .find("/mlp_only_layers/0: expected a layer index from 0 to 1") !=
            std::string::npos);
    QVERIFY(refusal(R"({"model_type": "qwen3_moe", "num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "head_dim": 4, "moe_intermediate_size": 2,
        "num_experts": 4, "num_experts_per_tok": 5, "vocab_size": 10})")
                .find("/num_experts_per_tok") != std::string::npos);
}

// Qwen3-30B-A3B's fields under model_type qwen3 were priced as a 3.3 B dense model.
void TestMoe::denseModelTypeWithExpertFieldsIsRefused()
{
    const std::string base = R"("num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "head_dim": 4, "intermediate_size": 16, "vocab_size": 10)";
    QVERIFY(refusal("{\"model_type\": \"qwen3\", " + base + "}").empty());
    for (const char* field : {"num_experts", "num_local_experts", "moe_intermediate_size"}) {
        for (const char* type : {"qwen3", "llama", "mistral", "qwen2"}) {
            const std::string why = refusal(std::string("{\"model_type\": \"") + type + "\", \"" +
                                            field + "\": 8, " + base + "}");
            QVERIFY2(why.find(std::string("/") + field + ": model_type '" + type +
                              "' is a dense decoder") != std::string::npos,
                     why.c_str());
        }
    }
}

// Qwen3-30B-A3B at bf16 on one GPU, batch 1, isl 1024, osl 256, bf16 KV, 3.5 GiB runtime.
void TestMoe::memoryAllExpertsResident()
{
    if (!std::filesystem::exists(kModels))
        QSKIP("../shared/aic/models not present");
    const ModelArch m = fromFile("Qwen--Qwen3-30B-A3B_config.json");
    Config c;
    c.recipe = BandRecipe::uniform(m.layers, Format::Bf16);
    Request q;
    q.isl = 1024;
    q.osl = 256;
    const double runtime = 3.5 * 1024 * 1024 * 1024; // 3,758,096,384
    const MemoryEstimate e = estimateStaticMemory(m, c, q, test::fakeGpu(200e9, runtime));
    // Everything is bf16, all 128 experts resident: weights, router, norms, embedding and
    // lm_head are 2 bytes x 30,532,122,624 parameters = 61,064,245,248 bytes.
    // KV: 1,280 tokens x 48 layers x 2 (K, V) x 4 KV heads x 128 x 2 bytes = 125,829,120
    // activations: max(2 x 1024 tokens x 32 heads x 128 x 11, 70 MiB) = 92,274,688
    // total 61,064,245,248 + 125,829,120 + 92,274,688 + 3,758,096,384 = 65,040,445,440
    const double hand = 65'040'445'440.0;
    QVERIFY2(std::abs(e.total() / hand - 1) < 0.01, std::to_string(e.total()).c_str());
    QCOMPARE(e.kvCacheBytes, 125'829'120.0);
    // Priced as the 3.3 B dense model its active parameters make, it would be ~10 x smaller.
    QVERIFY(e.weightBytes + e.embeddingBytes + e.lmHeadBytes >
            16.0 * static_cast<double>(m.activeParamCount()));
}

// tp 2: the same bytes per GPU with the experts split by expert parallelism (64 whole experts
// each) or by expert TP (128 halves); the router whole on both GPUs.
void TestMoe::memoryPerGpuUnderExpertParallelism()
{
    if (!std::filesystem::exists(kModels))
        QSKIP("../shared/aic/models not present");
    const ModelArch m = fromFile("Qwen--Qwen3-30B-A3B_config.json");
    Config c;
    c.recipe = BandRecipe::uniform(m.layers, Format::Bf16);
    c.tp = 2;
    const Platform gpu = test::fakeGpu(200e9);
    // per GPU and layer: q 2048 x 16 x 128 = 4,194,304; k, v 2 x 2048 x 2 x 128 = 1,048,576;
    // o 4,194,304; experts 603,979,776 / 2 = 301,989,888; router 262,144; norms 4,352
    //   -> 2 bytes x 311,693,568 = 623,387,136; x 48 = 29,922,582,528
    // embedding and lm_head 2 x 2 bytes x 75,968 x 2048 = 622,329,856; final norm 4,096
    const double hand = 29'922'582'528.0 + 622'329'856.0 + 4'096.0;
    for (int ep : {1, 2}) {
        c.moeEp = ep;
        QVERIFY(moeEpProblem(m, 2, ep).empty());
        const TpShard s = shardOf(m, 2, ep);
        QCOMPARE(s.localExperts, 128.0 / ep);
        QCOMPARE(s.expertIntermediate, 768.0 * ep / 2);
        const MemoryEstimate e = estimateStaticMemory(m, c, Request{}, gpu);
        QCOMPARE(e.weightBytes + e.embeddingBytes + e.lmHeadBytes, hand);
    }
    QVERIFY(!moeEpProblem(m, 2, 4).empty()); // 4 does not divide tp 2
    QVERIFY(!moeEpProblem(m, 4, 3).empty());
}

// B tokens each drawing k distinct experts of E uniformly (a partial Fisher-Yates shuffle),
// the distinct experts counted, averaged over 20,000 draws.
void TestMoe::distinctExpertsMatchSimulation()
{
    std::mt19937_64 rng(36);
    struct Case {
        int experts, topk, tokens;
    };
    for (const Case c : {Case{128, 8, 1}, Case{128, 8, 4}, Case{128, 8, 16}, Case{128, 8, 64},
                         Case{8, 2, 3}, Case{64, 6, 10}}) {
        constexpr int kDraws = 20000;
        std::vector<int> ids(static_cast<std::size_t>(c.experts));
        std::vector<char> hit(static_cast<std::size_t>(c.experts));
        double sum = 0;
        for (int draw = 0; draw < kDraws; ++draw) {
            std::fill(hit.begin(), hit.end(), 0);
            for (int t = 0; t < c.tokens; ++t) {
                std::iota(ids.begin(), ids.end(), 0);
                for (int j = 0; j < c.topk; ++j) {
                    std::uniform_int_distribution<int> pick(j, c.experts - 1);
                    std::swap(ids[static_cast<std::size_t>(j)],
                              ids[static_cast<std::size_t>(pick(rng))]);
                    hit[static_cast<std::size_t>(ids[static_cast<std::size_t>(j)])] = 1;
                }
            }
            sum += static_cast<double>(std::count(hit.begin(), hit.end(), 1));
        }
        const double simulated = sum / kDraws;
        const double formula = expectedDistinctExperts(c.experts, c.topk, c.tokens);
        QVERIFY2(std::abs(formula / simulated - 1) < 0.01,
                 (std::to_string(formula) + " vs " + std::to_string(simulated)).c_str());
    }
    // One token touches exactly topk experts; many tokens touch them all; none touch none.
    QCOMPARE(expectedDistinctExperts(128, 8, 1), 8.0);
    QVERIFY(std::abs(expectedDistinctExperts(128, 8, 4096) - 128) < 1e-9);
    QCOMPARE(expectedDistinctExperts(128, 8, 0), 0.0);
}

// E = 4 experts, k = 2, hidden 8, expert columns 16, one GPU, closed-form costs (GEMM
// 1e-9 m n k + 1e-3 ms, memory op 1e-9 ms per byte + 0.002 ms).
void TestMoe::moeAsGemmsPerTouchedExpert()
{
    const test::ClosedFormCosts costs;
    const MoeShape s{8, 16, 2, 4, 1, 1};
    // 1 token: D = 4 (1 - (1 - 2/4)^1) = 2 experts touched, m = 1 x 2 / 2 = 1 token each;
    // gate/up 1e-9 x 1 x 32 x 8 + 1e-3, down 1e-9 x 1 x 8 x 16 + 1e-3: 2 x (384e-9 + 2e-3);
    // SiLU 6 x 16 x 2 routed = 192 bytes, permute/combine 8 x 8 x 2 = 128 bytes.
    const double oneToken = 2 * (384e-9 + 2e-3) + (192e-9 + 0.002) + (128e-9 + 0.002);
    QVERIFY(std::abs(costs.moeMs(Format::Bf16, 1, s) - oneToken) < 1e-12);
    // Expert parallelism over 2 GPUs: half the touched experts and half the routed tokens,
    // m unchanged: 1 x (384e-9 + 2e-3) + (96e-9 + 0.002) + (64e-9 + 0.002).
    const MoeShape ep2{8, 16, 2, 4, 1, 2};
    QVERIFY(std::abs(costs.moeMs(Format::Bf16, 1, ep2) -
                     ((384e-9 + 2e-3) + (96e-9 + 0.002) + (64e-9 + 0.002))) < 1e-12);
    // Decode reads every touched expert: 3 tokens touch 4 (1 - 1/8) = 3.5 experts, each with
    // 6 / 3.5 tokens; more weight traffic (constants) than topk = 2 experts would pay.
    const double m = 6.0 / 3.5;
    const double three =
        3.5 * (1e-9 * m * 384 + 2e-3) + (6 * 16 * 6e-9 + 0.002) + (8 * 8 * 6e-9 + 0.002);
    QVERIFY(std::abs(costs.moeMs(Format::Bf16, 3, s) - three) < 1e-12);
}

void TestMoe::moeTableInterpolatesInTokens()
{
    const std::string header = "kernel_source,moe_dtype,num_tokens,hidden_size,inter_size,topk,"
                               "num_experts,moe_tp_size,moe_ep_size,distribution,latency\n";
    const auto t = parseMoeTable(header + "k,fp8_block,1,4096,1536,8,128,1,4,balanced,0.1\n"
                                          "k,fp8_block,4,4096,1536,8,128,1,4,balanced,0.2\n"
                                          "k,fp8_block,8,4096,1536,8,128,1,4,balanced,0.4\n"
                                          "k,fp8_block,8,4096,1536,8,128,1,4,power_law_1.2,9\n"
                                          "k,w4a16_mxfp4,8,4096,1536,8,128,1,4,balanced,9\n",
                                 "moe_perf.csv");
    QCOMPARE(t.info.rowsRead, 5);
    QCOMPARE(t.info.rowsKept, 3);
    QCOMPARE(t.info.rowsSkipped, 2);
    const MoeTable table(t.rows);
    const MoeShape s{4096, 1536, 8, 128, 1, 4};
    QCOMPARE(table.lookup(Format::Fp8Block, 4, s), 0.2); // a measured count
    // between 4 (0.2) and 8 (0.4): 6 tokens -> 0.3
    QVERIFY(std::abs(table.lookup(Format::Fp8Block, 6, s) - 0.3) < 1e-12);
    QCOMPARE(table.lookup(Format::Fp8Block, 0.5, s), 0.1); // below: the smallest count's
    // above: the line through (4, 0.2) and (8, 0.4): 16 tokens -> 0.8
    QVERIFY(std::abs(table.lookup(Format::Fp8Block, 16, s) - 0.8) < 1e-12);
    QVERIFY(std::isnan(table.lookup(Format::Bf16, 4, s)));
    // Uniform routing: 4 tokens touch 128 (1 - (120/128)^4) = 29.123 experts, what balanced
    // routing touches at 29.123 / 8 = 3.6404 tokens: 0.1 + 0.1 x 2.6404 / 3 = 0.18801 ms
    // instead of 0.2 (balanced: 32 experts).
    const double eq = 128 * (1 - std::pow(120.0 / 128, 4)) / 8;
    QVERIFY(std::abs(table.routedLookup(Format::Fp8Block, 4, s) - (0.1 + 0.1 * (eq - 1) / 3)) <
            1e-12);
    QCOMPARE(table.routedLookup(Format::Fp8Block, 1, s), 0.1); // one token: 8 experts either way
    QVERIFY(std::isnan(table.lookup(Format::Fp8Block, 4, MoeShape{4096, 1536, 8, 128, 2, 2})));
}

void TestMoe::moeTableBadInput()
{
    const std::string header = "kernel_source,moe_dtype,num_tokens,hidden_size,inter_size,topk,"
                               "num_experts,moe_tp_size,moe_ep_size,distribution,latency\n";
    auto why = [&](const std::string& text) -> std::string {
        try {
            parseMoeTable(text, "moe_perf.csv");
        } catch (const LoadError& e) {
            return e.what();
        }
        return {};
    };
    QVERIFY(why(header + "k,fp8,0,4096,1536,8,128,1,4,balanced,0.1\n").find("num_tokens") !=
            std::string::npos);
    QVERIFY(why(header + "k,fp8,1,4096,1536,8,128,1,4,balanced,-1\n").find("latency") !=
            std::string::npos);
    // No balanced row (a stack timed only power-law routing): an empty table, not an error.
    const auto none =
        parseMoeTable(header + "k,fp8,1,4096,1536,8,128,1,4,power_law_1.2,0.1\n", "moe_perf.csv");
    QVERIFY(none.rows.empty() && none.info.rowsSkipped == 1 && !none.info.notes.empty());
    QVERIFY(why(header).find("no data rows") != std::string::npos);
    QVERIFY(why("moe_dtype,num_tokens\nfp8,1\n").find("hidden_size") != std::string::npos);
}

// Costs whose GEMM is its n (ms) and whose MoE block is 100 ms: the step's GEMM sum names
// every operator of a dense and an MoE layer.
class CountingCosts : public test::FakeCostsBase
{
public:
    bool supports(Format) const override { return true; }
    double gemmMs(Format, double, double n, double) const override { return n; }
    double contextAttentionMs(double, double, int, int, int, KvFormat) const override { return 0; }
    double generationAttentionMs(double, double, int, int, int, KvFormat) const override
    {
        return 0;
    }
    double moeMs(Format, double, const MoeShape&) const override { return 100; }
};

// GEMMs that cost n at bf16 and n / 2 quantized, memory ops nothing.
class HalvingCosts final : public CountingCosts
{
public:
    double gemmMs(Format f, double, double n, double) const override
    {
        return f == Format::Bf16 ? n : n / 2;
    }
    double memoryOpMs(double) const override { return 0; }
};

void TestMoe::stepCountsEveryMoeOperator()
{
    // The 4-layer model of denseLayersBySparseStepAndMlpOnlyLayers: layer 1 MoE, 0, 2, 3 dense.
    ModelArch m = parseHfConfig(nlohmann::json::parse(R"({
        "model_type": "qwen3_moe", "num_hidden_layers": 4, "hidden_size": 8,
        "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
        "intermediate_size": 16, "moe_intermediate_size": 2, "num_experts": 4,
        "num_experts_per_tok": 2, "decoder_sparse_step": 2, "mlp_only_layers": [3],
        "vocab_size": 10})"),
                                "config.json");
    const CountingCosts costs;
    Config c;
    c.recipe = BandRecipe::uniform(4, Format::Bf16);
    StepBreakdown b;
    StepModel(costs, m, c).prefillStepMs(1, 4, &b);
    // every layer: qkv n = (2 + 2) x 4 = 16, o_proj n = 8 -> 24
    // dense layers: gate_up n = 32, down n = 8 -> 40; MoE layer: router n = 4, block 100
    // 4 x 24 + 3 x 40 + 104 = 320
    QCOMPARE(b.gemm(), 320.0);
    // moe_ep 4 does not divide tp 2.
    c.tp = 2;
    c.moeEp = 4;
    std::string why;
    try {
        StepModel(costs, m, c);
    } catch (const std::invalid_argument& e) {
        why = e.what();
    }
    QVERIFY2(why.find("moe_ep 4 does not divide tp 2") != std::string::npos, why.c_str());
}

// Qwen3-30B-A3B at bf16 on Thor's spec sheet (273 GB/s, speed of light, no table): a decode
// step of 4 requests reads at least the weights it touches.
void TestMoe::specOnlyDecodeReadsTouchedExperts()
{
    if (!std::filesystem::exists(kModels))
        QSKIP("../shared/aic/models not present");
    const ModelArch m = fromFile("Qwen--Qwen3-30B-A3B_config.json");
    Platform thor;
    thor.id = "thor";
    thor.memBandwidth = 273e9;
    thor.tensorFlops = {258.75e12, 0, 517.5e12, 1035e12};
    const SolOpCosts sol(thor, {Format::Bf16});
    Config c;
    c.recipe = BandRecipe::uniform(m.layers, Format::Bf16);
    const StepModel step(sol, m, c);
    // 4 tokens touch 128 (1 - (120/128)^4) = 29.12 experts per layer: 29.12 x 4,718,592
    // + attention 18,874,368 + router 262,144 = 156.55 M parameters; x 48 layers + lm_head
    // 311,164,928 = 7.826 G parameters, 15.65 GB at bf16: 57.3 ms at 273 GB/s.
    const double touched = 128 * (1 - std::pow(120.0 / 128, 4));
    const double params = 48 * (touched * 4'718'592 + 18'874'368 + 262'144) + 311'164'928.0;
    const double boundMs = 2 * params / 273e9 * 1e3;
    QVERIFY(boundMs > 57 && boundMs < 58);
    const double ms = step.decodeFixedMs(4);
    QVERIFY2(ms >= boundMs, std::to_string(ms).c_str());
    // Not all 128 experts: under half the step that would read the whole model (61.06 GB:
    // 223.7 ms).
    QVERIFY2(ms < 2 * 30'532'122'624.0 / 273e9 * 1e3 * 0.5, std::to_string(ms).c_str());
    // One request touches 8 experts: a cheaper step.
    QVERIFY(step.decodeFixedMs(1) < ms);
}

// A Qwen2-MoE shared expert belongs to the experts scope: counted with the routed experts in
// the parameters, the memory at the band's MLP format, the quality share and the step's GEMMs
// at that format; its one-column gate stays bf16 with the router. Qwen3-MoE ignores the field.
void TestMoe::sharedExpertInExpertsScope()
{
    const std::string fields = R"("num_hidden_layers": 4, "hidden_size": 8,
        "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
        "intermediate_size": 16, "moe_intermediate_size": 2, "num_experts": 4,
        "num_experts_per_tok": 2, "decoder_sparse_step": 2, "shared_expert_intermediate_size": 6,
        "vocab_size": 10, "tie_word_embeddings": true})";
    const ModelArch m = parseHfConfig(
        nlohmann::json::parse(R"({"model_type": "qwen2_moe", )" + fields), "config.json");
    QCOMPARE(m.moe.sharedIntermediate, 6);
    QVERIFY(!m.qkNorm && !m.isMoeLayer(0) && m.isMoeLayer(1) && !m.isMoeLayer(2) &&
            m.isMoeLayer(3));
    const ModelArch qwen3 = parseHfConfig(
        nlohmann::json::parse(R"({"model_type": "qwen3_moe", )" + fields), "config.json");
    QCOMPARE(qwen3.moe.sharedIntermediate, 0);
    QVERIFY(refusal(R"({"model_type": "qwen2_moe", "num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "head_dim": 4, "moe_intermediate_size": 2,
        "num_experts": 4, "num_experts_per_tok": 2, "vocab_size": 10})")
                .find("shared_expert_intermediate_size") != std::string::npos);

    // Per layer: attention 8 x (2 + 2) x 4 + 2 x 4 x 8 = 192, q/k/v biases (2 + 2) x 4 = 16,
    // norms 16 (no q/k norm). Dense MLP 3 x 8 x 16 = 384. MoE block: experts 4 x 3 x 8 x 2 =
    // 192, shared 3 x 8 x 6 = 144, router 8 x 4 + shared gate 8 x 1 = 40. 4 x 224 + 2 x 384
    // + 2 x 376 + embedding 80 (tied) + final norm 8 = 2,504; active: 2 of 4 experts (96 fewer
    // per MoE layer) = 2,312.
    QCOMPARE(m.paramCount(), std::int64_t{2504});
    QCOMPARE(m.activeParamCount(), std::int64_t{2312});

    // fp8 experts on layers 0-1, bf16 on 2-3. Bytes: attention 4 x 192 x 2 = 1,536, norms
    // 4 x 16 x 2 = 128; layer 0 MLP 384 x 1; layer 1 experts and shared (192 + 144) x 1 + router
    // and gate 40 x 2; layer 2 MLP 384 x 2; layer 3 336 x 2 + 80; final norm 16: 4,000.
    Config c;
    c.recipe =
        BandRecipe::fromCuts(4, {2}, {{Format::Fp8, Scope::Mlp}, {Format::Bf16, Scope::Full}});
    QCOMPARE(estimateStaticMemory(m, c, Request{}, Platform{}).weightBytes, 4000.0);

    // Quality: the MoE layer's MLP group is its experts and shared expert, 336 of 528; a dense
    // layer's MLP 384 of 576.
    QCOMPARE(groupShare(m, 1, TensorGroup::Mlp), 7.0 / 11.0);
    QCOMPARE(groupShare(m, 0, TensorGroup::Mlp), 2.0 / 3.0);

    // Latency: a GEMM costs n at bf16, n / 2 quantized; the MoE block 100 at any format.
    const HalvingCosts costs;
    StepBreakdown b;
    // Uniform fp8 experts: attention bf16 4 x 24 = 96; dense MLP (32 + 8) / 2 x 2 = 40; MoE
    // layers router 4 (bf16), block 100, shared gate_up 12 and down 8 at fp8 (10): 2 x 114.
    // The naive per-layer baseline names the same operators: its prefill adds the bf16 lm_head
    // (n = vocab 10) to the layers' GEMMs, memory ops and attention costing nothing here.
    Request q;
    q.isl = 4;
    q.osl = 1;
    c.batch = 1;
    c.recipe = BandRecipe::uniform(4, Format::Fp8, Scope::Mlp);
    StepModel(costs, m, c).prefillStepMs(1, 4, &b);
    QCOMPARE(b.gemm(), 96.0 + 40.0 + 228.0);
    QCOMPARE(estimateLatencyNaive(costs, m, c, q).ttftMs, 96.0 + 40.0 + 228.0 + 10.0);
    // Attention only: attention 48, dense MLP 80, MoE layers 4 + 100 + 20 each.
    c.recipe = BandRecipe::uniform(4, Format::Fp8, Scope::Attn);
    StepModel(costs, m, c).prefillStepMs(1, 4, &b);
    QCOMPARE(b.gemm(), 48.0 + 80.0 + 248.0);
    QCOMPARE(estimateLatencyNaive(costs, m, c, q).ttftMs, 48.0 + 80.0 + 248.0 + 10.0);
}

// Qwen2-MoE (and Qwen2) add a bias to q, k and v. Qwen/Qwen1.5-MoE-A2.7B's config.json
// (model_type qwen2_moe): hidden 2048, 24 layers, 16 heads, 16 KV heads (head_dim 128), 60
// experts of 1408, 4 per token, a shared expert of 5632, vocabulary 151936, untied.
void TestMoe::qwen2MoeCountsQkvBiases()
{
    const std::string fields = R"("hidden_size": 2048, "num_hidden_layers": 24,
        "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632,
        "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632,
        "num_experts": 60, "num_experts_per_tok": 4, "decoder_sparse_step": 1,
        "norm_topk_prob": false, "vocab_size": 151936, "tie_word_embeddings": false})";
    const ModelArch m = parseHfConfig(
        nlohmann::json::parse(R"({"model_type": "qwen2_moe", )" + fields), "config.json");
    // biases: (16 + 2 x 16) x 128 = 6,144 per layer
    QCOMPARE(m.attnBiasParams(), std::int64_t{6'144});
    // layer: attention 4 x 2048 x 2048 = 16,777,216 + biases 6,144 + norms 4,096 + experts
    //   60 x 3 x 2048 x 1408 = 519,045,120 + shared 3 x 2048 x 5632 = 34,603,008 + router and
    //   shared gate 2048 x 61 = 124,928 -> 570,560,512; x 24 = 13,693,452,288
    // + embedding and lm_head 2 x 151936 x 2048 = 622,329,856 + final norm 2,048
    //   = 14,315,784,192 (the card: 14.3 B)
    QCOMPARE(m.paramCount(), std::int64_t{14'315'784'192});
    // active layer: 4 experts 34,603,008 instead of 60: 86,118,400; x 24 = 2,066,841,600
    //   + 622,331,904 = 2,689,173,504 (the card: 2.7 B activated)
    QCOMPARE(m.activeParamCount(), std::int64_t{2'689'173'504});
    // Dense Qwen2 too: against Llama with the same fields, 24 x 6,144 = 147,456 more.
    const std::string dense = R"("hidden_size": 2048, "num_hidden_layers": 24,
        "num_attention_heads": 16, "intermediate_size": 5632, "vocab_size": 151936})";
    const ModelArch qwen2 =
        parseHfConfig(nlohmann::json::parse(R"({"model_type": "qwen2", )" + dense), "config.json");
    const ModelArch llama =
        parseHfConfig(nlohmann::json::parse(R"({"model_type": "llama", )" + dense), "config.json");
    QCOMPARE(qwen2.paramCount() - llama.paramCount(), std::int64_t{147'456});
}

// attention_bias (Llama, Qwen3, Qwen3-MoE) gives q, k, v and o a bias each; Qwen2 has its q, k,
// v biases whatever the field says; Mistral and Mixtral ignore it (Hugging Face's modeling code).
// Two layers of hidden 8, 2 heads, 1 KV head of 4, MLP 16, vocabulary 10, tied:
//   layer: attention 8 x (2 + 2) x 4 + 2 x 4 x 8 = 192, norms 16, MLP 3 x 8 x 16 = 384 -> 592
//   2 x 592 + embedding 80 + final norm 8 = 1,272 without biases
//   attention_bias: q 8 + k 4 + v 4 + o 8 = 24 a layer -> 1,272 + 48 = 1,320
//   Qwen2's q, k, v: 16 a layer -> 1,304; Qwen3 adds its q/k norms 2 x 4 a layer: 1,288 + 48
void TestMoe::attentionBiasAddsFourBiases()
{
    const std::string fields = R"("num_hidden_layers": 2, "hidden_size": 8,
        "num_attention_heads": 2, "num_key_value_heads": 1, "intermediate_size": 16,
        "vocab_size": 10, "tie_word_embeddings": true)";
    const auto count = [&](const std::string& type, const std::string& bias) {
        const std::string text = R"({"model_type": ")" + type + R"(", )" + fields + bias + "}";
        const ModelArch m = parseHfConfig(nlohmann::json::parse(text), "config.json");
        return m.paramCount();
    };
    const std::string on = R"(, "attention_bias": true)", off = R"(, "attention_bias": false)";
    QCOMPARE(count("llama", ""), std::int64_t{1'272});
    QCOMPARE(count("llama", off), std::int64_t{1'272});
    QCOMPARE(count("llama", R"(, "attention_bias": null)"), std::int64_t{1'272});
    QCOMPARE(count("llama", on), std::int64_t{1'320});
    QCOMPARE(count("qwen3", on), std::int64_t{1'288 + 48});
    QCOMPARE(count("qwen2", ""), std::int64_t{1'304});
    QCOMPARE(count("qwen2", off), std::int64_t{1'304});
    QCOMPARE(count("qwen2", on), std::int64_t{1'304});
    QCOMPARE(count("mistral", on), std::int64_t{1'272});
    // The 4-layer qwen3_moe of denseLayersBySparseStepAndMlpOnlyLayers (hidden 8, 2 heads, 1 KV
    // head of 4; 2,328 parameters, 2,232 active): 4 x 24 biases more, on both counts.
    const ModelArch moe = parseHfConfig(nlohmann::json::parse(R"({
        "model_type": "qwen3_moe", "num_hidden_layers": 4, "hidden_size": 8,
        "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 4,
        "intermediate_size": 16, "moe_intermediate_size": 2, "num_experts": 4,
        "num_experts_per_tok": 2, "decoder_sparse_step": 2, "mlp_only_layers": [3],
        "vocab_size": 10, "tie_word_embeddings": true, "attention_bias": true})"),
                                        "config.json");
    QCOMPARE(moe.attnBiasParams(), std::int64_t{24});
    QCOMPARE(moe.paramCount(), std::int64_t{2'328 + 96});
    QCOMPARE(moe.activeParamCount(), std::int64_t{2'232 + 96});
    // Not a boolean: refused, naming the field.
    const std::string why =
        refusal(R"({"model_type": "llama", )" + fields + R"(, "attention_bias": "yes"})");
    QVERIFY2(why.find("config.json") != std::string::npos &&
                 why.find("/attention_bias") != std::string::npos,
             why.c_str());
}

// The roofline on the 4-layer qwen2_moe of sharedExpertInExpertsScope (layers 1, 3 MoE), bf16,
// batch 1, isl 4, osl 2 (decode at context 5), one GPU, by hand.
void TestMoe::rooflineRunsActiveExpertsReadsTouchedOnes()
{
    const ModelArch m = parseHfConfig(nlohmann::json::parse(R"({"model_type": "qwen2_moe",
        "num_hidden_layers": 4, "hidden_size": 8, "num_attention_heads": 2,
        "num_key_value_heads": 1, "head_dim": 4, "intermediate_size": 16,
        "moe_intermediate_size": 2, "num_experts": 4, "num_experts_per_tok": 2,
        "decoder_sparse_step": 2, "shared_expert_intermediate_size": 6, "vocab_size": 10,
        "tie_word_embeddings": true})"),
                                      "config.json");
    Config c;
    c.recipe = BandRecipe::uniform(4, Format::Bf16);
    Request q;
    q.isl = 4;
    q.osl = 2;
    // Compute-bound (1,000 FLOP/s, unbounded bandwidth): FLOPs = ms. Per token: dense layers
    // 2 x (192 + 384) = 1,152; MoE layers 2 x (attention 192 + 2 of 4 experts 96 + shared 144
    // + router and gate 40) = 944; 2 x 1,152 + 2 x 944 = 4,192. Decode: + attention
    // 2 x 2 x 5 x (4 layers x 2 heads x 4) = 640 + lm_head 2 x 10 x 8 = 160: 4,992. Prefill of
    // 4 tokens: 16,768 + causal attention 2 x 2 x 16 / 2 x 32 = 1,024 + 160 = 17,952.
    Platform compute;
    compute.tensorFlops = {1e3, 0, 0, 0};
    compute.memBandwidth = 1e30;
    RooflineEstimate r = estimateRoofline(m, c, q, compute);
    QVERIFY(std::abs(r.tpotMs - 4992.0) < 1e-6);
    QVERIFY(std::abs(r.ttftMs - 17952.0) < 1e-6);
    // Memory-bound (1,000 B/s): bytes = ms. Weights 4,720 bytes (attention 1,536, norms 128, dense
    // MLPs 1,536, MoE blocks 2 x 752, final norm 16; lm_head tied) less the routed experts left
    // untouched. Decode: 1 token touches 2 of 4 experts, 2 x 48 x 2 bytes untouched per MoE
    // layer: 4,720 - 384 + KV 5 x 64 = 4,656. Prefill: 4 tokens touch 4 (1 - (1/2)^4) = 3.75,
    // 0.25 x 96 x 2 = 48 bytes untouched: 4,720 - 48 + KV 4 x 64 = 4,928.
    Platform memory;
    memory.tensorFlops = {1e30, 0, 0, 0};
    memory.memBandwidth = 1e3;
    r = estimateRoofline(m, c, q, memory);
    QVERIFY2(std::abs(r.tpotMs - 4656.0) < 1e-6, std::to_string(r.tpotMs).c_str());
    QVERIFY2(std::abs(r.ttftMs - 4928.0) < 1e-6, std::to_string(r.ttftMs).c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestMoe)
#include "test_moe.moc"
