// What the window remembers between runs (QSettings): the last workspace and tables folder,
// the last request and the recently opened or saved session files. Geometry and dock state are
// saved by MainWindow itself.
#pragma once

#include "core/model/config.h"
#include "core/search/budgetmargin.h"

#include <QString>
#include <QStringList>
#include <optional>

class QSettings;

namespace acsel::studio
{

struct StudioSettings {
    QString workspaceFile;
    QString tablesDir;
    std::optional<acsel::Request> request;
    acsel::BudgetMargin margin; // the Request panel's Margin %
    double confidence = 0.5;    // its Confidence (0.5, the median line: off)
};

StudioSettings loadStudioSettings(const QSettings& s);
void saveStudioSettings(QSettings& s, const StudioSettings& v);

// File > Open Recent: absolute paths, most recent first, at most kMaxRecentSessions, no
// duplicates.
inline constexpr qsizetype kMaxRecentSessions = 8;
QStringList recentSessions(const QSettings& s);
// Moves file (made absolute) to the front, dropping the oldest beyond the cap.
void addRecentSession(QSettings& s, const QString& file);
void removeRecentSession(QSettings& s, const QString& file);
void clearRecentSessions(QSettings& s);

} // namespace acsel::studio
