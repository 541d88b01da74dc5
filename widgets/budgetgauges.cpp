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
        QString text = known
                           ? tr("%1 %2 of %3")
                                 .arg(QLatin1String(r.name), r.format(*r.value), r.format(r.budget))
                           : tr("%1 budget %2").arg(QLatin1String(r.name), r.format(r.budget));
        if (known && share > 1)
            text += tr(" (over by %1 %)").arg(100 * (share - 1), 0, 'f', 1);
        // No "%p", "%v" or "%m" in it: QProgressBar shows the format as it is.
        bar->setFormat(text);
    }
}

QString BudgetGauges::text(Gauge g) const
{
    return bars_[static_cast<std::size_t>(g)]->format();
}

int BudgetGauges::permille(Gauge g) const
{
    return bars_[static_cast<std::size_t>(g)]->value();
}

} // namespace acsel::gui
