// Help > User guide: the manual's Markdown pages in a browser that follows their relative
// links (GUIDE.md to DATA.md, a section of CLI.md) and goes Back, Forward and Home; web links
// open in the system browser.
#pragma once

#include <QWidget>

class QTextBrowser;
class QToolButton;

namespace acsel::studio
{

class GuideWindow : public QWidget
{
    Q_OBJECT
public:
    // page: the guide's first page, a Markdown file beside the others.
    explicit GuideWindow(const QString& page, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }

private:
    QTextBrowser* browser_ = nullptr;
};

} // namespace acsel::studio
