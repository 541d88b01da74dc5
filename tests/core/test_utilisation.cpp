// The empirical model: fitting recovers a known utilisation, leave-one-GPU-out is exact when
// GPUs share it, lookups interpolate and fall back as documented, the file round-trips, and
// the committed model reproduces a GPU's own table within its reported error.
#include "core/data/loaderror.h"
#include "core/data/platformsfile.h"
#include "core/data/specstacks.h"
#include "core/latency/empiricalopcosts.h"
#include "core/latency/opcostsfactory.h"
#include "core/latency/utilisationfit.h"
#include "testmain.h"

#include <QFileInfo>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

const std::string kPlatforms = ACSEL_DATASETS "/platforms.json";
const std::string kUtilisation = ACSEL_DATASETS "/utilisation.json";
const std::string kTables = ACSEL_SHARED_DIR "/aic";

Platform gpu(double bandwidth, double bf16)
{
    Platform p;
    p.id = "gpu";
    p.memBandwidth = bandwidth;
    p.tensorFlops = {bf16, 0, 0, 0};
    return p;
}

// A "true" utilisation that depends on the node only (log2 m, n, k rounded), so a per-node
// median must recover it exactly.
double trueUtilisation(int m, int n, int k)
{
    return 0.2 + 0.05 * std::log2(m) / 15.0 + 0.4 * std::log2(n) / 16.0 + 0.1 * (k > 1024);
}

double trueAttentionUtilisation(int batch, int seq)
{
    return 0.3 + 0.02 * std::log2(batch * seq);
}

// Synthetic tables of one GPU whose measured times are (roof + c) / u_true.
void addSynthetic(UtilisationSamples& s, const std::string& system, const Platform& p, double c)
{
    AicTable<GemmRow> gemm;
    for (int m : {1, 4, 16, 64, 256, 1024, 4096})
        for (int n : {256, 1024, 4096})
            for (int k : {256, 1024, 8192})
                gemm.rows.push_back(
                    {Format::Bf16, m, n, k,
                     (solGemmRoofMs(p, Format::Bf16, m, n, k) + c) / trueUtilisation(m, n, k)});
    AicTable<AttentionRow> context, generation;
    for (int b : {1, 4, 16})
        for (int seq : {128, 1024, 4096}) {
            const double u = trueAttentionUtilisation(b, seq);
            context.rows.push_back(
                {KvFormat::Bf16, KvFormat::Bf16, 8, 128, 32, seq, b,
                 (solContextAttentionRoofMs(p, b, seq, 32, 8, 128, KvFormat::Bf16) + c) / u});
            generation.rows.push_back(
                {KvFormat::Bf16, KvFormat::Bf16, 8, 128, 32, seq, b,
                 (solGenerationAttentionRoofMs(p, b, seq, 32, 8, 128, KvFormat::Bf16) + c) / u});
        }
    s.addStack(system, "vllm", p, gemm, context, generation);
}

Platform linked(Interconnect link, double bytesPerS)
{
    Platform p = gpu(1e12, 100e12);
    p.interconnect = link;
    p.linkBandwidth = bytesPerS;
    return p;
}

// A "true" all-reduce utilisation depending on the GPU count's node only.
double trueAllReduceUtilisation(int gpus)
{
    return gpus == 2 ? 0.6 : gpus == 4 ? 0.4 : 0.3;
}

// NCCL rows of one GPU whose measured times are (roof + c) / u_true.
AicTable<CommRow> syntheticNccl(const Platform& p, double c)
{
    AicTable<CommRow> t;
    for (int gpus : {2, 4, 8})
        for (double e = 256; e <= 268435456; e *= 4)
            t.rows.push_back(
                {gpus, e, (solAllReduceRoofMs(p, gpus, e) + c) / trueAllReduceUtilisation(gpus)});
    return t;
}

UtilisationModel handModel()
{
    UtilisationModel m;
    m.solConstantMs = 0.005;
    for (OpClass op : {OpClass::Gemm, OpClass::ContextAttention, OpClass::GenerationAttention}) {
        UtilGrid g;
        g.op = op;
        g.variant = "bf16";
        g.samples = 1;
        g.logU.assign(static_cast<std::size_t>(utilNodeCount(op)), std::log(0.5));
        m.grids.push_back(g);
    }
    return m;
}

double ape(double predicted, double measured)
{
    return std::abs(predicted - measured) / measured;
}

} // namespace

class TestUtilisation : public QObject
{
    Q_OBJECT
private slots:
    void fitRecoversKnownUtilisation();
    void leaveOneGpuOutIsExactWhenGpusShareUtilisation();
    void interpolatesInLog2AndHoldsBeyondTheGrid();
    void backendOverlayAndFallbacks();
    void holesAreFilledFromNeighbours();
    void fileRoundTrip();
    void fileErrors();
    void empiricalIsSolOverUtilisation();
    void factoryBuildsEmpiricalStacks();
    void committedModelReproducesOwnTable();
    void allReduceRoofByHand();
    void allReduceUtilisationTransfersByLink();
    void allReduceNeedsLinkAndGrid();
    void fileWithoutAllReduceStillLoads();
    void committedModelSplitsOverPcie();
};

void TestUtilisation::fitRecoversKnownUtilisation()
{
    const Platform p = gpu(1e12, 100e12);
    UtilisationSamples s;
    addSynthetic(s, "g1", p, 0.005);
    const UtilisationModel m = fitUtilisation(s, 0.005);
    const ResolvedUtilGrid g(m, OpClass::Gemm, "vllm", "bf16", "bf16");
    for (int mm : {1, 16, 4096})
        for (int n : {256, 4096})
            for (int k : {256, 8192})
                QVERIFY(std::abs(g.logUtilisation(mm, n, k) - std::log(trueUtilisation(mm, n, k))) <
                        1e-12);
    for (const ApeSummary& a : evaluateUtilisation(m, s, -1, true))
        QVERIFY2(a.medianApe < 1e-9 && a.p90Ape < 1e-9, a.scope.c_str());
}

void TestUtilisation::leaveOneGpuOutIsExactWhenGpusShareUtilisation()
{
    // Two GPUs with different specs but the same utilisation law: the held-out one is
    // predicted exactly from the other; with a different constant it is not.
    UtilisationSamples s;
    addSynthetic(s, "fast", gpu(3e12, 900e12), 0.005);
    addSynthetic(s, "slow", gpu(0.3e12, 50e12), 0.005);
    const std::vector<ApeSummary> loo = leaveOneGpuOut(s, 0.005);
    QVERIFY(!loo.empty());
    for (const ApeSummary& a : loo)
        QVERIFY2(a.medianApe < 1e-9 && a.p90Ape < 1e-9, a.scope.c_str());
    const std::vector<ApeSummary> off = leaveOneGpuOut(s, 0.001);
    const bool someError =
        std::any_of(off.begin(), off.end(), [](const ApeSummary& a) { return a.medianApe > 1e-3; });
    QVERIFY(someError);
}

void TestUtilisation::interpolatesInLog2AndHoldsBeyondTheGrid()
{
    UtilisationModel m = handModel();
    // GEMM node values depend on log2 m only: log u = -0.1 * (log2 m).
    UtilGrid& g = m.grids[0];
    const auto& axes = utilAxes(OpClass::Gemm);
    const int per = axes[1].size() * axes[2].size();
    for (int i = 0; i < utilNodeCount(OpClass::Gemm); ++i)
        g.logU[static_cast<std::size_t>(i)] = -0.1 * (i / per + axes[0].lo);
    const ResolvedUtilGrid r(m, OpClass::Gemm, "vllm", "bf16", "bf16");
    QVERIFY(std::abs(r.logUtilisation(4, 1024, 1024) + 0.2) < 1e-12);
    // m = 4 * sqrt(2): halfway between nodes 2 and 3 in log2.
    QVERIFY(std::abs(r.logUtilisation(4 * std::sqrt(2.0), 1024, 1024) + 0.25) < 1e-12);
    // Beyond the largest node (m = 32768): held.
    QVERIFY(std::abs(r.logUtilisation(1 << 20, 1024, 1024) + 1.5) < 1e-12);
    QVERIFY(std::abs(r.logUtilisation(0.25, 1024, 1024) - 0.0) < 1e-12);
}

void TestUtilisation::backendOverlayAndFallbacks()
{
    UtilisationModel m = handModel();
    UtilGrid own = m.grids[0];
    own.backend = "trtllm";
    std::fill(own.logU.begin(), own.logU.end(), std::nan(""));
    own.logU[0] = std::log(0.9); // m = 1, n = 32, k = 32
    m.grids.push_back(own);
    const ResolvedUtilGrid trt(m, OpClass::Gemm, "trtllm", "bf16", "bf16");
    QVERIFY(std::abs(trt.logUtilisation(1, 32, 32) - std::log(0.9)) < 1e-12);
    QVERIFY(std::abs(trt.logUtilisation(1024, 1024, 1024) - std::log(0.5)) < 1e-12);
    const ResolvedUtilGrid vllm(m, OpClass::Gemm, "vllm", "bf16", "bf16");
    QVERIFY(std::abs(vllm.logUtilisation(1, 32, 32) - std::log(0.5)) < 1e-12);
    QVERIFY(!vllm.usedFallback());
    const ResolvedUtilGrid nvfp4(m, OpClass::Gemm, "vllm", "nvfp4", "bf16");
    QVERIFY(nvfp4.valid());
    QVERIFY(nvfp4.usedFallback());
}

void TestUtilisation::holesAreFilledFromNeighbours()
{
    UtilisationModel m = handModel();
    UtilGrid& g = m.grids[1]; // context: (batch, isl)
    std::fill(g.logU.begin(), g.logU.end(), std::nan(""));
    g.logU[0] = -1.0; // batch 1, isl 1: the only measured node
    const ResolvedUtilGrid r(m, OpClass::ContextAttention, "vllm", "bf16", "bf16");
    QVERIFY(std::abs(r.logUtilisation(256, 16384) + 1.0) < 1e-12);
    QVERIFY(std::abs(r.logUtilisation(3, 100) + 1.0) < 1e-12);
}

void TestUtilisation::fileRoundTrip()
{
    UtilisationSamples s;
    addSynthetic(s, "g1", gpu(1e12, 100e12), 0.005);
    UtilisationModel m = fitUtilisation(s, 0.005);
    m.command = "test";
    m.inSample = evaluateUtilisation(m, s, -1, true);
    const UtilisationModel back =
        parseUtilisation(parseJsonText(utilisationToText(m), "u.json"), "u.json");
    QCOMPARE(back.grids.size(), m.grids.size());
    QCOMPARE(back.parameterCount(), m.parameterCount());
    QCOMPARE(back.solConstantMs, 0.005);
    QCOMPARE(back.fittedStacks, m.fittedStacks);
    QCOMPARE(back.inSample.size(), m.inSample.size());
    for (std::size_t i = 0; i < m.grids.size(); ++i)
        for (std::size_t v = 0; v < m.grids[i].logU.size(); ++v) {
            const double a = m.grids[i].logU[v], b = back.grids[i].logU[v];
            QVERIFY(std::isnan(a) ? std::isnan(b) : std::abs(a - b) <= 5e-4);
        }
}

void TestUtilisation::fileErrors()
{
    UtilisationSamples s;
    addSynthetic(s, "g1", gpu(1e12, 100e12), 0.005);
    const Json good = parseJsonText(utilisationToText(fitUtilisation(s, 0.005)), "u.json");
    auto expectError = [&](const char* pointer, const Json& value, const char* where) {
        Json j = good;
        j[Json::json_pointer(pointer)] = value;
        try {
            parseUtilisation(j, "u.json");
            QFAIL("expected a LoadError");
        } catch (const LoadError& e) {
            QCOMPARE(QString::fromStdString(e.where()), QString(where));
        }
    };
    expectError("/grids/0/log_utilisation", Json::array({1.0, 2.0}), "/grids/0/log_utilisation");
    expectError("/grids/0/op", "convolution", "/grids/0/op");
    expectError("/grids/0/variant", "fp6", "/grids/0/variant");
    expectError("/grids/0/log_utilisation/0", "x", "/grids/0/log_utilisation/0");
    expectError("/axes/gemm/0/hi", 14, "/axes/gemm");
    expectError("/kind", "acsel-platforms", "/kind");
    expectError("/sol_constant_us", -1, "/sol_constant_us");
}

void TestUtilisation::empiricalIsSolOverUtilisation()
{
    const UtilisationModel m = handModel(); // u = 0.5 everywhere
    const Platform p = gpu(768e9, 154.8e12);
    const EmpiricalOpCosts e(p, {Format::Bf16, Format::Int4Wo}, "vllm", m);
    const SolOpCosts sol(p, {Format::Bf16, Format::Int4Wo}, 0.005);
    QVERIFY(std::abs(e.gemmMs(Format::Bf16, 4096, 4096, 4096) -
                     2 * sol.gemmMs(Format::Bf16, 4096, 4096, 4096)) < 1e-12);
    QVERIFY(std::abs(e.contextAttentionMs(2, 512, 32, 8, 128, KvFormat::Bf16) -
                     2 * sol.contextAttentionMs(2, 512, 32, 8, 128, KvFormat::Bf16)) < 1e-12);
    QVERIFY(std::abs(e.generationAttentionMs(8, 2048, 32, 8, 128, KvFormat::Fp8) -
                     2 * sol.generationAttentionMs(8, 2048, 32, 8, 128, KvFormat::Fp8)) < 1e-12);
    QCOMPARE(e.memoryOpMs(1e6), sol.memoryOpMs(1e6));
    QVERIFY(!e.supports(Format::Fp8));
    QVERIFY(std::isnan(e.gemmMs(Format::Fp8, 1, 1024, 1024)));
    // int4_wo has no grid in this model: it borrows bf16's and says so.
    QCOMPARE(e.notes().size(), std::size_t(2)); // int4_wo, and KV fp8 attention
}

void TestUtilisation::factoryBuildsEmpiricalStacks()
{
    Workspace ws;
    attachSpecOnlyStacks(ws, kPlatforms);
    const UtilisationModel m = loadUtilisationFile(kUtilisation);
    const Stack& thor = ws.stacks[static_cast<std::size_t>(*ws.findStack("jetson_agx_thor/vllm"))];
    const auto costs = makeOpCosts(ws, thor, &m);
    QVERIFY(costs->supports(Format::Nvfp4));
    QVERIFY(!costs->supports(Format::Int4Wo));
    const SolOpCosts sol(ws.platformOf(thor), thor.formats, m.solConstantMs);
    for (double tokens : {1.0, 64.0, 4096.0}) {
        const double t = costs->gemmMs(Format::Nvfp4, tokens, 12288, 4096);
        QVERIFY(std::isfinite(t) && t > 0);
        QVERIFY(t >= 0.5 * sol.gemmMs(Format::Nvfp4, tokens, 12288, 4096));
    }
    // Fewer bits, less time on a memory-bound decode GEMM.
    QVERIFY(costs->gemmMs(Format::Nvfp4, 1, 12288, 4096) <
            costs->gemmMs(Format::Bf16, 1, 12288, 4096));
    try {
        (void)makeOpCosts(ws, thor, nullptr);
        QFAIL("expected a LoadError without a utilisation model");
    } catch (const LoadError& e) {
        QCOMPARE(e.file(), std::string("jetson_agx_thor/vllm"));
    }
}

void TestUtilisation::committedModelReproducesOwnTable()
{
    // a100_sxm/vllm is one of the stacks the committed model was fitted on; predicting its
    // entries through the OpCosts interface must reproduce the in-sample error the file reports.
    const std::string dir = kTables + "/a100_sxm/vllm/0.14.0/";
    if (!QFileInfo::exists(QString::fromStdString(dir)))
        QSKIP("../shared/aic not present");
    const UtilisationModel m = loadUtilisationFile(kUtilisation);
    const PlatformsFile platforms = loadPlatformsFile(kPlatforms);
    const PlatformSpec& a100 = *platforms.find("a100_sxm");
    const EmpiricalOpCosts costs(a100.platform, {Format::Bf16}, "vllm", m);
    auto reported = [&](OpClass op) {
        for (const ApeSummary& a : m.inSample)
            if (a.scope == "a100_sxm/vllm" && a.op == op && a.variant.empty())
                return a;
        return ApeSummary{};
    };

    std::vector<double> errors;
    for (const GemmRow& r : loadGemmTable(dir + "gemm_perf.csv").rows)
        errors.push_back(ape(costs.gemmMs(r.format, r.m, r.n, r.k), r.ms));
    const ApeSummary gemm = reported(OpClass::Gemm);
    QCOMPARE(gemm.count, static_cast<int>(errors.size()));
    auto [median, p90] = medianAndP90(errors);
    QVERIFY(std::abs(median - gemm.medianApe) < 1e-3);
    QVERIFY(std::abs(p90 - gemm.p90Ape) < 1e-3);
    QVERIFY(median < 0.25);

    errors.clear();
    for (const AttentionRow& r :
         loadGenerationAttentionTable(dir + "generation_attention_perf.csv").rows)
        errors.push_back(ape(
            costs.generationAttentionMs(r.batch, r.seq, r.heads, r.kvHeads, r.headDim, r.kvDtype),
            r.ms));
    const ApeSummary gen = reported(OpClass::GenerationAttention);
    QCOMPARE(gen.count, static_cast<int>(errors.size()));
    median = medianAndP90(errors)[0];
    QVERIFY(std::abs(median - gen.medianApe) < 1e-3);
}

void TestUtilisation::allReduceRoofByHand()
{
    const Platform p = linked(Interconnect::Pcie, 32e9);
    // A ring over n GPUs moves 2 (n - 1) / n x 2 bytes per element over each link.
    QCOMPARE(solAllReduceRoofMs(p, 1, 1e6), 0.0);
    QVERIFY(std::abs(solAllReduceRoofMs(p, 2, 1e6) - 2.0 * 0.5 * 2e6 / 32e9 * 1e3) < 1e-15);
    QVERIFY(std::abs(solAllReduceRoofMs(p, 4, 1e6) - 0.09375) < 1e-15);
    QVERIFY(std::abs(solAllReduceRoofMs(p, 8, 1e6) - 2.0 * 7 / 8 * 2e6 / 32e9 * 1e3) < 1e-15);
}

void TestUtilisation::allReduceUtilisationTransfersByLink()
{
    // Two PCIe GPUs (different bandwidths) share the utilisation; an NVLink one does not.
    UtilisationSamples s;
    const double c = 0.005;
    const Platform a = linked(Interconnect::Pcie, 32e9), b = linked(Interconnect::Pcie, 64e9);
    const Platform nv = linked(Interconnect::NvLink, 450e9);
    addSynthetic(s, "a", a, c);
    s.addCollectives("a", a, syntheticNccl(a, c));
    addSynthetic(s, "b", b, c);
    s.addCollectives("b", b, syntheticNccl(b, c));
    AicTable<CommRow> fast = syntheticNccl(nv, c);
    for (CommRow& r : fast.rows)
        r.ms *= 0.5; // twice the utilisation of the PCIe GPUs
    addSynthetic(s, "nv", nv, c);
    s.addCollectives("nv", nv, fast);

    const UtilisationModel m = fitUtilisation(s, c);
    QVERIFY(m.find(OpClass::AllReduce, kAllBackends, "pcie"));
    QVERIFY(m.find(OpClass::AllReduce, kAllBackends, "nvlink"));
    QVERIFY(!m.find(OpClass::AllReduce, "nccl", "pcie")); // pooled only

    // A third PCIe GPU with its own bandwidth: (its roof + c) / u_true exactly.
    const Platform other = linked(Interconnect::Pcie, 16e9);
    const EmpiricalOpCosts e(other, {Format::Bf16}, "vllm", m);
    for (int gpus : {2, 4, 8})
        for (double elements : {1024.0, 3e5, 8388608.0}) {
            const double want =
                (solAllReduceRoofMs(other, gpus, elements) + c) / trueAllReduceUtilisation(gpus);
            QVERIFY2(std::abs(e.allReduceMs(gpus, elements) - want) <= 1e-9 * want,
                     qPrintable(QString("gpus %1, elements %2").arg(gpus).arg(elements)));
        }
    // Beyond the tables' largest message the utilisation is held: time grows with the roof.
    QVERIFY(std::abs(e.allReduceMs(8, 1e9) -
                     (solAllReduceRoofMs(other, 8, 1e9) + c) / trueAllReduceUtilisation(8)) < 1e-6);
    const EmpiricalOpCosts n(nv, {Format::Bf16}, "vllm", m);
    QVERIFY(std::abs(n.allReduceMs(4, 1e6) - 0.5 * (solAllReduceRoofMs(nv, 4, 1e6) + c) /
                                                 trueAllReduceUtilisation(4)) < 1e-9);

    // Leave-one-GPU-out: the PCIe GPUs predict each other exactly; the only NVLink GPU
    // has no other to learn from and is left out of the all-reduce errors.
    for (const ApeSummary& held : leaveOneGpuOut(s, c))
        if (held.op == OpClass::AllReduce) {
            QVERIFY(held.scope != "nv");
            QVERIFY(held.medianApe < 1e-9);
        }
}

void TestUtilisation::allReduceNeedsLinkAndGrid()
{
    UtilisationSamples s;
    const Platform a = linked(Interconnect::Pcie, 32e9);
    addSynthetic(s, "a", a, 0.005);
    s.addCollectives("a", a, syntheticNccl(a, 0.005));
    const UtilisationModel m = fitUtilisation(s, 0.005);

    const EmpiricalOpCosts pcie(a, {Format::Bf16}, "vllm", m);
    for (int gpus : {1, 2, 4, 8})
        QVERIFY(pcie.supportsTp(gpus));
    for (int gpus : {3, 6, 16})
        QVERIFY(!pcie.supportsTp(gpus));
    QCOMPARE(pcie.allReduceMs(1, 1e6), 0.0);
    QVERIFY(std::isnan(pcie.allReduceMs(3, 1e6)));

    // A single-GPU device: no tensor parallelism, nothing to note.
    const EmpiricalOpCosts single(gpu(1e12, 100e12), {Format::Bf16}, "vllm", m);
    QVERIFY(single.supportsTp(1));
    QVERIFY(!single.supportsTp(2));
    // An NVLink GPU and a model fitted on PCIe only: one GPU, and the note says why.
    const EmpiricalOpCosts nv(linked(Interconnect::NvLink, 450e9), {Format::Bf16}, "vllm", m);
    QVERIFY(!nv.supportsTp(2));
    bool said = false;
    for (const std::string& note : nv.notes())
        said = said || note.find("all-reduce over nvlink") != std::string::npos;
    QVERIFY(said);
}

void TestUtilisation::fileWithoutAllReduceStillLoads()
{
    UtilisationSamples s;
    const Platform a = linked(Interconnect::Pcie, 32e9);
    addSynthetic(s, "a", a, 0.005);
    s.addCollectives("a", a, syntheticNccl(a, 0.005));
    Json j = parseJsonText(utilisationToText(fitUtilisation(s, 0.005)), "u.json");
    // Round trip keeps the all-reduce grid ...
    const UtilisationModel back = parseUtilisation(j, "u.json");
    QVERIFY(back.find(OpClass::AllReduce, kAllBackends, "pcie"));
    // ... and a file written before all-reduce grids existed loads without them.
    j["axes"].erase("allreduce");
    Json grids = Json::array();
    for (const Json& g : j["grids"])
        if (g["op"] != "allreduce")
            grids.push_back(g);
    j["grids"] = grids;
    const UtilisationModel old = parseUtilisation(j, "u.json");
    QVERIFY(!old.find(OpClass::AllReduce, kAllBackends, "pcie"));
    QVERIFY(!EmpiricalOpCosts(a, {Format::Bf16}, "vllm", old).supportsTp(2));
    // An all-reduce grid without its axes is an error at the grid.
    Json bad = parseJsonText(utilisationToText(back), "u.json");
    bad["axes"].erase("allreduce");
    try {
        parseUtilisation(bad, "u.json");
        QFAIL("expected a LoadError");
    } catch (const LoadError& e) {
        QVERIFY2(QString::fromStdString(e.where()).endsWith("/op"), e.what());
    }
}

void TestUtilisation::committedModelSplitsOverPcie()
{
    Workspace ws;
    attachSpecOnlyStacks(ws, kPlatforms);
    const UtilisationModel m = loadUtilisationFile(kUtilisation);
    const Stack& a6000 = ws.stacks[static_cast<std::size_t>(*ws.findStack("rtx_a6000/vllm"))];
    const Stack& thor = ws.stacks[static_cast<std::size_t>(*ws.findStack("jetson_agx_thor/vllm"))];
    const auto costs = makeOpCosts(ws, a6000, &m);
    QVERIFY(costs->supportsTp(2) && costs->supportsTp(8));
    QVERIFY(!makeOpCosts(ws, thor, &m)->supportsTp(2));
    // Llama-3.1-8B's prefill all-reduce (1024 tokens x 4096): finite, above the link's speed of
    // light, and more GPUs never make the ring cheaper per element moved.
    const double elements = 1024.0 * 4096;
    const Platform& p = ws.platformOf(a6000);
    for (int gpus : {2, 4, 8}) {
        const double t = costs->allReduceMs(gpus, elements);
        QVERIFY(std::isfinite(t));
        QVERIFY(t > solAllReduceRoofMs(p, gpus, elements));
    }
    QVERIFY(costs->allReduceMs(2, elements) < costs->allReduceMs(8, elements));
}

ACSEL_TEST_APPLESS_MAIN(TestUtilisation)
#include "test_utilisation.moc"
