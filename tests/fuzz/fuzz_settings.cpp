// libFuzzer target: the GUI's remembered settings (app/studio/studiosettings.cpp), read back
// from a hand-edited or corrupt INI file through QSettings. Settings are hints: any file must
// load without an exception, the request it yields (if any) must be one the request readers
// accept (whole numbers in range, finite positive budgets), the recent-session list must hold
// at most kMaxRecentSessions distinct non-empty paths, and saving what was loaded and loading it
// again must give the same values.
#include "app/studio/studiosettings.h"
#include "tests/fuzz/fuzzcheck.h"
#include "tests/fuzz/fuzzfiles.h"

#include <QSettings>
#include <cmath>

namespace
{

namespace fuzz = acsel::fuzz;
using acsel::studio::StudioSettings;

void checkRequest(const acsel::Request& r)
{
    fuzz::require(r.isl >= 1 && r.isl <= acsel::kMaxRequestTokens, "isl in range");
    fuzz::require(r.osl >= 1 && r.osl <= acsel::kMaxRequestTokens, "osl in range");
    fuzz::require(r.concurrency >= 1 && r.concurrency <= acsel::kMaxConcurrency,
                  "concurrency in range");
    for (double budget : {r.ttftBudgetMs, r.tpotBudgetMs, r.memBudgetGiB})
        fuzz::require(std::isfinite(budget) && budget > 0, "a finite, positive budget");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static fuzz::FileSet files("settings");
    files.write(fuzz::text(data, size), {"acsel-studio.ini"});
    const QString path = QString::fromStdString(files.path("acsel-studio.ini"));
    const QSettings read(path, QSettings::IniFormat);
    const StudioSettings v = acsel::studio::loadStudioSettings(read);
    if (v.request)
        checkRequest(*v.request);
    const QStringList recent = acsel::studio::recentSessions(read);
    fuzz::require(recent.size() <= acsel::studio::kMaxRecentSessions, "at most 8 recent files");
    for (qsizetype i = 0; i < recent.size(); ++i) {
        fuzz::require(!recent[i].isEmpty(), "no empty recent file");
        fuzz::require(recent.indexOf(recent[i]) == i, "no recent file twice");
    }

    {
        QSettings written(path + ".saved", QSettings::IniFormat);
        written.clear();
        acsel::studio::saveStudioSettings(written, v);
    } // written to disk when it goes
    const QSettings again(path + ".saved", QSettings::IniFormat);
    const StudioSettings w = acsel::studio::loadStudioSettings(again);
    fuzz::require(w.workspaceFile == v.workspaceFile && w.tablesDir == v.tablesDir,
                  "saved paths read back");
    fuzz::require(w.request.has_value() == v.request.has_value() &&
                      (!v.request || *w.request == *v.request),
                  "a saved request reads back the same");
    return 0;
}
