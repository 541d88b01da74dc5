// Help > User guide: the manual's Markdown pages in a browser that follows their relative
// links (GUIDE.md to DATA.md, a section of CLI.md) and goes Back, Forward and Home; web links
// open in the system browser. A link or topic with a section ("GUIDE.md#5-reading-a-
// recommendation") shows that section's heading at the top, found by its GitHub-style anchor.
#pragma once

#include <QWidget>

class QTextBrowser;
class QToolButton;
class QUrl;

namespace acsel::studio
{

class GuideWindow : public QWidget
{
    Q_OBJECT
public:
    // page: the guide's first page, a Markdown file beside the others, with an optional
    // "#anchor" of one of its headings.
    explicit GuideWindow(const QString& page, QWidget* parent = nullptr);
    QTextBrowser* browser() const { return browser_; }
    // The anchor GitHub gives a heading: lower case, spaces to '-', punctuation dropped
    // ("4.1 What is loaded: acsel info" -> "41-what-is-loaded-acsel-info").
    static QString anchorOf(const QString& heading);
    // The heading shown at the top for the current page's anchor; empty when it has none or
    // no heading has that anchor.
    QString sectionShown() const { return section_; }

private:
    void scrollToSection(const QUrl& url);

    QTextBrowser* browser_ = nullptr;
    QString section_;
};

} // namespace acsel::studio
