#include "widgets/predictiontext.h"

#include <QCoreApplication>
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
    return QString::number(rmqd, 'g', 3);
}

QString predictionSummary(const Prediction& p)
{
    const QString verdict = p.admitted ? QCoreApplication::translate("acsel", "admitted")
                                       : QCoreApplication::translate("acsel", "rejected: %1")
                                             .arg(QString::fromStdString(p.verdict));
    return QStringLiteral("TTFT %1 · TPOT %2 · %3 · RMQD %4 · %5")
        .arg(formatMs(p.ttftMs), formatMs(p.tpotMs), formatGiB(p.memoryGiB), formatRmqd(p.rmqd),
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

} // namespace acsel::gui
