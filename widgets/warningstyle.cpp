#include "widgets/warningstyle.h"

#include <QLabel>

namespace acsel::gui
{

void styleAsWarning(QLabel& label)
{
    label.setAutoFillBackground(true);
    QPalette pal = label.palette();
    pal.setColor(QPalette::Window, QColor(0xff, 0xd5, 0x80));
    pal.setColor(QPalette::WindowText, Qt::black);
    label.setPalette(pal);
}

} // namespace acsel::gui
