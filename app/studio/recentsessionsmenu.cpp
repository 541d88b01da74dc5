#include "recentsessionsmenu.h"

#include "studiosettings.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace acsel::studio
{

RecentSessionsMenu::RecentSessionsMenu(QMenu* menu, std::function<void(const QString&)> open,
                                       std::function<void(const QString&)> status, QObject* parent)
    : QObject(parent), menu_(menu), open_(std::move(open)), status_(std::move(status))
{
    menu_->setObjectName(QStringLiteral("recentSessions"));
    connect(menu_, &QMenu::aboutToShow, this, &RecentSessionsMenu::rebuild);
    rebuild();
}

void RecentSessionsMenu::add(const QString& file)
{
    QSettings settings;
    addRecentSession(settings, file);
    rebuild();
}

void RecentSessionsMenu::rebuild()
{
    menu_->clear();
    const QStringList files = recentSessions(QSettings());
    int n = 0;
    for (const QString& f : files) {
        // "&1 name": keyboard accelerators 1-8; a '&' in the name is literal.
        QString name = QFileInfo(f).fileName();
        name.replace(QLatin1Char('&'), QStringLiteral("&&"));
        QAction* a = menu_->addAction(QStringLiteral("&%1 %2").arg(++n).arg(name));
        a->setData(f);
        a->setToolTip(f);
        a->setStatusTip(f);
        // Queued: choosing refills the menu, which deletes the action still emitting.
        connect(
            a, &QAction::triggered, this, [this, f] { choose(f); }, Qt::QueuedConnection);
    }
    if (files.isEmpty())
        menu_->addAction(tr("No recent sessions"))->setEnabled(false);
    menu_->addSeparator();
    QAction* clear = menu_->addAction(tr("Clear Menu"));
    connect(
        clear, &QAction::triggered, this,
        [this] {
            QSettings settings;
            clearRecentSessions(settings);
            rebuild();
        },
        Qt::QueuedConnection);
    clear->setEnabled(!files.isEmpty());
}

void RecentSessionsMenu::choose(const QString& file)
{
    if (!QFileInfo::exists(file)) {
        QSettings settings;
        removeRecentSession(settings, file);
        rebuild();
        status_(tr("%1 no longer exists: removed from Open Recent.").arg(file));
        return;
    }
    open_(file);
}

} // namespace acsel::studio
