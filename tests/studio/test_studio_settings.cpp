// The settings the studio keeps between runs: they round-trip, and a hand-edited value that is
// no number of the field's kind keeps the default instead of reaching the request.
#include "app/studio/studiosettings.h"
#include "testmain.h"

#include <QSettings>
#include <QTemporaryDir>

using namespace acsel;

class TestStudioSettings : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void badValuesKeepTheDefaults();
};

void TestStudioSettings::roundTrip()
{
    QTemporaryDir dir;
    QSettings s(dir.filePath("a.ini"), QSettings::IniFormat);
    Request r;
    r.stack = "rtx_a6000/vllm";
    r.isl = 2048;
    r.osl = 64;
    r.concurrency = 8;
    r.ttftBudgetMs = 750.5;
    r.tpotBudgetMs = 22;
    r.memBudgetGiB = 40;
    r.mode = ServingMode::Continuous;
    studio::saveStudioSettings(s, {"ws.json", "tables", r, {}});
    const studio::StudioSettings back = studio::loadStudioSettings(s);
    QCOMPARE(back.workspaceFile, QString("ws.json"));
    QCOMPARE(back.tablesDir, QString("tables"));
    QVERIFY(back.request && *back.request == r);
}

void TestStudioSettings::badValuesKeepTheDefaults()
{
    QTemporaryDir dir;
    QSettings s(dir.filePath("b.ini"), QSettings::IniFormat);
    s.setValue("request/stack", "rtx_a6000/vllm");
    s.setValue("request/isl", "1e300");         // beyond int: once cast, undefined behaviour
    s.setValue("request/osl", "12.5");          // not a whole number
    s.setValue("request/concurrency", 1 << 21); // beyond the readers' kMaxConcurrency
    s.setValue("request/ttft_ms", "inf");
    s.setValue("request/tpot_ms", -3);
    s.setValue("request/memory_gib", "lots");
    const studio::StudioSettings v = studio::loadStudioSettings(s);
    const Request defaults;
    QVERIFY(v.request);
    QCOMPARE(v.request->stack, std::string("rtx_a6000/vllm"));
    QCOMPARE(v.request->isl, defaults.isl);
    QCOMPARE(v.request->osl, defaults.osl);
    QCOMPARE(v.request->concurrency, defaults.concurrency);
    QCOMPARE(v.request->ttftBudgetMs, defaults.ttftBudgetMs);
    QCOMPARE(v.request->tpotBudgetMs, defaults.tpotBudgetMs);
    QCOMPARE(v.request->memBudgetGiB, defaults.memBudgetGiB);
}

ACSEL_TEST_APPLESS_MAIN(TestStudioSettings)
#include "test_studio_settings.moc"
