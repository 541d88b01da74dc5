#include "filedialogs.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

namespace acsel::studio
{

namespace
{
const QString kKey = QStringLiteral("files/lastFolder");
}

QString dialogFolder(const QSettings& settings)
{
    const QString last = settings.value(kKey).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void rememberFolder(QSettings& settings, const QString& picked, bool isFolder)
{
    if (picked.isEmpty())
        return;
    const QFileInfo f(picked);
    settings.setValue(kKey, isFolder ? f.absoluteFilePath() : f.absolutePath());
}

QString withFilterSuffix(const QString& file, const QString& filter)
{
    if (file.isEmpty() || !QFileInfo(file).suffix().isEmpty())
        return file;
    // The filter's first pattern: "PNG (*.png)" or "Images (*.png *.jpg)".
    static const QRegularExpression pattern(QStringLiteral("\\*\\.(\\w+)"));
    const QRegularExpressionMatch m = pattern.match(filter);
    QString base = file;
    if (base.endsWith(QLatin1Char('.')))
        base.chop(1);
    return m.hasMatch() ? base + QLatin1Char('.') + m.captured(1) : file;
}

} // namespace acsel::studio
