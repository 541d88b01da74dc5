#include "viewmodel/predictiontext.h"

#include "core/model/units.h"
#include "core/search/gate.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString formatMs(double ms)
{
    // Fixed point, never an exponent; a tenth of a millisecond up to a second, so a 179.6 ms
    // budget does not read as the 180 ms a rejected configuration exceeds it by.
    if (!std::isfinite(ms))
        return QStringLiteral("- ms");
    const double a = std::abs(ms);
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', a >= 1000 ? 0 : a >= 10 ? 1 : 2);
}

QString formatInterval(const acsel::LatencyInterval& iv)
{
    return formatMs(iv.lowMs).chopped(3) + QStringLiteral("\u2013") +
           formatMs(iv.highMs).chopped(3);
}

QString formatGiB(double gib)
{
    return QStringLiteral("%1 GiB").arg(gib, 0, 'f', gib >= 10 ? 1 : 2);
}

QString formatRmqd(double rmqd)
{
    // Three significant digits in fixed point (0.0352, 0.000046), never an exponent.
    if (!std::isfinite(rmqd))
        return QStringLiteral("-");
    if (rmqd == 0)
        return QStringLiteral("0");
    const int decimals =
        std::clamp(2 - static_cast<int>(std::floor(std::log10(std::abs(rmqd)))), 0, 8);
    return QString::number(rmqd, 'f', decimals);
}

QString predictionSummary(const PredictionView& p)
{
    const QString verdict = p.admitted ? QCoreApplication::translate("acsel", "admitted")
                                       : QCoreApplication::translate("acsel", "rejected: %1")
                                             .arg(QString::fromStdString(p.verdict));
    // With the FMC file's interval, as the card shows it under the value.
    const auto latency = [&p](double ms, const std::optional<LatencyInterval>& iv) {
        return iv ? QStringLiteral("%1 (%2 %: %3)")
                        .arg(formatMs(ms), QString::number(100 * p.intervalLevel, 'f', 0),
                             formatInterval(*iv))
                  : formatMs(ms);
    };
    return QStringLiteral("TTFT %1 · TPOT %2 · %3 · RMQD %4 · %5")
        .arg(latency(p.ttftMs, p.ttftInterval), latency(p.tpotMs, p.tpotInterval),
             formatGiB(p.memoryGiB()), formatRmqd(p.rmqd), verdict);
}

QString configSummary(const Config& c, const QString& modelName, bool moe)
{
    // The calibration algorithm is named as such: a bare "max" read as a value.
    QString s = QStringLiteral("%1, batch %2, calibration %3")
                    .arg(modelName)
                    .arg(c.batch)
                    .arg(fromView(toString(c.algorithm)));
    if (c.lmHeadQuantized)
        s += QStringLiteral(", lm_head quantized");
    if (c.kv == KvFormat::Fp8)
        s += QStringLiteral(", fp8 KV");
    if (c.tp > 1)
        s += QStringLiteral(", tensor parallel on %1 GPUs").arg(c.tp);
    return s + QStringLiteral(": ") + QString::fromStdString(c.recipe.describe(moe));
}

QString parameterText(const ModelArch& arch)
{
    const auto billions = [](std::int64_t n) {
        return QString::number(static_cast<double>(n) / 1e9, 'f', 2);
    };
    if (!arch.isMoe())
        return QCoreApplication::translate("acsel", "%1 B parameters")
            .arg(billions(arch.paramCount()));
    return QCoreApplication::translate("acsel", "%1 B active / %2 B total parameters")
        .arg(billions(arch.activeParamCount()), billions(arch.paramCount()));
}

QString emptySpaceText()
{
    return QCoreApplication::translate(
        "acsel", "No configuration of the models, formats and scopes ticked under Space runs on "
                 "this stack: tick more of them, or choose another stack.");
}

QString marginText(const BudgetMargin& margin)
{
    if (margin.percent == 0)
        return {};
    return QCoreApplication::translate("acsel", "margin %1 % inside every budget")
        .arg(QString::number(margin.percent));
}

QString gateText(const BudgetMargin& margin, double confidence)
{
    const QString m = marginText(margin);
    if (confidence == 0.5)
        return m;
    const QString c = QCoreApplication::translate(
                          "acsel", "TTFT and TPOT met with p >= %1 (upper end of the FMC interval)")
                          .arg(QString::number(confidence));
    return m.isEmpty() ? c : m + QStringLiteral("; ") + c;
}

QString nearestMissText(const NearestMiss& miss, const Request& q, const Workspace& ws,
                        const BudgetMargin& margin)
{
    const auto tr = [](const char* s) { return QCoreApplication::translate("acsel", s); };
    const auto stack = ws.findStack(q.stack);
    const Platform* gpu =
        stack ? &ws.platformOf(ws.stacks[static_cast<std::size_t>(*stack)]) : nullptr;
    const double capacity = gpu ? gpu->memCapacityBytes : 0;
    const Request gated = gpu ? margin.apply(q, *gpu) : q; // what the gate compared
    const double keep = 1 - margin.percent / 100;
    const QString withMargin =
        margin.percent > 0 ? tr(" (with the %1 % margin)").arg(QString::number(margin.percent))
                           : QString();
    struct Names {
        const char* name;
        const char* others;
    };
    const auto names = [](BudgetKind b) -> Names {
        switch (b) {
        case BudgetKind::Ttft:
            return {"TTFT", "TPOT and memory"};
        case BudgetKind::Tpot:
            return {"TPOT", "TTFT and memory"};
        case BudgetKind::Memory:
            break;
        }
        return {"Memory", "TTFT and TPOT"};
    };
    const auto shown = [](BudgetKind b, double v) {
        return b == BudgetKind::Memory ? formatGiB(v / kGiB) : formatMs(v);
    };
    QStringList out;
    for (const BudgetMiss& m : miss.budgets) {
        const Names n = names(m.budget);
        if (!m.lowest) {
            out << (m.budget == BudgetKind::Memory
                        ? tr("Memory: loosening it alone admits nothing: no configuration meets "
                             "the TTFT and TPOT budgets even with %1 (%2).")
                              .arg(margin.percent > 0
                                       ? tr("%1 % of the device")
                                             .arg(QString::number(100 - margin.percent))
                                       : tr("the whole device"),
                                   formatGiB(capacity / kGiB * keep))
                        : tr("%1: loosening it alone admits nothing: no configuration meets the "
                             "%2 budgets at any %1.")
                              .arg(QLatin1String(n.name), tr(n.others)));
            continue;
        }
        // Within the budget already: the searcher chosen missed what Exact finds.
        const double budget = m.budget == BudgetKind::Memory ? memoryBudgetBytes(gated, capacity)
                                                             : budgetOf(gated, m.budget);
        if (*m.lowest <= budget)
            return tr("Exact finds a configuration within these budgets: choose Exact under "
                      "Search.");
        QString line = tr("%1 binds: within the %2 budgets the lowest is %3; at a %1 budget of "
                          "%4 %5%6 the answer is ")
                           .arg(QLatin1String(n.name), tr(n.others), shown(m.budget, *m.lowest),
                                QString::number(m.suggested, 'f', 1),
                                QLatin1String(unitOf(m.budget).data()), withMargin);
        if (m.answer.config) {
            const Config& c = *m.answer.config;
            const Prediction& p = m.answer.gate.prediction;
            const ModelArch& arch = ws.models[static_cast<std::size_t>(c.model)];
            line += configSummary(c, QString::fromStdString(arch.name), arch.isMoe()) +
                    QStringLiteral(" (TTFT %1 · TPOT %2 · %3 · RMQD %4).")
                        .arg(formatMs(p.ttftMs), formatMs(p.tpotMs), formatGiB(p.memoryGiB()),
                             formatRmqd(p.rmqd));
        } else {
            line += tr("none (the exact search found none there).");
        }
        out << line;
    }
    if (!miss.anyBudgetAlone())
        out << tr("No single budget binds: loosen two or more, or tick more under Space.");
    return out.join(QLatin1Char('\n'));
}

} // namespace acsel::gui
