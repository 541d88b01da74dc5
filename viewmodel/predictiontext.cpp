#include "viewmodel/predictiontext.h"

#include <QCoreApplication>
#include <QLocale>
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
    return QStringLiteral("TTFT %1 · TPOT %2 · %3 · RMQD %4 · %5")
        .arg(formatMs(p.ttftMs), formatMs(p.tpotMs), formatGiB(p.memoryGiB()), formatRmqd(p.rmqd),
             verdict);
}

QString configSummary(const Config& c, const QString& modelName)
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
    return s + QStringLiteral(": ") + QString::fromStdString(c.recipe.describe());
}

QString infeasibilityText(const BudgetReach& reach, double ttftBudgetMs, double tpotBudgetMs,
                          double memBudgetGiB, std::size_t points)
{
    const auto tr = [](const char* s) { return QCoreApplication::translate("acsel", s); };
    if (points == 0)
        return tr("No configuration of the models, formats and scopes ticked under Space runs on "
                  "this stack: tick more of them, or choose another stack.");
    const QString among = tr("Among the %1 plotted configurations (screened estimates):")
                              .arg(QLocale().toString(static_cast<qulonglong>(points)));
    if (reach.anyFeasible)
        return among + QLatin1Char(' ') +
               tr("some meet every budget, but none passes the full gate, which adds the "
                  "band-boundary conversions: loosen a budget a little.");
    struct Line {
        const char* name;
        const char* others;
        std::optional<double> value;
        double budget;
        QString (*format)(double);
    };
    const Line lines[] = {
        {"TTFT", "TPOT and memory", reach.ttftMs, ttftBudgetMs, formatMs},
        {"TPOT", "TTFT and memory", reach.tpotMs, tpotBudgetMs, formatMs},
        {"Memory", "TTFT and TPOT", reach.memoryGiB, memBudgetGiB, formatGiB},
    };
    QStringList out{among};
    for (const Line& l : lines)
        out << (l.value ? tr("%1 binds: within the %2 budgets the best reaches %3 (budget %4); "
                             "loosen it to that for an answer.")
                              .arg(QLatin1String(l.name), tr(l.others), l.format(*l.value),
                                   l.format(l.budget))
                        : tr("%1: nothing meets the %2 budgets, so loosening %1 alone admits "
                             "nothing.")
                              .arg(QLatin1String(l.name), tr(l.others)));
    return out.join(QLatin1Char('\n'));
}

} // namespace acsel::gui
