// The Request panel's Confidence: with an FMC file that has intervals the window gates TTFT and
// TPOT at the upper end of the interval through the core's applyConfidence (what acsel search
// --confidence runs), says so on the card's gate line and saves it in the session; without
// intervals, or without an FMC file, the control is off, disabled, and its tooltip says why.
#include "app/studio/mainwindow.h"
#include "core/session/sessionfile.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/bandeditor.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cmath>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;

namespace
{

// Identity lines for jetson_agx_thor/vllm (a spec-only stack), with or without a spread of
// log scale 0.1 from 5 profiles (dof 4).
QString writeFmc(const QTemporaryDir& dir, bool intervals)
{
    const QString file =
        dir.filePath(intervals ? QStringLiteral("spread.json") : QStringLiteral("median.json"));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    const QByteArray spread =
        intervals ? R"(, "spread": {"profiles": 5, "dof": 4, "log_scale": 0.1})" : "";
    f.write(R"({"schema_version": 1, "kind": "acsel-fmc", "tau": 0.5,
        "stacks": [{"stack": "jetson_agx_thor/vllm", "ttft": {"gamma": 1, "delta": 0)" +
            spread + R"(}, "tpot": {"gamma": 1, "delta": 0)" + spread + R"(}, "rows_used": []}]})");
    return file;
}

// Identity lines for jetson_agx_thor/vllm with a stack spread (20 profiles, log scale 0.5) and
// one for concurrency 4 (centre 0.3, 5 profiles, log scale 0.1), as acsel calibrate writes them.
QString writeFmcByConcurrency(const QTemporaryDir& dir)
{
    const QString file = dir.filePath(QStringLiteral("loads.json"));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    const QByteArray metric =
        R"({"gamma": 1, "delta": 0, "form": "identity",
            "spread": {"profiles": 20, "dof": 19, "log_scale": 0.5},
            "load_spreads": [{"load": "c4", "centre": 0.3, "profiles": 5, "dof": 4,
                              "log_scale": 0.1}]})";
    f.write(R"({"schema_version": 2, "kind": "acsel-fmc", "tau": 0.5,
        "stacks": [{"stack": "jetson_agx_thor/vllm", "ttft": )" +
            metric + R"(, "tpot": )" + metric + R"(, "rows_used": []}]})");
    return file;
}

} // namespace

class TestStudioConfidence : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio confidence test"));
    }

    void gatesAtTheUpperEndOfTheInterval()
    {
        QTemporaryDir dir;
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(),
                                writeFmc(dir, true)));
        w.show();
        auto* panel = w.findChild<SloPanel*>();
        QComboBox* box = panel->confidenceBox();
        QVERIFY(box->isEnabled());
        QCOMPARE(panel->confidence(), 0.5);
        QCOMPARE(panel->request().stack, std::string("jetson_agx_thor/vllm"));
        auto* editor = w.findChild<BandEditor*>();
        auto* card = w.findChild<RecipeCard*>();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && card->content() && !card->isStale(), kSlowMs);
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);
        // Off: the identity line, calibrated = raw.
        QCOMPARE(editor->prediction()->ttftMs, editor->prediction()->rawTtftMs);

        const Request asked = w.state()->request();
        box->setCurrentIndex(box->findData(0.9)); // as the user picks it
        QCOMPARE(panel->confidence(), 0.9);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && card->content() && !card->isStale(), kSlowMs);
        QVERIFY(w.state()->request() == asked); // the request stays
        // By hand: t_4(0.9) = 1.533206 (Student t table); the 0.9 line's offset is
        // 1.533206 x 0.1 x sqrt(1 + 1/5) = 0.167953, a factor e^0.167953 = 1.182878 on the
        // raw estimate, TTFT and TPOT alike.
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);
        const PredictionView& p = *editor->prediction();
        QVERIFY2(std::abs(p.ttftMs / p.rawTtftMs - 1.182878) < 1e-5,
                 qPrintable(QString::number(p.ttftMs / p.rawTtftMs, 'f', 7)));
        QVERIFY(std::abs(p.tpotMs / p.rawTpotMs - 1.182878) < 1e-5);
        // The answer meets the budgets at that upper end.
        const PredictionView& answer = card->content()->prediction;
        QVERIFY(answer.ttftMs <= asked.ttftBudgetMs && answer.tpotMs <= asked.tpotBudgetMs);
        QVERIFY(std::abs(answer.ttftMs / answer.rawTtftMs - 1.182878) < 1e-5);
        auto* gate = card->findChild<QLabel*>(QStringLiteral("cardMargin"));
        QVERIFY(gate);
        QCOMPARE(gate->text(),
                 QStringLiteral("TTFT and TPOT met with p >= 0.9 (upper end of the FMC interval)"));

        // Saved in the session, and opened again from it.
        const QString file = dir.filePath(QStringLiteral("s.acsel-session"));
        QString error;
        QVERIFY2(w.sessions()->saveTo(file, &error), qPrintable(error));
        QCOMPARE(loadSessionFile(file.toStdString()).confidence, 0.9);
        box->setCurrentIndex(box->findData(0.5));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
        QVERIFY(w.sessions()->isModified());
        QVERIFY(w.sessions()->open(file));
        QCOMPARE(panel->confidence(), 0.9);
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);
        QVERIFY(std::abs(editor->prediction()->ttftMs / editor->prediction()->rawTtftMs -
                         1.182878) < 1e-5);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
    }

    void followsTheRequestsConcurrency()
    {
        // The gate's interval is the one at the request's concurrency (acsel search
        // --confidence's rule): the window applies it again when the concurrency changes. From
        // printed t tables: at 4, 0.3 + t_4(0.9) 1.5332 x 0.1 x sqrt(1 + 1/5) = 0.46795; at 2,
        // below the fitted concurrencies, the wider of that and the stack's t_19(0.9) 1.3277 x
        // 0.5 x sqrt(1 + 1/20) = 0.68024.
        QTemporaryDir dir;
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(),
                                writeFmcByConcurrency(dir)));
        w.show();
        auto* panel = w.findChild<SloPanel*>();
        auto* editor = w.findChild<BandEditor*>();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && editor->prediction().has_value(), kSlowMs);
        const auto ratioAt = [&](int concurrency) {
            Request r = w.state()->request();
            r.concurrency = concurrency;
            w.state()->setRequest(r);
            QTest::qWait(0); // the gate is applied again after the change's event
            return editor->prediction()
                       ? editor->prediction()->ttftMs / editor->prediction()->rawTtftMs
                       : 0.0;
        };
        QComboBox* box = panel->confidenceBox();
        box->setCurrentIndex(box->findData(0.9));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
        QTRY_VERIFY2_WITH_TIMEOUT(std::abs(ratioAt(4) - std::exp(0.46795)) < 1e-4,
                                  qPrintable(QString::number(ratioAt(4), 'f', 6)), kSlowMs);
        QTRY_VERIFY2_WITH_TIMEOUT(std::abs(ratioAt(2) - std::exp(0.68024)) < 1e-4,
                                  qPrintable(QString::number(ratioAt(2), 'f', 6)), kSlowMs);
        QCOMPARE(w.state()->request().concurrency, 2); // the request stays
        QCOMPARE(panel->confidence(), 0.9);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
    }

    void disabledWithoutIntervals()
    {
        QTemporaryDir dir;
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        auto* panel = w.findChild<SloPanel*>();
        QVERIFY(!panel->confidenceBox()->isEnabled());
        QVERIFY2(panel->confidenceBox()->toolTip().contains(QStringLiteral("none is loaded")),
                 qPrintable(panel->confidenceBox()->toolTip()));
        const QString median = writeFmc(dir, false);
        QVERIFY(
            w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(), median));
        QVERIFY(!panel->confidenceBox()->isEnabled());
        QCOMPARE(panel->confidence(), 0.5);
        QVERIFY2(panel->confidenceBox()->toolTip().contains(median + QStringLiteral(" has none")),
                 qPrintable(panel->confidenceBox()->toolTip()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
    }
};

ACSEL_TEST_MAIN(TestStudioConfidence)
#include "test_studio_confidence.moc"
