// The AIC system yaml reader: the fields it takes, and a named error for each malformed one.
#include "core/data/loaderror.h"
#include "core/data/systemyaml.h"
#include "testmain.h"

using namespace acsel;

namespace
{

// AIC's system.yaml shape with round made-up numbers; each bad case replaces one line.
const std::string kValid = "gpu:\n"
                           "  mem_bw: 2000000000000\n"
                           "  mem_capacity: 42949672960\n"
                           "  bfloat16_tc_flops: 300000000000000\n"
                           "  fp8_tc_flops: 600000000000000\n"
                           "  sm_version: 90\n"
                           "misc:\n"
                           "  other_mem: 1000000000\n";

std::string replaced(const std::string& from, const std::string& to)
{
    std::string s = kValid;
    s.replace(s.find(from), from.size(), to);
    return s;
}

} // namespace

class TestSystemYaml : public QObject
{
    Q_OBJECT
private slots:
    void validFileGivesItsNumbers();
    void smVersionIsOptional();
    void badInput_data();
    void badInput();
};

void TestSystemYaml::validFileGivesItsNumbers()
{
    const Platform p = parseSystemYaml(kValid, "gpu.yaml", "gpu");
    QCOMPARE(p.id, std::string("gpu"));
    QCOMPARE(p.memBandwidth, 2e12);
    QCOMPARE(p.memCapacityBytes, 42949672960.0);
    QCOMPARE(p.peakFlops(ComputeClass::Bf16), 3e14);
    QCOMPARE(p.peakFlops(ComputeClass::Fp8), 6e14);
    QCOMPARE(p.smVersion, 90);
    QCOMPARE(p.otherMemBytes, 1e9);
    // AIC's defaults for the two empirical memory constants.
    QCOMPARE(p.memBwScaling, 0.8);
    QCOMPARE(p.memConstantLatencyS, 3e-6);
}

void TestSystemYaml::smVersionIsOptional()
{
    QCOMPARE(parseSystemYaml(replaced("  sm_version: 90\n", ""), "gpu.yaml", "gpu").smVersion, 0);
}

void TestSystemYaml::badInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    const auto row = [](const char* name, const std::string& text, const char* expected) {
        QTest::newRow(name) << QString::fromStdString(text) << expected;
    };
    // 1e300 once reached an int cast (undefined behaviour, found by fuzz_systemyaml in CI).
    row("sm_version beyond int", replaced("sm_version: 90", "sm_version: 1e300"),
        "gpu.sm_version (line 6): expected a whole number from 1 to 1000");
    row("sm_version fractional", replaced("sm_version: 90", "sm_version: 89.5"),
        "gpu.sm_version (line 6): expected a whole number from 1 to 1000");
    row("sm_version zero", replaced("sm_version: 90", "sm_version: 0"),
        "gpu.sm_version (line 6): expected a whole number from 1 to 1000");
    row("sm_version text", replaced("sm_version: 90", "sm_version: hopper"),
        "gpu.sm_version (line 6): expected a number, found 'hopper'");
    row("mem_bw missing", replaced("  mem_bw: 2000000000000\n", ""), "gpu.mem_bw: missing field");
    row("mem_capacity negative", replaced("mem_capacity: 42949672960", "mem_capacity: -1"),
        "gpu.mem_capacity (line 3): expected a finite number in [0, ");
    row("bf16 flops zero", replaced("bfloat16_tc_flops: 300000000000000", "bfloat16_tc_flops: 0"),
        "gpu.yaml: gpu.bfloat16_tc_flops: expected a positive number, found 0");
    // A zero is blamed on its own field (once the error named gpu.mem_bw for any of them).
    row("mem_bw zero", replaced("mem_bw: 2000000000000", "mem_bw: 0"),
        "gpu.yaml: gpu.mem_bw: expected a positive number, found 0");
    row("mem_capacity zero", replaced("mem_capacity: 42949672960", "mem_capacity: 0"),
        "gpu.yaml: gpu.mem_capacity: expected a positive number, found 0");
    // Above 1 every memory-bound latency would beat the spec bandwidth (1e6 was accepted).
    row("bw scaling 1e6",
        replaced("  sm_version: 90\n", "  mem_bw_empirical_scaling_factor: 1e6\n"),
        "gpu.mem_bw_empirical_scaling_factor (line 6): expected a finite number in [0.01, 1], "
        "found '1e6'");
    row("bw scaling zero", replaced("  sm_version: 90\n", "  mem_bw_empirical_scaling_factor: 0\n"),
        "gpu.mem_bw_empirical_scaling_factor (line 6): expected a finite number in [0.01, 1]");
    row("constant latency 1 s",
        replaced("  sm_version: 90\n", "  mem_empirical_constant_latency: 1\n"),
        "gpu.mem_empirical_constant_latency (line 6): expected a finite number in [0, 0.01]");
    // A decimal comma is text, in every locale.
    row("decimal comma", replaced("  sm_version: 90\n", "  mem_bw_empirical_scaling_factor: 0,8\n"),
        "gpu.mem_bw_empirical_scaling_factor (line 6): expected a number, found '0,8'");
    row("infinite", replaced("mem_bw: 2000000000000", "mem_bw: .inf"),
        "gpu.mem_bw (line 2): expected a number, found '.inf'");
    row("no gpu section", "misc:\n  other_mem: 1\n", "missing 'gpu' section");
    row("not a mapping", "- 1\n- 2\n", "expected a YAML mapping");
    row("invalid yaml", "gpu: [1, 2\n", "invalid YAML");
}

void TestSystemYaml::badInput()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    try {
        parseSystemYaml(text.toStdString(), "gpu.yaml", "gpu");
        QFAIL("accepted a malformed system yaml");
    } catch (const LoadError& e) {
        const QString what = QString::fromUtf8(e.what());
        QVERIFY2(what.contains("gpu.yaml"), qPrintable(what));
        QVERIFY2(what.contains(expected), qPrintable(what));
    }
}

ACSEL_TEST_APPLESS_MAIN(TestSystemYaml)
#include "test_systemyaml.moc"
