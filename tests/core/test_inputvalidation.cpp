// Validation on load: duplicate JSON keys refused with their pointer, the workspace's keys
// checked (a misspelt one refused, a missing referenced file blamed on the field naming it),
// and operator tables that could only end as "no configuration passes the gate" refused
// with the file, line and column.
#include "core/data/aictables.h"
#include "core/data/jsonfields.h"
#include "core/data/loaderror.h"
#include "core/data/tablesdir.h"
#include "core/data/workspacefile.h"
#include "loaderrors.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace acsel;
namespace fs = std::filesystem;

namespace
{

const std::string kGemmHeader = "kernel_source,gemm_dtype,m,n,k,latency\n";

} // namespace

class TestInputValidation : public QObject
{
    Q_OBJECT
private slots:
    void duplicateKeysAreRefusedWithTheirPointer_data();
    void duplicateKeysAreRefusedWithTheirPointer();
    void workspaceKeysAreChecked();
    void missingReferencedFileNamesTheField();
    void gemmTableIsValidated_data();
    void gemmTableIsValidated();
    void attentionTableWithoutUsableRows();
    void discoveryRefusesATableOfUnknownDtypes();
};

void TestInputValidation::duplicateKeysAreRefusedWithTheirPointer_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    // A request with two "stack" keys ran on the second.
    QTest::newRow("top level") << R"({"stack": "a", "request": {}, "stack": "b"})"
                               << "r.json: /stack: duplicate key 'stack'";
    QTest::newRow("nested in an array")
        << R"({"models": [{"name": "x"}, {"name": "y", "config": {"a": 1, "a": 2}}]})"
        << "r.json: /models/1/config/a: duplicate key 'a'";
    QTest::newRow("after nested arrays")
        << R"({"a": [[1, 2], [3]], "b": [{}, [], {"k": 1, "k": 1}]})"
        << "r.json: /b/2/k: duplicate key 'k'";
    QTest::newRow("pointer escapes") << R"({"x/y~": {"q": 1, "q": 2}})"
                                     << "r.json: /x~1y~0/q: duplicate key 'q'";
}

void TestInputValidation::duplicateKeysAreRefusedWithTheirPointer()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const std::string what = errorOf([&] { parseJsonText(text.toStdString(), "r.json"); });
    QVERIFY2(what.rfind(expected.toStdString(), 0) == 0, what.c_str());
    // The same key in sibling objects is no repeat.
    const Json ok = parseJsonText(R"([{"a": 1}, {"a": 2}, {"b": {"a": 3}}])", "ok.json");
    QCOMPARE(ok[2]["b"]["a"].get<int>(), 3);
}

void TestInputValidation::workspaceKeysAreChecked()
{
    Json j = parseJsonFile(ACSEL_DATASETS "/workspace.json");
    const std::string file = ACSEL_DATASETS "/workspace.json";
    Json misspelt = j;
    misspelt["utilization"] = misspelt["utilisation"];
    misspelt.erase("utilisation");
    QVERIFY(errorOf([&] {
                parseWorkspace(misspelt, file, "");
            }).rfind(file + ": /utilization: unknown field 'utilization' (expected: ", 0) == 0);
    Json quality = j;
    quality["quality"]["synthetc"] = true;
    QVERIFY(errorOf([&] {
                parseWorkspace(quality, file, "");
            }).rfind(file + ": /quality/synthetc: unknown field 'synthetc'", 0) == 0);
    Json model = j;
    model["models"][1]["hfid"] = "x";
    QVERIFY(errorOf([&] {
                parseWorkspace(model, file, "");
            }).rfind(file + ": /models/1/hfid: unknown field 'hfid'", 0) == 0);
    QCOMPARE(parseWorkspace(j, file, "").models.size(), j["models"].size());
}

void TestInputValidation::missingReferencedFileNamesTheField()
{
    const std::string file = ACSEL_DATASETS "/workspace.json";
    Json j = parseJsonFile(file);
    j["quality"]["file"] = "quality/none.json";
    const std::string where = std::string(ACSEL_DATASETS) + "/quality/none.json";
    QCOMPARE(errorOf([&] { parseWorkspace(j, file, ""); }),
             file + ": /quality/file: names 'quality/none.json' (" + where +
                 "), which cannot open file for reading (No such file or directory)");
    Json dir = parseJsonFile(file);
    dir["platforms"] = "quality";
    QCOMPARE(errorOf([&] { parseWorkspace(dir, file, ""); }),
             file + ": /platforms: names 'quality' (" + std::string(ACSEL_DATASETS) +
                 "/quality), which is a directory: expected a regular file");
}

void TestInputValidation::gemmTableIsValidated_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("header only") << QString::fromStdString(kGemmHeader)
                                 << "g.csv: no data rows after the header";
    QTest::newRow("only unknown dtypes")
        << QString::fromStdString(kGemmHeader + "x,int3,1,2,3,0.5\nx,fp6,1,2,3,0.5\n")
        << "g.csv: none of the 2 rows is usable (expected a gemm_dtype of nvfp4";
    QTest::newRow("latency column twice")
        << "kernel_source,gemm_dtype,m,n,k,latency,latency\nx,bfloat16,1,2,3,0.5,0.7\n"
        << "g.csv: line 1: column 'latency' appears twice in the header";
    QTest::newRow("denormal latency")
        << QString::fromStdString(kGemmHeader + "x,bfloat16,1,2,3,1e-300\n")
        << "g.csv: line 2, column 'latency': expected a latency in [1e-6, 1e6] ms, found "
           "'1e-300'";
    QTest::newRow("absurd latency")
        << QString::fromStdString(kGemmHeader + "x,bfloat16,1,2,3,1e9\n")
        << "g.csv: line 2, column 'latency': expected a latency in";
    QTest::newRow("NaN latency") << QString::fromStdString(kGemmHeader + "x,bfloat16,1,2,3,nan\n")
                                 << "g.csv: line 2, column 'latency': expected a finite number, "
                                    "found 'nan'";
    QTest::newRow("text in m") << QString::fromStdString(kGemmHeader + "x,bfloat16,one,2,3,0.5\n")
                               << "g.csv: line 2, column 'm': expected an integer, found 'one'";
    QTest::newRow("decimal comma") << QString::fromStdString(kGemmHeader + "x,bfloat16,1,2,3,0,5\n")
                                   << "g.csv: line 2: expected 6 fields, found 7";
}

void TestInputValidation::gemmTableIsValidated()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const std::string what = errorOf([&] { parseGemmTable(text.toStdString(), "g.csv"); });
    QVERIFY2(what.rfind(expected.toStdString(), 0) == 0, what.c_str());
    // The bounds themselves are accepted.
    const auto t =
        parseGemmTable(kGemmHeader + "x,bfloat16,1,2,3,1e-6\nx,bfloat16,1,2,4,1e6\n", "g.csv");
    QCOMPARE(t.rows.size(), std::size_t{2});
}

void TestInputValidation::attentionTableWithoutUsableRows()
{
    const std::string header = "kernel_source,batch_size,isl,num_heads,num_key_value_heads,"
                               "head_dim,beam_width,attn_dtype,kv_cache_dtype,step,latency\n";
    QCOMPARE(errorOf([&] { parseAttentionTable(header, "a.csv", false); }),
             std::string("a.csv: no data rows after the header"));
    QCOMPARE(errorOf([&] {
                 parseAttentionTable(header + "k,1,16,8,8,128,2,bfloat16,bfloat16,0,0.1\n", "a.csv",
                                     false);
             }),
             std::string("a.csv: none of the 1 rows is usable (expected rows with window_size 0 "
                         "and beam_width 1)"));
}

void TestInputValidation::discoveryRefusesATableOfUnknownDtypes()
{
    QTemporaryDir tmp;
    const fs::path version = fs::path(tmp.path().toStdString()) / "gpu" / "vllm" / "1.0";
    fs::create_directories(version);
    for (const char* name :
         {"gemm_perf.csv", "context_attention_perf.csv", "generation_attention_perf.csv"})
        fs::copy_file(ACSEL_TEST_DATA "/latency/" + std::string(name), version / name);
    std::ofstream(version.parent_path().parent_path() / "system.yaml")
        << "gpu:\n  mem_bw: 1e12\n  mem_capacity: 1e10\n  bfloat16_tc_flops: 1e14\n";
    QCOMPARE(discoverStacks(tmp.path().toStdString()).size(), std::size_t{1});
    std::ofstream(version / "gemm_perf.csv") << kGemmHeader << "x,int3,1,2,3,0.5\n";
    QCOMPARE(errorOf([&] { discoverStacks(tmp.path().toStdString()); }),
             (version / "gemm_perf.csv").string() +
                 ": column 'gemm_dtype': no row has a modelled gemm_dtype (expected rows of "
                 "nvfp4, int4_wo, int8_wo, int8, fp8, fp8_block or bf16)");
}

ACSEL_TEST_APPLESS_MAIN(TestInputValidation)
#include "test_inputvalidation.moc"
