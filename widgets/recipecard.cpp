#include "widgets/recipecard.h"

#include "viewmodel/predictiontext.h"
#include "widgets/glossary.h"
#include "widgets/warningstyle.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace acsel::gui
{

namespace
{
QTableWidget* makeTable(QWidget* parent, const QStringList& headers)
{
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionMode(QAbstractItemView::NoSelection);
    // Every column in view in a laptop's card, never a horizontal scroll bar: the numbers
    // (headers on two lines) take their contents' width, the names the rest, elided (whole in
    // their tooltips).
    t->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    t->setTextElideMode(Qt::ElideRight);
    t->setWordWrap(false);
    QHeaderView* h = t->horizontalHeader();
    h->setStretchLastSection(false);
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(0, QHeaderView::Stretch);
    return t;
}

void setRow(QTableWidget* t, int row, const QStringList& cells)
{
    for (int c = 0; c < cells.size(); ++c) {
        auto* item = new QTableWidgetItem(cells[c]);
        if (c > 0)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        else
            item->setToolTip(cells[c]); // the name column elides
        t->setItem(row, c, item);
    }
}

// Breakdowns of two predictions side by side, in first-seen order of names.
void fillBreakdown(QTableWidget* t, const Breakdown& a, const Breakdown& b)
{
    std::vector<std::string> names;
    for (const Breakdown* bd : {&a, &b})
        for (const auto& [name, v] : *bd)
            if (std::find(names.begin(), names.end(), name) == names.end())
                names.push_back(name);
    auto value = [](const Breakdown& bd, const std::string& n) {
        for (const auto& [name, v] : bd)
            if (name == n)
                return QString::number(v, 'f', 3);
        return QStringLiteral("-");
    };
    t->setRowCount(static_cast<int>(names.size()));
    for (std::size_t i = 0; i < names.size(); ++i)
        setRow(t, static_cast<int>(i),
               {QString::fromStdString(names[i]), value(a, names[i]), value(b, names[i])});
}
} // namespace

RecipeCard::RecipeCard(QWidget* parent) : QWidget(parent)
{
    title_ = new QLabel(this);
    QFont f = title_->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title_->setFont(f);
    parameters_ = new QLabel(this);
    parameters_->setObjectName(QStringLiteral("cardParameters"));
    recipe_ = new QLabel(this);
    uniform_ = new QLabel(this);
    verdict_ = new QLabel(this);
    verdict_->setObjectName(QStringLiteral("cardVerdict")); // or a message's detail
    stats_ = new QLabel(this);
    stats_->setObjectName(QStringLiteral("cardStats"));
    rmqdCaveat_ = new QLabel(this);
    rmqdCaveat_->setObjectName(QStringLiteral("rmqdCaveat"));
    howSure_ = new QLabel(this);
    howSure_->setObjectName(QStringLiteral("cardHowSure"));
    margin_ = new QLabel(this);
    margin_->setObjectName(QStringLiteral("cardMargin"));
    margin_->setToolTip(tr("The gate admitted this answer at the budgets less this share "
                           "(Margin % in the Request panel)"));
    margin_->hide();
    engineMemory_ = new QLabel(this);
    engineMemory_->setObjectName(QStringLiteral("cardEngineMemory"));
    engineMemory_->setToolTip(
        tr("What the serving engine takes per GPU when acsel launch (or Export) starts it: the "
           "memory flag of its command sizes the engine's KV pool, so the engine takes more than "
           "the memory estimate above when the pool holds more than the requests need"));
    engineMemory_->hide();
    verdict_->setToolTip(whatIs(Term::Gate));
    stats_->setToolTip(whatIs(Term::Screened) + QStringLiteral("\n\n") + whatIs(Term::FracMix) +
                       QStringLiteral("\n\n") + whatIs(Term::Gate));
    recipe_->setToolTip(whatIs(Term::Scope) + QStringLiteral("\n\n") +
                        whatIs(Term::CalibrationAlgorithm));
    howSure_->setToolTip(tr("The typical error (median absolute percentage error) of the "
                            "latency estimate on the measured rows of this stack: the Surrogate "
                            "fit tab plots them. With an FMC file that has intervals (acsel "
                            "calibrate), each latency's predictive interval from the spread of "
                            "its profiles' held-out errors at the request's concurrency"));
    for (QLabel* l :
         {parameters_, recipe_, uniform_, verdict_, stats_, rmqdCaveat_, howSure_, engineMemory_}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    styleAsWarning(*rmqdCaveat_); // as the window's serving-model warning
    rmqdCaveat_->setMargin(4);
    rmqdCaveat_->hide();
    metrics_ = makeTable(this, {tr("Metric"), tr("This"), tr("Best\nuniform"), tr("Delta")});
    ops_ =
        makeTable(this, {tr("Operator class (ms)"), tr("Prefill\n(TTFT)"), tr("Decode\n(TPOT)")});
    memory_ = makeTable(this, {tr("Memory"), tr("GiB"), tr("Uniform\nGiB")});
    pin_ = new QPushButton(tr("Pin"), this);
    pin_->setToolTip(tr("Add to the comparison table"));
    pinUniform_ = new QPushButton(tr("Pin best uniform"), this);
    pinUniform_->setToolTip(tr("Add the best uniform configuration to the comparison table"));
    export_ = new QPushButton(tr("Export..."), this);
    export_->setToolTip(tr("Write the recipe as a ModelOpt recipe"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(pin_);
    buttons->addWidget(pinUniform_);
    buttons->addWidget(export_);
    buttons->addStretch(1);
    staleNote_ = new QLabel(tr("Updating: this answer is for the previous request."), this);
    staleNote_->setObjectName(QStringLiteral("staleNote"));
    styleAsWarning(*staleNote_);
    staleNote_->setMargin(4);
    staleNote_->hide();
    body_ = new QWidget(this);
    auto* body = new QVBoxLayout(body_);
    body->setContentsMargins(0, 0, 0, 0);
    body->addWidget(title_);
    body->addWidget(parameters_);
    body->addWidget(recipe_);
    body->addWidget(verdict_);
    body->addWidget(margin_);
    body->addWidget(metrics_);
    body->addWidget(engineMemory_);
    body->addWidget(howSure_);
    body->addWidget(rmqdCaveat_);
    body->addWidget(uniform_);
    body->addWidget(ops_, 1);
    body->addWidget(memory_, 1);
    body->addWidget(stats_);
    // The actions first: on a laptop the card's tables run below the fold.
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(staleNote_);
    layout->addWidget(body_, 1);
    connect(pin_, &QPushButton::clicked, this, &RecipeCard::pinRequested);
    connect(pinUniform_, &QPushButton::clicked, this, &RecipeCard::pinUniformRequested);
    connect(export_, &QPushButton::clicked, this, &RecipeCard::exportRequested);
    showMessage(tr("No recommendation yet."));
}

void RecipeCard::setStale(bool stale)
{
    stale = stale && content_.has_value();
    stale_ = stale;
    staleNote_->setVisible(stale);
    body_->setEnabled(!stale); // greyed
    pin_->setEnabled(content_ && !stale);
    pinUniform_->setEnabled(content_ && content_->uniform && content_->uniformPrediction && !stale);
    export_->setEnabled(content_ && !stale);
}

void RecipeCard::showMessage(const QString& message, const QString& detail)
{
    content_.reset();
    setStale(false);
    title_->setText(message);
    for (QLabel* l : {parameters_, recipe_, uniform_, verdict_, stats_, rmqdCaveat_, howSure_})
        l->clear();
    verdict_->setText(detail);
    rmqdCaveat_->hide();
    howSure_->hide();
    margin_->hide();
    engineMemory_->hide();
    for (QTableWidget* t : {metrics_, ops_, memory_})
        t->setRowCount(0);
    pin_->setEnabled(false);
    export_->setEnabled(false);
}

void RecipeCard::setContent(const CardContent& c)
{
    content_ = c;
    const PredictionView& p = c.prediction;
    title_->setText(c.title);
    parameters_->setText(c.parameters);
    recipe_->setText(configSummary(c.config, c.modelName, c.moe));
    verdict_->setText(p.admitted ? tr("Gate: admitted")
                                 : tr("Gate: rejected, %1").arg(QString::fromStdString(p.verdict)));
    const QString level = QString::number(100 * p.intervalLevel, 'f', 0);
    howSure_->setText(p.ttftInterval || p.tpotInterval
                          ? tr("How sure: under TTFT and TPOT, the interval holding %1 % of "
                               "measured latencies (FMC file, at this concurrency); %2")
                                .arg(level, c.howSure)
                          : tr("How sure: no interval: %1").arg(c.howSure));
    howSure_->setVisible(!c.howSure.isEmpty());
    margin_->setText(c.margin);
    margin_->setVisible(!c.margin.isEmpty());
    engineMemory_->setText(
        tr("Engine at launch, per GPU: %1").arg(QString::fromStdString(p.engineMemory)));
    engineMemory_->setVisible(!p.engineMemory.empty());
    rmqdCaveat_->setText(c.rmqdCaveat);
    rmqdCaveat_->setVisible(!c.rmqdCaveat.isEmpty());
    const bool hasUniform = c.uniform && c.uniformPrediction;
    const PredictionView u = hasUniform ? *c.uniformPrediction : PredictionView{};
    uniform_->setText(
        hasUniform ? tr("Best uniform: %1").arg(configSummary(*c.uniform, c.modelName, c.moe))
                   : tr("No uniform configuration meets this request."));
    struct Row {
        QString name;
        double a, b;
        QString (*fmt)(double);
        std::optional<LatencyInterval> ia, ib; // the FMC file's intervals of a and b
    };
    const Row rows[] = {{tr("TTFT"), p.ttftMs, u.ttftMs, &formatMs, p.ttftInterval, u.ttftInterval},
                        {tr("TPOT"), p.tpotMs, u.tpotMs, &formatMs, p.tpotInterval, u.tpotInterval},
                        {tr("Memory"), p.memoryGiB(), u.memoryGiB(), &formatGiB, {}, {}},
                        {tr("RMQD"), p.rmqd, u.rmqd, &formatRmqd, {}, {}}};
    // A latency with an interval: the interval on a second line under its value.
    const auto withInterval = [](const QString& value, const std::optional<LatencyInterval>& iv) {
        return iv ? value + QLatin1Char('\n') + formatInterval(*iv) : value;
    };
    metrics_->setRowCount(4);
    const QString rowTips[] = {whatIs(Term::Fmc), whatIs(Term::Fmc), QString(), whatIs(Term::Rmqd)};
    for (int i = 0; i < 4; ++i) {
        const Row& r = rows[i];
        QString delta = QStringLiteral("-");
        if (hasUniform) {
            // The share of the best uniform's value (its value is the column beside): short
            // enough for the card's width on a laptop, and never an exponent.
            const double d = r.a - r.b;
            const QString sign = d > 0 ? QStringLiteral("+") : QString();
            delta = r.b != 0 ? sign + QStringLiteral("%1%").arg(100.0 * d / r.b, 0, 'f', 1)
                             : sign + r.fmt(d);
        }
        const bool interval = r.ia || (hasUniform && r.ib);
        setRow(metrics_, i,
               {interval ? tr("%1\n(%2 %)").arg(r.name, level) : r.name,
                withInterval(r.fmt(r.a), r.ia),
                hasUniform ? withInterval(r.fmt(r.b), r.ib) : QStringLiteral("-"), delta});
        metrics_->item(i, 0)->setToolTip(
            interval ? tr("%1\n\nUnder the value: the interval holding %2 % of such "
                          "configurations' measured latency, from the FMC file's spread at this "
                          "concurrency")
                           .arg(rowTips[i], level)
                     : rowTips[i]);
    }
    metrics_->resizeRowsToContents();
    // As tall as its rows (two lines with an interval): the metrics never scroll.
    int height = metrics_->horizontalHeader()->sizeHint().height() + 2 * metrics_->frameWidth();
    for (int i = 0; i < metrics_->rowCount(); ++i)
        height += metrics_->rowHeight(i);
    metrics_->setFixedHeight(height);
    fillBreakdown(ops_, p.ttftBreakdownMs, p.tpotBreakdownMs);
    fillBreakdown(memory_, p.memoryBreakdownGiB, u.memoryBreakdownGiB);
    if (c.stats && c.stats->indexMembers > 0)
        stats_->setText(tr("%1: answered from the budget index (%2 of %3 candidates kept, "
                           "each fully gated when it was built), %4 s")
                            .arg(QString::fromLatin1(toDisplayString(c.stats->algorithm)))
                            .arg(c.stats->indexMembers)
                            .arg(c.stats->candidates)
                            .arg(c.stats->seconds, 0, 'f', 3));
    else if (c.stats)
        stats_->setText(tr("%1: %2 candidates, %3 screened, %4 full gate evaluations, %5 s")
                            .arg(QString::fromLatin1(toDisplayString(c.stats->algorithm)))
                            .arg(c.stats->candidates)
                            .arg(c.stats->screened)
                            .arg(c.stats->gated)
                            .arg(c.stats->seconds, 0, 'f', 3));
    else
        stats_->clear();
    setStale(false);
}

} // namespace acsel::gui
