#include "widgets/budgetgauges.h"

#include "viewmodel/predictiontext.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

namespace
{
constexpr int kScale = 1000;
}

BudgetGauges::BudgetGauges(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    const char* names[GaugeCount] = {"ttftGauge", "tpotGauge", "memoryGauge"};
    for (int g = 0; g < GaugeCount; ++g) {
        auto* bar = new QProgressBar(this);
        bar->setObjectName(QLatin1String(names[g]));
        bar->setRange(0, kScale);
        bar->setTextVisible(true);
        bar->setAlignment(Qt::AlignCenter);
        bar->setMaximumHeight(bar->fontMetrics().height() + 6); // one text line: fits 720 px
        layout->addWidget(bar, 1);
        bars_[static_cast<std::size_t>(g)] = bar;
    }
    setToolTip(tr("The recommendation against each budget (the gate's memory budget is capped at "
                  "the device's memory), whatever the plot's x axis"));
    setValues({}, std::nullopt);
}

void BudgetGauges::setValues(const Budgets& b, const std::optional<PredictionView>& p)
{
    struct Row {
        const char* name;
        double budget;
        std::optional<double> value;
        QString (*format)(double);
    };
    const Row rows[GaugeCount] = {
        {"TTFT", b.ttftMs, p ? std::optional(p->ttftMs) : std::nullopt, formatMs},
        {"TPOT", b.tpotMs, p ? std::optional(p->tpotMs) : std::nullopt, formatMs},
        {"Memory", b.memoryGiB, p ? std::optional(p->memoryGiB()) : std::nullopt, formatGiB},
    };
    for (int g = 0; g < GaugeCount; ++g) {
        const Row& r = rows[g];
        QProgressBar* bar = bars_[static_cast<std::size_t>(g)];
        const bool known = r.value && std::isfinite(*r.value) && r.budget > 0;
        const double share = known ? *r.value / r.budget : 0;
        bar->setValue(static_cast<int>(std::lround(std::clamp(share, 0.0, 1.0) * kScale)));
        const QString name = QLatin1String(r.name);
        QStringList& texts = texts_[static_cast<std::size_t>(g)];
        if (!known) {
            texts = {tr("%1 budget %2").arg(name, r.format(r.budget)),
                     tr("%1 <= %2").arg(name, r.format(r.budget)), r.format(r.budget)};
        } else if (share > 1) {
            const QString over = QString::number(100 * (share - 1), 'f', 1);
            texts = {tr("%1 %2 of %3 (over by %4 %)")
                         .arg(name, r.format(*r.value), r.format(r.budget), over),
                     tr("%1 %2, %3 % over").arg(name, r.format(*r.value), over),
                     tr("%1 +%2 %").arg(name, over), tr("+%1 %").arg(over)};
        } else {
            texts = {tr("%1 %2 of %3").arg(name, r.format(*r.value), r.format(r.budget)),
                     tr("%1 %2").arg(name, r.format(*r.value)), r.format(*r.value)};
        }
        bar->setToolTip(texts.front());
    }
    fitTexts();
}

void BudgetGauges::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fitTexts();
}

void BudgetGauges::fitTexts()
{
    for (int g = 0; g < GaugeCount; ++g) {
        QProgressBar* bar = bars_[static_cast<std::size_t>(g)];
        const QStringList& texts = texts_[static_cast<std::size_t>(g)];
        const int room = bar->width() - 2 * bar->fontMetrics().averageCharWidth();
        QString shown = texts.back();
        for (const QString& t : texts)
            if (bar->fontMetrics().horizontalAdvance(t) <= room) {
                shown = t;
                break;
            }
        // No "%p", "%v" or "%m" in it: QProgressBar shows the format as it is.
        bar->setFormat(shown);
    }
}

QString BudgetGauges::text(Gauge g) const
{
    return texts_[static_cast<std::size_t>(g)].front();
}

QString BudgetGauges::shownText(Gauge g) const
{
    return bars_[static_cast<std::size_t>(g)]->format();
}

int BudgetGauges::permille(Gauge g) const
{
    return bars_[static_cast<std::size_t>(g)]->value();
}

} // namespace acsel::gui
