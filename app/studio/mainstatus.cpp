// The window's text around the plot: the banner above it (provenance and caveats), the
// status line below it (counts and timings) and the surrogate-fit tab.
#include "engineloading.h"
#include "mainwindow.h"
#include "sessionnotes.h"
#include "widgets/elidedlabel.h"
#include "widgets/fitqualityplot.h"
#include "widgets/paretoplot.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>
#include <qcustomplot.h>

using namespace acsel::gui;

namespace
{
// Milliseconds with two significant digits below 10 ms (an index answer takes microseconds:
// "0.014"), whole ones above.
QString answerMs(double seconds)
{
    const double ms = seconds * 1000;
    return ms >= 10 ? QString::number(ms, 'f', 0) : QString::number(ms, 'g', 2);
}
} // namespace

void MainWindow::updateBanner()
{
    QStringList lines = acsel::studio::bannerLines(*ws_, session_->hooks(), !fmcFile_.isEmpty(),
                                                   engine_->qualitySynthetic());
    // First: it says which of the plotted RMQDs are not the model's own level.
    if (const QString l = acsel::studio::extrapolatedModelsLine(*engine_); !l.isEmpty())
        lines.prepend(l);
    if (!startupNote_.isEmpty())
        lines.append(startupNote_);
    showBannerLines(lines, bannerToggle_->isChecked());
}

void MainWindow::showBannerLines(const QStringList& lines, bool expanded)
{
    bannerLines_ = lines;
    // Collapsed: the first note (the most important: what is not measured) and how many
    // follow. Long notes (stack lists) are cut; the tooltip has every note whole.
    constexpr qsizetype kMaxChars = 170;
    QStringList shown;
    for (const QString& l : lines) {
        shown << (l.size() <= kMaxChars
                      ? l
                      : l.left(l.lastIndexOf(QLatin1Char(' '), kMaxChars)) + tr(" ... (hover)"));
        if (!expanded)
            break;
    }
    if (!expanded && lines.size() > 1)
        shown.back() += tr("  (+%n more)", "", static_cast<int>(lines.size() - 1));
    banner_->setText(shown.join(QLatin1Char('\n')));
    banner_->setToolTip(lines.join(QStringLiteral("\n\n")));
    banner_->parentWidget()->setVisible(!lines.isEmpty());
    // Expanded, at most five lines (the tooltip has every note): the plot keeps its height
    // on a laptop, its y axis title whole.
    banner_->setMaximumHeight(expanded
                                  ? 5 * banner_->fontMetrics().lineSpacing() + 2 * banner_->margin()
                                  : QWIDGETSIZE_MAX);
    bannerToggle_->setVisible(lines.size() > 1);
    bannerToggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    QPalette pal = banner_->palette();
    pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
    pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
    banner_->setPalette(pal);
}

void MainWindow::showNothingLoaded(const QString& error)
{
    // Expanded: with nothing loaded, what to do is the whole window's message.
    const QSignalBlocker block(bannerToggle_);
    bannerToggle_->setChecked(true);
    showBannerLines({error, tr("Nothing is loaded. File > Open workspace (Ctrl+Shift+O) or Open "
                               "tables folder (Ctrl+Alt+O).")},
                    true);
}

void MainWindow::updateServingWarning()
{
    // Follows the stack and the serving mode.
    const QString text = acsel::studio::servingModelMismatch(*engine_, state_->request());
    servingWarning_->setText(tr("Warning: %1").arg(text));
    servingWarning_->setVisible(!text.isEmpty());
}

void MainWindow::updateEditorCaveat(const acsel::Config& c)
{
    // The card warns about the recommendation; the band editor may show another model (a
    // clicked point, an edit), so its caveat sits in the status line, short, whole in the tooltip.
    const QString model = modelName(c.model);
    const QString note =
        engine_ ? acsel::studio::rmqdExtrapolationNote(*engine_, model.toStdString()) : QString();
    editorCaveat_->setText(
        note.isEmpty() ? QString()
                       : tr("Band editor: RMQD extrapolated (%1 has no quality rows)").arg(model));
    editorCaveat_->setToolTip(note);
    editorCaveat_->setVisible(!note.isEmpty());
}

void MainWindow::updateStatus()
{
    const ScoredView& v = plot_->scored();
    // How long the search behind the card's answer took (its wall time).
    const std::optional<CardContent>& card = card_->content();
    const QString answer =
        card && card->stats ? tr(" · answer %1 ms").arg(answerMs(card->stats->seconds)) : QString();
    counts_->setText(tr("%1 configurations scored, %2 feasible, %3 on the frontier · re-score %4 "
                        "ms, replot %5 ms%6")
                         .arg(v.x.size())
                         .arg(v.feasibleCount)
                         .arg(v.frontier.size())
                         .arg(rescoreMs_, 0, 'f', 1)
                         .arg(plot_->customPlot()->replotTime(), 0, 'f', 1)
                         .arg(answer));
}

void MainWindow::updateFits()
{
    // The measured rows of the current stack and serving mode, against the engine's estimate.
    const auto measured = acsel::studio::stackFits(*engine_, state_->request());
    howSure_ = QString::fromStdString(acsel::studio::howSure(measured));
    fits_->setFits(
        measured.series, qualityMdape_,
        tr("Latency: %1. Quality: %2. %3")
            .arg(QString::fromStdString(engine_->calibrationSource(state_->request().stack)),
                 QString::fromStdString(engine_->surrogateSource()),
                 QString::fromStdString(measured.note)));
}
