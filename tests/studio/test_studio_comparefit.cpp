// Compare at 1280x720 with an FMC file's intervals: four pins (the reference among them) show
// whole without scrolling, every metric column inside the table, each latency's interval drawn
// under it; and the band editor's prediction line shows the same interval as the card.
#include "app/studio/mainwindow.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/elidedlabel.h"
#include "widgets/recipecard.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <fstream>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;

namespace
{

// A spread for the default stack (jetson_agx_thor/vllm, spec-only): every latency has an
// interval, as wide as a real one on a stack measured once.
QString writeSpreadFmc(const QTemporaryDir& dir)
{
    const QString file = dir.filePath(QStringLiteral("fmc.json"));
    std::ofstream(file.toStdString()) << R"({"schema_version": 2, "kind": "acsel-fmc",
      "tau": 0.5, "serving_mode": "static", "stacks": [{"stack": "jetson_agx_thor/vllm",
      "ttft": {"gamma": 1, "delta": 0, "form": "identity",
               "spread": {"profiles": 5, "dof": 4, "log_scale": 0.5}},
      "tpot": {"gamma": 1, "delta": 0, "form": "identity",
               "spread": {"profiles": 5, "dof": 4, "log_scale": 0.5}},
      "rows_used": []}]})";
    return file;
}

QString rect(const QRect& r)
{
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

} // namespace

class TestStudioCompareFit : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio compare fit test"));
    }

    void fourPinsWithIntervalsShowAt1280x720()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow w(false);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(),
                                writeSpreadFmc(dir)));
        auto* card = w.findChild<RecipeCard*>();
        auto* editor = w.findChild<BandEditor*>();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && card->content() && !card->isStale(), kSlowMs);
        QTRY_VERIFY_WITH_TIMEOUT(editor->prediction().has_value(), kSlowMs);

        // The editor shows the recommendation: the card's intervals (one engine call), in its
        // line as the card words them.
        const PredictionView& answer = card->content()->prediction;
        QVERIFY(editor->config() == card->content()->config);
        QVERIFY(answer.ttftInterval && answer.tpotInterval);
        const PredictionView& edited = *editor->prediction();
        QVERIFY(edited.ttftInterval && edited.tpotInterval);
        QCOMPARE(edited.ttftInterval->lowMs, answer.ttftInterval->lowMs);
        QCOMPARE(edited.ttftInterval->highMs, answer.ttftInterval->highMs);
        QCOMPARE(edited.tpotInterval->highMs, answer.tpotInterval->highMs);
        const QString line =
            editor->findChild<ElidedLabel*>(QStringLiteral("editorPrediction"))->text();
        for (const LatencyInterval& iv : {*answer.ttftInterval, *answer.tpotInterval})
            QVERIFY2(
                line.contains(QStringLiteral("(90 %: ") + formatInterval(iv) + QLatin1Char(')')),
                qPrintable(line));

        // Four pins: the recommendation, the best uniform and edits of the editor's recipe.
        auto* model = w.findChild<CompareModel*>();
        w.findChild<QAction*>(QStringLiteral("pinRecommendationAction"))->trigger();
        for (QPushButton* b : card->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Pin best uniform"))
                b->click();
        for (int edits = 0; model->rowCount() < CompareModel::kMaxPinned && edits < 8; ++edits) {
            editor->strip()->edit(nudged(editor->config().recipe), QStringLiteral("nudge"));
            w.findChild<QAction*>(QStringLiteral("pinEditorAction"))->trigger();
        }
        QCOMPARE(model->rowCount(), CompareModel::kMaxPinned);
        QVERIFY(model->hasIntervals());
        QApplication::processEvents();
        QVERIFY(w.width() <= 1280 && w.height() <= 720);

        // Every row and column whole inside the table's viewport: no scrolling either way.
        auto* table = w.findChild<CompareTable*>();
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("compare"));
        QVERIFY(table && dock && dock->isVisible());
        QVERIFY(QRect(QPoint(0, 0), w.size())
                    .contains(QRect(dock->mapTo(&w, QPoint(0, 0)), dock->size())));
        const QRect viewport = table->viewport()->rect();
        QVERIFY2(table->verticalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("viewport %1, rows %2 px high, scrolls by %3")
                                .arg(rect(viewport))
                                .arg(table->rowHeight(0))
                                .arg(table->verticalScrollBar()->maximum())));
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        for (int r = 0; r < model->rowCount(); ++r)
            for (int c = 0; c < CompareModel::ColumnCount; ++c) {
                const QRect cell = table->visualRect(model->index(r, c));
                QVERIFY2(viewport.contains(cell),
                         qPrintable(QStringLiteral("row %1 column %2 at %3 in %4")
                                        .arg(r)
                                        .arg(c)
                                        .arg(rect(cell), rect(viewport))));
            }
        // Each metric column as wide as its widest line (value or delta): nothing elided.
        for (int c = CompareModel::Ttft; c <= CompareModel::Rmqd; ++c)
            for (int r = 0; r < model->rowCount(); ++r)
                for (const QString& text :
                     model->data(model->index(r, c)).toString().split(QLatin1Char('\n')))
                    QVERIFY2(table->fontMetrics().horizontalAdvance(text) < table->columnWidth(c),
                             qPrintable(text));
        // The intervals are there, drawn under the latencies.
        for (int r = 0; r < model->rowCount(); ++r)
            for (const int c : {CompareModel::Ttft, CompareModel::Tpot})
                QCOMPARE(
                    model->data(model->index(r, c), CompareModel::IntervalRole).toList().size(), 3);
    }
};

ACSEL_TEST_MAIN(TestStudioCompareFit)
#include "test_studio_comparefit.moc"
