// The silicon CSV loader: a row id twice, or the same measurement twice (another id), is refused
// at the second row, naming the line of the first; a row differing in any key column is another
// measurement.
#include "core/data/loaderror.h"
#include "core/data/silicon.h"

#include <QTest>

using namespace acsel;

namespace
{

const std::string kHeader = "id,backend,backend_version,model_path,system,mode,isl,osl,"
                            "gemm_quant_mode,batch_size,tp_size,pp_size,silicon_ttft_ms,"
                            "silicon_tpot_ms\n";
const std::string kRowA = "a,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,1,"
                          "200.0,8.0\n";

std::string errorOf(const std::string& rows)
{
    try {
        parseSiliconCsv(kHeader + rows, "s.csv");
    } catch (const LoadError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class TestSilicon : public QObject
{
    Q_OBJECT
private slots:
    void duplicateIdRefused();
    void duplicateMeasurementRefused();
    void otherKeyIsAnotherMeasurement_data();
    void otherKeyIsAnotherMeasurement();
};

void TestSilicon::duplicateIdRefused()
{
    // Line 2 is a, line 3 b, line 4 a again (another measurement: isl 2048).
    QCOMPARE(errorOf(kRowA +
                     "b,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,4096,128,,8,1,1,400,8.5\n"
                     "a,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,2048,128,,8,1,1,300,8.2\n"),
             std::string("s.csv: line 4, column 'id': duplicate row id 'a' (first on line 2)"));
}

void TestSilicon::duplicateMeasurementRefused()
{
    // Another id and other latencies, the same benchmark: line 3 repeats line 2.
    QCOMPARE(
        errorOf(kRowA +
                "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,1,210,8.1\n"),
        std::string("s.csv: line 3: duplicate of the measurement on line 2 (same system, "
                    "backend, backend_version, model_path, mode, gemm_quant_mode, isl, osl, "
                    "batch_size, tp_size and pp_size)"));
}

void TestSilicon::otherKeyIsAnotherMeasurement_data()
{
    QTest::addColumn<QString>("row");
    QTest::newRow("backend_version")
        << "a2,trtllm,1.1,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,1,200,8";
    QTest::newRow("model_path")
        << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,agg,1024,128,,8,1,1,200,8";
    QTest::newRow("system") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h200_sxm,agg,1024,128,,8,1,"
                               "1,200,8";
    QTest::newRow("mode") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,disagg,1024,128,,8,1,"
                             "1,200,8";
    QTest::newRow("osl") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,256,,8,1,1,"
                            "200,8";
    QTest::newRow("gemm_quant_mode")
        << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,fp8,8,1,1,200,8";
    QTest::newRow("batch_size") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,"
                                   "16,1,1,200,8";
    QTest::newRow("tp_size") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,2,"
                                "1,200,8";
    QTest::newRow("pp_size") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,"
                                "2,200,8";
}

void TestSilicon::otherKeyIsAnotherMeasurement()
{
    QFETCH(QString, row);
    const std::vector<SiliconRow> rows =
        parseSiliconCsv(kHeader + kRowA + row.toStdString() + "\n", "s.csv");
    QCOMPARE(rows.size(), std::size_t{2});
    QCOMPARE(rows[1].line, 3);
}

QTEST_APPLESS_MAIN(TestSilicon)
#include "test_silicon.moc"
