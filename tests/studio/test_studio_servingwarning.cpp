// The window warns, above the plot, when the request's stack has an FMC line fitted on the other
// serving model than the request's (as `acsel search` does on stderr), and hides the warning when
// they match, when the stack has no FMC line, and after opening a session that matches.
#include "app/studio/mainwindow.h"
#include "testmain.h"
#include "widgets/slopanel.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <memory>

using namespace acsel;
using namespace acsel::gui;

namespace
{

const QString kStack = QStringLiteral("jetson_agx_thor/vllm"); // a spec-only stack

// An identity FMC line for kStack only, fitted on the continuous serving model.
QString writeContinuousFmc(const QTemporaryDir& dir)
{
    const QString file = dir.filePath(QStringLiteral("fmc.json"));
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(R"({"schema_version": 1, "kind": "acsel-fmc", "tau": 0.5,
        "serving_mode": "continuous", "stacks": [{"stack": "jetson_agx_thor/vllm",
        "ttft": {"gamma": 1, "delta": 0}, "tpot": {"gamma": 1, "delta": 0}, "rows_used": []}]})");
    return file;
}

QComboBox* modeBox(SloPanel& panel)
{
    return panel.findChild<QComboBox*>(QStringLiteral("servingMode"));
}

} // namespace

class TestStudioServingWarning : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio serving warning test"));
    }

    void warnsWhileTheFmcLineFitsTheOtherServingModel()
    {
        QTemporaryDir dir;
        const QString fmc = writeContinuousFmc(dir);
        QVERIFY(!fmc.isEmpty());
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(), fmc));
        w.show();
        auto* panel = w.findChild<SloPanel*>();
        auto* warning = w.findChild<QLabel*>(QStringLiteral("servingModelWarning"));
        QVERIFY(panel && warning);
        QComboBox* mode = modeBox(*panel);
        QVERIFY(mode);
        QCOMPARE(QString::fromStdString(panel->request().stack), kStack);

        // A new session asks for static batching and the line fits continuous: warned at once.
        QVERIFY(panel->request().mode == ServingMode::Static);
        QVERIFY(warning->isVisible());
        QVERIFY2(warning->text().contains(QStringLiteral(
                     "The FMC line of jetson_agx_thor/vllm was fitted on the continuous serving "
                     "model, the request uses the static one")),
                 qPrintable(warning->text()));

        // Continuous batching: the line fits the request, nothing to say.
        mode->setCurrentIndex(1);
        QVERIFY(panel->request().mode == ServingMode::Continuous);
        QVERIFY(!warning->isVisible());

        // Back to static, then another stack: it has no FMC line, so no warning either.
        mode->setCurrentIndex(0);
        QVERIFY(warning->isVisible());
        QComboBox* stacks = panel->stackBox();
        const int other = stacks->currentIndex() == 0 ? 1 : 0;
        QVERIFY(stacks->count() > 1);
        stacks->setCurrentIndex(other);
        QVERIFY(panel->request().stack != kStack.toStdString());
        QVERIFY(panel->request().mode == ServingMode::Static);
        QVERIFY(!warning->isVisible());
        w.close();
    }

    void openingASessionUpdatesTheWarning()
    {
        // Opening a session sets the request without the panel's signals: the warning must
        // follow it all the same.
        QTemporaryDir dir;
        const QString fmc = writeContinuousFmc(dir);
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(), fmc));
        w.show();
        auto* panel = w.findChild<SloPanel*>();
        auto* warning = w.findChild<QLabel*>(QStringLiteral("servingModelWarning"));
        QComboBox* mode = modeBox(*panel);
        mode->setCurrentIndex(1);
        QVERIFY(!warning->isVisible());
        const QString continuous = dir.filePath(QStringLiteral("continuous.acsel-session"));
        QString error;
        QVERIFY2(w.sessions()->saveTo(continuous, &error), qPrintable(error));
        mode->setCurrentIndex(0);
        const QString staticFile = dir.filePath(QStringLiteral("static.acsel-session"));
        QVERIFY2(w.sessions()->saveTo(staticFile, &error), qPrintable(error));
        QVERIFY(warning->isVisible());
        QVERIFY(w.sessions()->open(continuous));
        QVERIFY(panel->request().mode == ServingMode::Continuous);
        QVERIFY(!warning->isVisible());
        QVERIFY(w.sessions()->open(staticFile));
        QVERIFY(panel->request().mode == ServingMode::Static);
        QVERIFY(warning->isVisible());
        w.close();
    }
};

ACSEL_TEST_MAIN(TestStudioServingWarning)
#include "test_studio_servingwarning.moc"
