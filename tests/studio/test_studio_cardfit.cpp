// The card at 1280x720: its tables never scroll sideways and every number column (Delta last)
// lies whole inside the table, on the default workspace's answer and with an FMC file's
// intervals under the latencies (two-line rows, the widest numbers); the card itself does not
// scroll sideways either.
#include "app/studio/mainwindow.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/recipecard.h"

#include <QApplication>
#include <QHeaderView>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <fstream>

using namespace acsel::gui;
using namespace acsel::studio::test;

namespace
{

// A spread for the default stack (jetson_agx_thor/vllm, spec-only): every latency has an interval.
QString writeFmc(const QTemporaryDir& dir)
{
    const QString file = dir.filePath(QStringLiteral("fmc.json"));
    std::ofstream(file.toStdString()) << R"({"schema_version": 2, "kind": "acsel-fmc",
      "tau": 0.5, "serving_mode": "static", "stacks": [{"stack": "jetson_agx_thor/vllm",
      "ttft": {"gamma": 1, "delta": 0, "form": "identity",
               "cv_loss": {"identity": 0.3, "offset": null, "line": null},
               "spread": {"profiles": 5, "dof": 4, "log_scale": 0.5}},
      "tpot": {"gamma": 1, "delta": 0, "form": "identity",
               "cv_loss": {"identity": 0.1, "offset": null, "line": null},
               "spread": {"profiles": 5, "dof": 4, "log_scale": 0.5}},
      "rows_used": []}]})";
    return file;
}

// Why the card's tables do not fit, or empty.
QString misfit(const RecipeCard& card)
{
    for (const QTableWidget* t : card.findChildren<QTableWidget*>()) {
        if (t->horizontalScrollBar()->maximum() != 0)
            return QStringLiteral("%1 scrolls sideways by %2 px")
                .arg(t->horizontalHeaderItem(0)->text())
                .arg(t->horizontalScrollBar()->maximum());
        const int width = t->viewport()->width();
        for (int c = 1; c < t->columnCount(); ++c) { // the names (column 0) may elide
            const int right = t->columnViewportPosition(c) + t->columnWidth(c);
            // Header and every cell whole: the header's size hint, each cell's text (all its
            // lines) with the item's margins.
            int needed = t->horizontalHeader()->sectionSizeHint(c);
            for (int r = 0; r < t->rowCount(); ++r)
                if (const QTableWidgetItem* item = t->item(r, c))
                    needed = std::max(needed, t->fontMetrics().size(0, item->text()).width() + 6);
            if (right > width || t->columnWidth(c) < needed)
                return QStringLiteral("%1: column '%2' spans to %3 of %4 px, %5 px wide for "
                                      "%6 px of contents")
                    .arg(t->horizontalHeaderItem(0)->text(), t->horizontalHeaderItem(c)->text())
                    .arg(right)
                    .arg(width)
                    .arg(t->columnWidth(c))
                    .arg(needed);
        }
    }
    return {};
}

} // namespace

class TestStudioCardFit : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio card fit test"));
    }

    void everyColumnShowsAt1280x720()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const QString& fmc : {QString(), writeFmc(dir)}) {
            MainWindow w(false);
            w.resize(1280, 720);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(
                w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString(), fmc));
            auto* card = w.findChild<RecipeCard*>();
            QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && card->content() && !card->isStale(), kSlowMs);
            QApplication::processEvents();
            QVERIFY(card->content()->uniform); // the Delta column has numbers
            QCOMPARE(card->metricsTable()->item(0, 1)->text().contains(QLatin1Char('\n')),
                     !fmc.isEmpty()); // the interval under TTFT
            QVERIFY(w.width() <= 1280 && w.height() <= 720);
            const QString why = misfit(*card);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            auto* area = qobject_cast<QScrollArea*>(card->parentWidget()->parentWidget());
            QVERIFY(area);
            QCOMPARE(area->horizontalScrollBar()->maximum(), 0);
        }
    }
};

ACSEL_TEST_MAIN(TestStudioCardFit)
#include "test_studio_cardfit.moc"
