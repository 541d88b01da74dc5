// Operator tables: loader policies (duplicates, skipped rows, bad input), interpolation exact
// at grid points and monotone between them, grid fill and out-of-grid policies, attention
// slices, all on hand-made fixtures (tests/data/latency) with values worked out by hand.
#include "core/data/aictables.h"
#include "core/data/loaderror.h"
#include "core/data/tablesdir.h"
#include "core/latency/tableopcosts.h"
#include "nearly.h"
#include "testmain.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <fstream>

using namespace acsel;

namespace
{

const std::string kDir = ACSEL_TEST_DATA "/latency/";

// Compute-bound speed of light that stays far below the fixture values: SOL of (16,128,128)
// is 2*16*128*128 / 1e12 s = 5.2e-4 ms. Memory bandwidth huge, so SOL ratios = FLOP ratios.
Platform fixturePlatform()
{
    Platform p;
    p.id = "fixture";
    p.memBandwidth = 1e18;
    p.memBwScaling = 0.5;
    p.memConstantLatencyS = 2e-6;
    p.memCapacityBytes = 80e9;
    p.tensorFlops = {1e12, 2e12, 2e12, 0};
    return p;
}

TableOpCosts fixtureCosts()
{
    return TableOpCosts(fixturePlatform(), loadGemmTable(kDir + "gemm_perf.csv"),
                        loadContextAttentionTable(kDir + "context_attention_perf.csv"),
                        loadGenerationAttentionTable(kDir + "generation_attention_perf.csv"));
}

// Writes text to a file named `name` in dir; its path.
std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

} // namespace

class TestOpTables : public QObject
{
    Q_OBJECT
private slots:
    void gemmLoaderPolicies();
    void gemmExactAtGridPoints();
    void gemmInterpolationBetweenPoints();
    void gemmMonotoneBetweenPoints();
    void gemmFillAndOutOfGrid();
    void gemmUnknownFormatIsNaN();
    void attentionLookups();
    void attentionFallbackNote();
    void memoryOp();
    void badInputNamesFileLineColumn_data();
    void badInputNamesFileLineColumn();
    void realTablesExactAtAGridPoint();
    void distinctValuesAcrossBlocks();
    void distinctValuesOfRowsNotPlain();
    void distinctValuesBadRowNamesItsLine();
};

void TestOpTables::gemmLoaderPolicies()
{
    const auto t = loadGemmTable(kDir + "gemm_perf.csv");
    QCOMPARE(t.info.rowsRead, 16);
    QCOMPARE(t.info.rowsSkipped, 1);       // fp8_static
    QCOMPARE(t.info.duplicatesDropped, 2); // minority kernel first, exact duplicate last
    QCOMPARE(t.info.rowsKept, 13);
    for (const GemmRow& r : t.rows) {
        if (r.format == Format::Bf16 && r.m == 4 && r.n == 64 && r.k == 64)
            QCOMPARE(r.ms, 0.012); // majority kernel beats the minority row that came first
        if (r.format == Format::Bf16 && r.m == 1 && r.n == 64 && r.k == 64)
            QCOMPARE(r.ms, 0.0105); // same kernel: first row in file order
    }
}

void TestOpTables::gemmExactAtGridPoints()
{
    const TableOpCosts c = fixtureCosts();
    for (const GemmRow& r : loadGemmTable(kDir + "gemm_perf.csv").rows)
        QVERIFY(c.gemmMs(r.format, r.m, r.n, r.k) == r.ms); // exactly, not fuzzily
}

void TestOpTables::gemmInterpolationBetweenPoints()
{
    const TableOpCosts c = fixtureCosts();
    // Linear in m between m = 1 (0.0105) and m = 4 (0.012): at m = 2, one third of the way.
    QVERIFY(nearRelative(c.gemmMs(Format::Bf16, 2, 64, 64), 0.0105 + (0.012 - 0.0105) / 3.0));
    // Trilinear at the centre of the m {1,4}, n {64,128}, k {64,128} cell: mean of 8 corners.
    const double mean = (0.0105 + 0.011 + 0.011 + 0.012 + 0.012 + 0.014 + 0.014 + 0.018) / 8.0;
    QVERIFY(nearRelative(c.gemmMs(Format::Bf16, 2.5, 96, 96), mean));
}

void TestOpTables::gemmMonotoneBetweenPoints()
{
    const TableOpCosts c = fixtureCosts();
    for (double n : {64.0, 80.0, 128.0}) {
        double prev = 0;
        for (double m = 1; m <= 16; m += 0.25) {
            const double t = c.gemmMs(Format::Bf16, m, n, 64);
            QVERIFY2(t >= prev, "GEMM latency must not decrease with m on a monotone grid");
            prev = t;
        }
    }
    double prev = 0;
    for (double k = 64; k <= 128; k += 4) {
        const double t = c.gemmMs(Format::Bf16, 3, 100, k);
        QVERIFY(t >= prev);
        prev = t;
    }
}

void TestOpTables::gemmFillAndOutOfGrid()
{
    const TableOpCosts c = fixtureCosts();
    QCOMPARE(c.gemmTable().filledCells(Format::Bf16), 1);
    // The unmeasured (16, 128, 128): (16, 128, 64) = 0.026 with utilisation held along k:
    // x SOL ratio = k ratio 2.
    QVERIFY(nearRelative(c.gemmMs(Format::Bf16, 16, 128, 128), 0.052));
    // Beyond the grid: edge value x SOL ratio (m 64 / 16 = 4; n 512 / 128 = 4).
    QVERIFY(nearRelative(c.gemmMs(Format::Bf16, 64, 64, 64), 0.018 * 4));
    QVERIFY(nearRelative(c.gemmMs(Format::Bf16, 1, 512, 128), 0.012 * 4));
    // Below the grid: held at the edge, never faster.
    QVERIFY(nearRelative(c.gemmMs(Format::Bf16, 1, 32, 64), 0.0105));
}

void TestOpTables::gemmUnknownFormatIsNaN()
{
    const TableOpCosts c = fixtureCosts();
    QVERIFY(c.supports(Format::Fp8));
    QVERIFY(!c.supports(Format::Nvfp4));
    QVERIFY(std::isnan(c.gemmMs(Format::Nvfp4, 1, 64, 64)));
}

void TestOpTables::attentionLookups()
{
    const TableOpCosts c = fixtureCosts();
    const auto bf = KvFormat::Bf16;
    QVERIFY(c.contextAttentionMs(2, 64, 32, 8, 128, bf) == 0.2); // grid point, exactly
    // sqrt transform on isl: isl 36 lies half way between sqrt(16) = 4 and sqrt(64) = 8.
    QVERIFY(nearRelative(c.contextAttentionMs(1, 36, 16, 8, 128, bf), 0.01 + 0.5 * (0.05 - 0.01)));
    // Heads interpolate linearly: 24 heads half way between 16 and 32.
    QVERIFY(nearRelative(c.contextAttentionMs(1, 16, 24, 8, 128, bf), 0.015));
    // Beyond the grid: work b h s^2, isl 128 = 2 x 64 -> x4.
    QVERIFY(nearRelative(c.contextAttentionMs(1, 128, 16, 8, 128, bf), 0.05 * 4));
    // Generation: the staircase corner (2048, 8) is filled from batch 4 x 2.
    QVERIFY(nearRelative(c.generationAttentionMs(8, 2048, 32, 8, 128, bf), 0.08));
    // Linear in KV length: 1536 half way.
    QVERIFY(nearRelative(c.generationAttentionMs(4, 1536, 32, 8, 128, bf), 0.03));
    // Beyond: KV 4096 = 2 x 2048 -> x2; batch 16 = 2 x 8 -> x2.
    QVERIFY(nearRelative(c.generationAttentionMs(4, 4096, 32, 8, 128, bf), 0.08));
    QVERIFY(nearRelative(c.generationAttentionMs(16, 1024, 32, 8, 128, bf), 0.08));
}

void TestOpTables::attentionFallbackNote()
{
    const TableOpCosts c = fixtureCosts();
    QVERIFY(c.attentionNote(32, 8, 128, KvFormat::Bf16).empty());
    // No fp8 KV slice: the bf16 one is used, and said.
    const std::string note = c.attentionNote(32, 8, 128, KvFormat::Fp8);
    QVERIFY2(note.find("KV fp8") != std::string::npos, note.c_str());
    QCOMPARE(c.generationAttentionMs(4, 1024, 32, 8, 128, KvFormat::Fp8), 0.02);
    // 4 KV heads: the 8-head slice scaled by KV bytes (x 0.5) for generation.
    QVERIFY(nearRelative(c.generationAttentionMs(4, 1024, 32, 4, 128, KvFormat::Bf16), 0.01));
    QVERIFY(c.attentionNote(32, 4, 128, KvFormat::Bf16).find("4 KV heads") != std::string::npos);
}

void TestOpTables::memoryOp()
{
    const TableOpCosts c = fixtureCosts();
    // bytes / (1e18 x 0.5) + 2 us, in ms.
    QVERIFY(nearRelative(c.memoryOpMs(1e12), (1e12 / 5e17 + 2e-6) * 1e3));
}

void TestOpTables::badInputNamesFileLineColumn_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("negative latency")
        << "kernel_source,gemm_dtype,m,n,k,latency\nx,bfloat16,1,2,3,-1\n"
        << "bad.csv: line 2, column 'latency': expected a positive number";
    QTest::newRow("missing column") << "kernel_source,gemm_dtype,n,k,latency\nx,bfloat16,2,3,1\n"
                                    << "bad.csv: header: missing column 'm'";
    QTest::newRow("zero m") << "kernel_source,gemm_dtype,m,n,k,latency\nx,bfloat16,0,2,3,1\n"
                            << "line 2, column 'm': expected a positive integer";
    QTest::newRow("truncated row") << "kernel_source,gemm_dtype,m,n,k,latency\nx,bfloat16,1,2\n"
                                   << "line 2: expected 6 fields, found 4";
}

void TestOpTables::badInputNamesFileLineColumn()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
        parseGemmTable(text.toStdString(), "bad.csv");
        QFAIL("expected a LoadError");
    } catch (const LoadError& e) {
        QVERIFY2(std::string(e.what()).find(expected.toStdString()) != std::string::npos, e.what());
    }
    const std::string attn = "kernel_source,batch_size,isl,num_heads,num_key_value_heads,head_dim,"
                             "beam_width,attn_dtype,kv_cache_dtype,step,latency\n"
                             "k,1,16,8,8,128,1,int3,bfloat16,0,0.1\n";
    try {
        parseAttentionTable(attn, "attn.csv", false);
        QFAIL("expected a LoadError");
    } catch (const LoadError& e) {
        QVERIFY2(std::string(e.what()).find("line 2, column 'attn_dtype'") != std::string::npos,
                 e.what());
    }
}

void TestOpTables::realTablesExactAtAGridPoint()
{
    const std::string aic = ACSEL_SHARED_DIR "/aic";
    if (!QFileInfo::exists(QString::fromStdString(aic)))
        QSKIP("../shared/aic not present");
    for (const DiscoveredStack& d : discoverStacks(aic)) {
        if (d.stack.id != "h100_sxm/trtllm")
            continue;
        const TableOpCosts c = TableOpCosts::load(d.stack, d.platform);
        // Rows of gemm_perf.csv and generation_attention_perf.csv (bf16 / bf16 KV).
        QVERIFY(c.gemmMs(Format::Bf16, 4353, 65536, 51200) == 39.301);
        QVERIFY(c.generationAttentionMs(32, 2, 64, 64, 128, KvFormat::Bf16) == 0.0234133);
        QCOMPARE(c.loadInfo()[0].rowsKept, 100668);
        return;
    }
    QFAIL("h100_sxm/trtllm not found");
}

void TestOpTables::distinctValuesAcrossBlocks()
{
    // 6,000 CRLF rows (about 110 kB: lines cross the reader's 64 kB blocks), blank lines, a
    // value coming back after others, a last row without a line break.
    std::string text = "kernel,gemm_dtype,m\r\n";
    const char* dtypes[] = {"fp8", "bfloat16", "int4_wo"};
    for (int i = 0; i < 6000; ++i) {
        text +=
            "cutlass_kernel," + std::string(dtypes[i / 2000]) + "," + std::to_string(i) + "\r\n";
        if (i % 997 == 0)
            text += "\r\n";
    }
    text += "k,fp8,1\nk,nvfp4,2";
    const QTemporaryDir dir;
    const std::string path = writeFile(dir, "gemm.csv", text);
    const std::vector<std::string> expected{"fp8", "bfloat16", "int4_wo", "nvfp4"};
    QVERIFY(distinctColumnValues(path, "gemm_dtype") == expected);
    // Header only: no values.
    QVERIFY(distinctColumnValues(writeFile(dir, "empty.csv", "kernel,gemm_dtype\n"), "gemm_dtype")
                .empty());
}

void TestOpTables::distinctValuesOfRowsNotPlain()
{
    // A quoted field and a line longer than a block are read as CsvReader reads them.
    const std::string longField(70'000, 'x');
    const QTemporaryDir dir;
    const std::string path = writeFile(dir, "gemm.csv",
                                       "kernel,gemm_dtype,m\n"
                                       "\"a, b\",fp8,1\n" +
                                           longField + ",bfloat16,2\nk,fp8,3\n");
    const std::vector<std::string> expected{"fp8", "bfloat16"};
    QVERIFY(distinctColumnValues(path, "gemm_dtype") == expected);
}

void TestOpTables::distinctValuesBadRowNamesItsLine()
{
    const QTemporaryDir dir;
    const auto error = [&](const std::string& text, const std::string& column) {
        try {
            distinctColumnValues(writeFile(dir, "bad.csv", text), column);
        } catch (const LoadError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    const std::string extra = error("kernel,gemm_dtype,m\nk,fp8,1\n\nk,fp8,1,9\n", "gemm_dtype");
    QVERIFY2(extra.find("line 4: expected 3 fields, found 4") != std::string::npos, extra.c_str());
    const std::string missing = error("kernel,dtype,m\nk,fp8,1\n", "gemm_dtype");
    QVERIFY2(missing.find("header: missing column 'gemm_dtype'") != std::string::npos,
             missing.c_str());
    const std::string twice = error("kernel,gemm_dtype,kernel\nk,fp8,1\n", "gemm_dtype");
    QVERIFY2(twice.find("column 'kernel' appears twice") != std::string::npos, twice.c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestOpTables)
#include "test_optables.moc"
