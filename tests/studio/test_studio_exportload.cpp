// The Export dialog opened from the window runs the load check acsel launch runs: for a
// configuration the stack's engine release cannot load (int8 weights on vLLM, whose ModelOpt
// loader reads FP8 and NVFP4 only: datasets/engine_loaders.json) it shows the warning line with
// the reason; for one it loads (bf16 throughout) no line.
#include "app/studio/mainwindow.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/bandeditor.h"
#include "widgets/exportdialog.h"
#include "widgets/slopanel.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTimer>
#include <functional>
#include <optional>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;

namespace
{

struct ShownLine {
    QString text;
    bool visible = false;
};

// Triggers File > Export... and reads the dialog's load-check line once it is open (answering
// Yes when the window first asks about a rejected configuration), then closes it.
std::optional<ShownLine> exportLine(MainWindow& w)
{
    std::optional<ShownLine> seen;
    int polls = 0;
    std::function<void()> poll = [&] {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* box = qobject_cast<QMessageBox*>(modal)) {
            box->button(QMessageBox::Yes)->click();
        } else if (auto* dialog = qobject_cast<ExportDialog*>(modal)) {
            const auto* line = dialog->findChild<QLabel*>(QStringLiteral("loadWarning"));
            seen = ShownLine{dialog->loadWarningText(), line && line->isVisibleTo(dialog)};
            dialog->reject();
            return;
        }
        if (++polls < 200)
            QTimer::singleShot(20, poll);
    };
    QTimer::singleShot(20, poll);
    w.findChild<QAction*>(QStringLiteral("exportAction"))->trigger();
    return seen;
}

} // namespace

class TestStudioExportLoad : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio export load test"));
    }

    void theDialogSaysWhatTheEngineCannotLoad()
    {
        MainWindow w(false);
        w.show();
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        Request r = w.state()->request();
        r.stack = "rtx_a6000/vllm"; // Ampere, vLLM: int8 and int4_wo offered by the stack
        r.concurrency = 1;
        w.state()->setRequest(r);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
        BandEditor* editor = w.findChild<BandEditor*>();
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);
        const Config answer = editor->config(); // the recommendation's model and batch
        const int layers = answer.recipe.numLayers();
        const std::vector<Format> formats = {Format::Int4Wo, Format::Int8Wo, Format::Int8,
                                             Format::Bf16};
        auto uniform = [&](Format f) {
            Config c = answer;
            c.recipe = BandRecipe();
            c.recipe.push({0, layers, f, Scope::Full});
            c.kv = KvFormat::Bf16;
            c.lmHeadQuantized = false;
            return c;
        };

        editor->setConfig(uniform(Format::Int8), QStringLiteral("m"), formats);
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);
        const std::optional<ShownLine> refused = exportLine(w);
        QVERIFY(refused);
        QVERIFY(refused->visible);
        QVERIFY2(refused->text.startsWith(QStringLiteral("Load check for vllm ")),
                 qPrintable(refused->text));
        QVERIFY2(refused->text.contains(QStringLiteral("will not load: ")) &&
                     refused->text.contains(QStringLiteral("int8")),
                 qPrintable(refused->text));
        qInfo("%s", qPrintable(refused->text));

        editor->setConfig(uniform(Format::Bf16), QStringLiteral("m"), formats);
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);
        const std::optional<ShownLine> loads = exportLine(w);
        QVERIFY(loads);
        QVERIFY2(loads->text.isEmpty(), qPrintable(loads->text));
        QVERIFY(!loads->visible);
    }
};

ACSEL_TEST_MAIN(TestStudioExportLoad)
#include "test_studio_exportload.moc"
