// The window's layout at 1280x720 from the first frame: nothing moves when the first answer
// arrives (the plot, the gauges and every dock keep their geometry), and the card's Pin, Pin
// best uniform and Export buttons are on screen without scrolling.
#include "app/studio/mainwindow.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/budgetgauges.h"
#include "widgets/paretoplot.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStandardPaths>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QToolButton>
#include <map>
#include <qcustomplot.h>

using namespace acsel::gui;
using namespace acsel::studio::test;

class TestStudioLayout : public QObject
{
    Q_OBJECT

    // Every dock's and the plot's geometry in window coordinates, by name.
    static std::map<QString, QRect> geometries(const MainWindow& w)
    {
        std::map<QString, QRect> out;
        auto add = [&](const QString& name, const QWidget* x) {
            // A tab behind another (the surrogate fit) counts as absent.
            out[name] = x->isVisible() && !x->visibleRegion().isEmpty()
                            ? QRect(x->mapTo(&w, QPoint(0, 0)), x->size())
                            : QRect();
        };
        add(QStringLiteral("plot"), w.findChild<ParetoPlot*>());
        add(QStringLiteral("gauges"), w.findChild<BudgetGauges*>());
        // The plotting area inside the plot: tick labels and legend must not shift it.
        auto* qcp = w.findChild<ParetoPlot*>()->findChild<QCustomPlot*>();
        qcp->replot(); // the layout of a queued replot, now
        out[QStringLiteral("axis rect")] = qcp->axisRect()->rect();
        add(QStringLiteral("qcp"), qcp);
        for (const QDockWidget* d : w.findChildren<QDockWidget*>())
            add(d->objectName(), d);
        return out;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio layout test"));
    }

    void nothingMovesWhenTheFirstAnswerArrives()
    {
        MainWindow w(false);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        QApplication::processEvents();
        auto* card = w.findChild<RecipeCard*>();
        QVERIFY(!card->content()); // the search has not answered yet
        // The workspace's own request: no budgets offered for "another stack".
        QVERIFY(!w.findChild<QWidget*>(QStringLiteral("budgetOffer"))->isVisible());
        const std::map<QString, QRect> before = geometries(w);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && card->content() && !card->isStale(), kSlowMs);
        QApplication::processEvents();
        const std::map<QString, QRect> after = geometries(w);
        for (const auto& [name, g] : before) {
            const QRect& a = after.at(name);
            QVERIFY2(a == g, qPrintable(QStringLiteral("%1 moved from %2,%3 %4x%5 to %6,%7 %8x%9")
                                            .arg(name)
                                            .arg(g.x())
                                            .arg(g.y())
                                            .arg(g.width())
                                            .arg(g.height())
                                            .arg(a.x())
                                            .arg(a.y())
                                            .arg(a.width())
                                            .arg(a.height())));
        }

        // Every note shown (the banner expanded): the plot keeps room for its y axis title.
        auto* toggle = w.findChild<QToolButton*>(QStringLiteral("bannerToggle"));
        QVERIFY(toggle && toggle->isVisible());
        toggle->click();
        QApplication::processEvents();
        auto* qcp = w.findChild<ParetoPlot*>()->findChild<QCustomPlot*>();
        qcp->replot();
        const int titleLength =
            QFontMetrics(qcp->yAxis->labelFont()).horizontalAdvance(qcp->yAxis->label());
        QVERIFY2(qcp->axisRect()->height() >= titleLength,
                 qPrintable(QStringLiteral("%1 px for a title of %2 px")
                                .arg(qcp->axisRect()->height())
                                .arg(titleLength)));
        toggle->click();

        // How sure the latencies are: no tables, no measured rows to say it.
        auto* howSure = card->findChild<QLabel*>(QStringLiteral("cardHowSure"));
        QVERIFY(howSure && howSure->isVisibleTo(card));
        QVERIFY2(howSure->text().startsWith(QStringLiteral("How sure: no interval")),
                 qPrintable(howSure->text()));

        // The Request panel fits its dock's width: no horizontal scroll bar at 1280x720, also
        // with the longest stack id and the longest serving mode chosen.
        auto* request = w.findChild<QDockWidget*>(QStringLiteral("request"));
        auto* area = qobject_cast<QScrollArea*>(request->widget());
        QVERIFY(area);
        auto noHorizontalScroll = [&] {
            QApplication::processEvents();
            const int range = area->horizontalScrollBar()->maximum();
            if (range != 0)
                qWarning("the Request panel scrolls by %d px in a %d px dock", range,
                         request->width());
            return range == 0;
        };
        QVERIFY(noHorizontalScroll());
        auto* panel = w.findChild<SloPanel*>();
        // Each budget's slider spans the field (beside its box it was 20 px: 5 decades of TTFT).
        for (QSlider* slider : panel->findChildren<QSlider*>())
            QVERIFY2(
                slider->width() >= 120,
                qPrintable(QStringLiteral("a budget slider is %1 px wide").arg(slider->width())));
        int longest = 0;
        for (int i = 0; i < panel->stackBox()->count(); ++i)
            if (panel->stackBox()->itemText(i).size() > panel->stackBox()->itemText(longest).size())
                longest = i;
        panel->stackBox()->setCurrentIndex(longest);
        auto* mode = panel->findChild<QComboBox*>(QStringLiteral("servingMode"));
        QVERIFY(mode);
        mode->setCurrentIndex(mode->count() - 1);
        QVERIFY(noHorizontalScroll());
        // Both boxes show their whole text (the stack's read "h100_sxm/trtllm (h10" when it
        // named the device too): the style's text field holds it.
        for (QComboBox* box : {panel->stackBox(), mode}) {
            QStyleOptionComboBox o;
            o.initFrom(box);
            o.currentText = box->currentText();
            const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &o,
                                                             QStyle::SC_ComboBoxEditField, box);
            const int text = box->fontMetrics().horizontalAdvance(box->currentText());
            QVERIFY2(field.width() >= text, qPrintable(QStringLiteral("'%1': %2 px for %3 px")
                                                           .arg(box->currentText())
                                                           .arg(field.width())
                                                           .arg(text)));
        }

        // The card's actions are visible at once, whatever the card's length.
        for (const QString& text : {QStringLiteral("Pin"), QStringLiteral("Pin best uniform"),
                                    QStringLiteral("Export...")}) {
            QPushButton* button = nullptr;
            for (QPushButton* b : card->findChildren<QPushButton*>())
                if (b->text() == text)
                    button = b;
            QVERIFY2(button, qPrintable(text));
            QVERIFY2(button->visibleRegion().boundingRect() == button->rect(), qPrintable(text));
        }
    }
};

ACSEL_TEST_MAIN(TestStudioLayout)
#include "test_studio_layout.moc"
