// A first start (settings restored, none saved) opens on the default stack with budgets derived
// from it (10 % above uniform fp8 Qwen3-32B), as --screenshot does: with the Margin % field the
// saved-margin branch took the default request's place and the window opened on the first
// stack of the workspace with Request's built-in budgets (1000 ms, 50 ms, 80 GiB).
#include "app/studio/mainwindow.h"
#include "testmain.h"
#include "widgets/slopanel.h"

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>

using namespace acsel;
using namespace acsel::gui;

class TestStudioFirstStart : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio first start test"));
        QSettings().clear();
    }

    void opensOnTheDefaultStackWithDerivedBudgets()
    {
        MainWindow w(true);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        const Request r = w.findChild<SloPanel*>()->request();
        QCOMPARE(QString::fromStdString(r.stack), QStringLiteral("jetson_agx_thor/vllm"));
        QCOMPARE(r.concurrency, 4);
        QVERIFY(r.ttftBudgetMs != Request{}.ttftBudgetMs);
        QVERIFY(r.memBudgetGiB != Request{}.memBudgetGiB);
    }
};

ACSEL_TEST_MAIN(TestStudioFirstStart)
#include "test_studio_firststart.moc"
