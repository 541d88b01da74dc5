#include "studiosettings.h"

#include "core/model/tensorparallel.h"

#include <QFileInfo>
#include <QSettings>
#include <cmath>

namespace acsel::studio
{

StudioSettings loadStudioSettings(const QSettings& s)
{
    StudioSettings v;
    v.workspaceFile = s.value(QStringLiteral("workspace/file")).toString();
    v.tablesDir = s.value(QStringLiteral("workspace/tables")).toString();
    if (!s.contains(QStringLiteral("request/stack")))
        return v;
    // A value that does not read back as a number keeps the default: settings are hints.
    Request r;
    auto num = [&s](const char* key, double fallback) {
        bool ok = false;
        const double d = s.value(QLatin1String(key)).toDouble(&ok);
        return ok && d > 0 && std::isfinite(d) ? d : fallback;
    };
    // Whole numbers in the request readers' range (a double beyond int's is no int to cast to).
    auto whole = [&s](const char* key, int fallback, int max) {
        bool ok = false;
        const qlonglong n = s.value(QLatin1String(key)).toLongLong(&ok);
        return ok && n >= 1 && n <= max ? static_cast<int>(n) : fallback;
    };
    r.stack = s.value(QStringLiteral("request/stack")).toString().toStdString();
    r.isl = whole("request/isl", r.isl, kMaxRequestTokens);
    r.osl = whole("request/osl", r.osl, kMaxRequestTokens);
    r.concurrency = whole("request/concurrency", r.concurrency, kMaxConcurrency);
    r.gpus = whole("request/gpus", r.gpus, kMaxGpus);
    r.ttftBudgetMs = num("request/ttft_ms", r.ttftBudgetMs);
    r.tpotBudgetMs = num("request/tpot_ms", r.tpotBudgetMs);
    r.memBudgetGiB = num("request/memory_gib", r.memBudgetGiB);
    if (const auto m =
            parseServingMode(s.value(QStringLiteral("request/mode")).toString().toStdString()))
        r.mode = *m;
    v.request = r;
    bool ok = false;
    const double margin = s.value(QStringLiteral("request/margin_percent")).toDouble(&ok);
    if (ok && std::isfinite(margin) && BudgetMargin{margin}.valid())
        v.margin.percent = margin;
    // As acsel search --confidence takes it; anything else: off.
    const double confidence = s.value(QStringLiteral("request/confidence")).toDouble(&ok);
    if (ok && confidence >= 0.01 && confidence <= 0.99)
        v.confidence = confidence;
    return v;
}

void saveStudioSettings(QSettings& s, const StudioSettings& v)
{
    s.setValue(QStringLiteral("workspace/file"), v.workspaceFile);
    s.setValue(QStringLiteral("workspace/tables"), v.tablesDir);
    if (!v.request)
        return;
    const Request& r = *v.request;
    s.setValue(QStringLiteral("request/stack"), QString::fromStdString(r.stack));
    s.setValue(QStringLiteral("request/isl"), r.isl);
    s.setValue(QStringLiteral("request/osl"), r.osl);
    s.setValue(QStringLiteral("request/concurrency"), r.concurrency);
    s.setValue(QStringLiteral("request/gpus"), r.gpus);
    s.setValue(QStringLiteral("request/ttft_ms"), r.ttftBudgetMs);
    s.setValue(QStringLiteral("request/tpot_ms"), r.tpotBudgetMs);
    s.setValue(QStringLiteral("request/memory_gib"), r.memBudgetGiB);
    const std::string_view mode = toString(r.mode);
    s.setValue(QStringLiteral("request/mode"),
               QString::fromUtf8(mode.data(), static_cast<qsizetype>(mode.size())));
    s.setValue(QStringLiteral("request/margin_percent"), v.margin.percent);
    s.setValue(QStringLiteral("request/confidence"), v.confidence);
}

namespace
{
const QString kRecentKey = QStringLiteral("sessions/recent");

void storeRecent(QSettings& s, const QStringList& files)
{
    if (files.isEmpty())
        s.remove(kRecentKey);
    else
        s.setValue(kRecentKey, files);
}
} // namespace

QStringList recentSessions(const QSettings& s)
{
    // Settings are hints: empty entries and duplicates (a hand-edited file) are skipped.
    QStringList out;
    for (const QString& f : s.value(kRecentKey).toStringList())
        if (!f.isEmpty() && !out.contains(f) && out.size() < kMaxRecentSessions)
            out << f;
    return out;
}

void addRecentSession(QSettings& s, const QString& file)
{
    const QString path = QFileInfo(file).absoluteFilePath();
    QStringList files = recentSessions(s);
    files.removeAll(path);
    files.prepend(path);
    storeRecent(s, files.mid(0, kMaxRecentSessions));
}

void removeRecentSession(QSettings& s, const QString& file)
{
    QStringList files = recentSessions(s);
    files.removeAll(file);
    storeRecent(s, files);
}

void clearRecentSessions(QSettings& s)
{
    s.remove(kRecentKey);
}

} // namespace acsel::studio
