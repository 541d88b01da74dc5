// Where the window's file dialogs start and what a typed name becomes: the folder of the last
// file or folder the user picked (kept in QSettings, so the next start has it too), else the
// home folder, never the program's own datasets; a name typed without a suffix takes the
// chosen filter's ("plot" with "PNG (*.png)" is plot.png).
#pragma once

#include <QString>

class QSettings;

namespace acsel::studio
{

QString dialogFolder(const QSettings& settings);
// picked: a file (its folder is kept) or, with isFolder, a folder.
void rememberFolder(QSettings& settings, const QString& picked, bool isFolder = false);
QString withFilterSuffix(const QString& file, const QString& filter);

} // namespace acsel::studio
