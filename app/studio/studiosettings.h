// What the window remembers between runs (QSettings): the last workspace and tables folder
// and the last request. Geometry and dock state are saved by MainWindow itself.
#pragma once

#include "core/model/config.h"

#include <QString>
#include <optional>

class QSettings;

namespace acsel::studio
{

struct StudioSettings {
    QString workspaceFile;
    QString tablesDir;
    std::optional<acsel::Request> request;
};

StudioSettings loadStudioSettings(const QSettings& s);
void saveStudioSettings(QSettings& s, const StudioSettings& v);

} // namespace acsel::studio
