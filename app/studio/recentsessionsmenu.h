// File > Open Recent: the session files last opened or saved (kept in the settings,
// studiosettings.h), most recent first, then "Clear Menu". A file that no longer exists when
// chosen is dropped from the list and the status bar says so.
#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QMenu;

namespace acsel::studio
{

class RecentSessionsMenu : public QObject
{
    Q_OBJECT
public:
    // open: opens a session file (its errors are the caller's); status: shows a status-bar
    // message. The menu is filled here and refilled each time it is about to show (another
    // window may have changed the list).
    RecentSessionsMenu(QMenu* menu, std::function<void(const QString&)> open,
                       std::function<void(const QString&)> status, QObject* parent);
    // Records a session file just opened or saved and refills the menu.
    void add(const QString& file);
    void rebuild();
    QMenu* menu() const { return menu_; }

private:
    void choose(const QString& file);

    QMenu* menu_;
    std::function<void(const QString&)> open_;
    std::function<void(const QString&)> status_;
};

} // namespace acsel::studio
