#include "guidewindow.h"

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace acsel::studio
{

GuideWindow::GuideWindow(const QString& page, QWidget* parent) : QWidget(parent, Qt::Window)
{
    setWindowTitle(tr("ACSeL user guide"));
    browser_ = new QTextBrowser(this);
    browser_->setOpenExternalLinks(true);
    auto button = [this](const QString& text, const char* name, Qt::ArrowType arrow) {
        auto* b = new QToolButton(this);
        b->setObjectName(QLatin1String(name));
        b->setText(text);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setArrowType(arrow);
        return b;
    };
    QToolButton* back = button(tr("Back"), "guideBack", Qt::LeftArrow);
    QToolButton* forward = button(tr("Forward"), "guideForward", Qt::RightArrow);
    QToolButton* home = button(tr("Contents"), "guideHome", Qt::NoArrow);
    back->setEnabled(false);
    forward->setEnabled(false);
    connect(back, &QToolButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward, &QToolButton::clicked, browser_, &QTextBrowser::forward);
    connect(home, &QToolButton::clicked, browser_, &QTextBrowser::home);
    connect(browser_, &QTextBrowser::backwardAvailable, back, &QWidget::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward, &QWidget::setEnabled);
    auto* bar = new QHBoxLayout;
    bar->addWidget(back);
    bar->addWidget(forward);
    bar->addWidget(home);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(browser_, 1);
    // Markdown headings carry no anchors in a QTextDocument: a section is found by its text.
    connect(browser_, &QTextBrowser::sourceChanged, this, &GuideWindow::scrollToSection);
    // From its file, not from its text: a relative link then resolves beside the page, and a
    // .md page is read as Markdown.
    const qsizetype hash = page.indexOf(QLatin1Char('#'));
    QUrl url = QUrl::fromLocalFile(QFileInfo(page.left(hash)).absoluteFilePath());
    if (hash >= 0)
        url.setFragment(page.mid(hash + 1));
    resize(820, 640);
    browser_->setSource(url, QTextDocument::MarkdownResource);
}

QString GuideWindow::anchorOf(const QString& heading)
{
    QString out;
    for (const QChar c : heading.trimmed().toLower())
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            out += c;
        else if (c == QLatin1Char(' '))
            out += QLatin1Char('-');
    return out;
}

void GuideWindow::scrollToSection(const QUrl& url)
{
    section_.clear();
    if (!url.hasFragment())
        return;
    const QString anchor = url.fragment();
    for (QTextBlock b = browser_->document()->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 || anchorOf(b.text()) != anchor)
            continue;
        section_ = b.text();
        // Once the page is laid out at the window's width (it may not be shown yet).
        QTimer::singleShot(0, this, [this, position = b.position()] {
            const QTextBlock block = browser_->document()->findBlock(position);
            const QRectF r = browser_->document()->documentLayout()->blockBoundingRect(block);
            browser_->verticalScrollBar()->setValue(static_cast<int>(r.top()));
        });
        return;
    }
}

} // namespace acsel::studio
