#include "guidewindow.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QTextBrowser>
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
    // From its file, not from its text: a relative link then resolves beside the page, and a
    // .md page is read as Markdown.
    browser_->setSource(QUrl::fromLocalFile(QFileInfo(page).absoluteFilePath()),
                        QTextDocument::MarkdownResource);
    resize(820, 640);
}

} // namespace acsel::studio
