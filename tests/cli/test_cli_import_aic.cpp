// acsel import-aic on a small AIConfigurator tree written with hyparquet-writer
// (tests/data/import_aic/make_fixture.mjs): the CSVs equal the hand-written expected files byte
// for byte, system.yaml is copied verbatim, the newest complete version is the one taken, and
// `acsel info` reads the result. Skips when node or the npm packages are missing
// (bash packaging/setup.sh installs them).
#include "clirun.h"
#include "testmain.h"

#include <QProcess>
#include <QTemporaryDir>

using namespace acsel::cli::test;
namespace fs = std::filesystem;

namespace
{

const std::string kTool = ACSEL_TEST_DATA "/../../tools/import_aic";
const std::string kExpected = ACSEL_TEST_DATA "/import_aic/expected";

} // namespace

class TestCliImportAic : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void convertsByteForByte();
    void refusesWhatItCannotDo();

private:
    QTemporaryDir dir_;
    std::string aic_;
};

void TestCliImportAic::initTestCase()
{
    if (!fs::exists(kTool + "/node_modules/hyparquet-writer/package.json"))
        QSKIP("npm packages of tools/import_aic not installed (bash packaging/setup.sh)");
    aic_ = dir_.filePath("aic").toStdString();
    QProcess node;
    node.start("node",
               {ACSEL_TEST_DATA "/import_aic/make_fixture.mjs", QString::fromStdString(aic_),
                QString::fromStdString(kTool + "/node_modules")});
    QVERIFY(node.waitForFinished(60000));
    QVERIFY2(node.exitCode() == 0, node.readAllStandardError().constData());
}

void TestCliImportAic::convertsByteForByte()
{
    const std::string out = dir_.filePath("tables").toStdString();
    const Run r = run({"import-aic", aic_, "-o", out});
    QVERIFY2(r.code == 0, r.err.c_str());
    QVERIFY(contains(r.out, "read tiny_gpu/trtllm 1.0.0: gemm_perf 4 rows context_attention_perf "
                            "2 rows generation_attention_perf 2 rows\n"));
    QVERIFY(contains(r.out, "wrote " + out + ": 1 stacks of 1 GPUs"));
    for (const char* table : {"gemm_perf", "context_attention_perf", "generation_attention_perf"}) {
        const std::string rel = std::string("tiny_gpu/trtllm/1.0.0/") + table + ".csv";
        QCOMPARE(readFile(out + "/" + rel), readFile(kExpected + "/" + rel));
    }
    QCOMPARE(readFile(out + "/tiny_gpu/system.yaml"),
             readFile(aic_ + "/aic-core/src/aiconfigurator_core/systems/tiny_gpu.yaml"));
    // 1.0.0rc3 is older than 1.0.0; vllm has no generation table: neither is converted.
    QVERIFY(!fs::exists(out + "/tiny_gpu/trtllm/1.0.0rc3"));
    QVERIFY(!fs::exists(out + "/tiny_gpu/vllm"));
    // No partial folder is left beside it.
    QVERIFY(!fs::exists(dir_.filePath(".tables.partial").toStdString()));

    const Run info = run({"info", "--workspace", kWorkspace, "--tables", out});
    QVERIFY2(info.code == 0, info.err.c_str());
    QVERIFY(contains(info.out, "tiny_gpu/trtllm"));
    QVERIFY(contains(info.out, "1.0.0"));
}

void TestCliImportAic::refusesWhatItCannotDo()
{
    const std::string out = dir_.filePath("again").toStdString();
    QCOMPARE(run({"import-aic", aic_, "-o", out}).code, 0);
    const Run again = run({"import-aic", aic_, "-o", out});
    QCOMPARE(again.code, 2);
    QVERIFY(contains(again.err, "exists and is not empty; pass --force"));
    QCOMPARE(run({"import-aic", aic_, "-o", out, "--force"}).code, 0);
    const Run notAic = run({"import-aic", dir_.path().toStdString() + "/nowhere", "-o", out});
    QCOMPARE(notAic.code, 2);
    QVERIFY(contains(notAic.err, "not an AIConfigurator tree"));
    QCOMPARE(run({"import-aic", "-o", out}).code, 2);
    QCOMPARE(run({"import-aic", aic_}).code, 2);
}

ACSEL_TEST_GUILESS_MAIN(TestCliImportAic)
#include "test_cli_import_aic.moc"
