// Help > User guide: a link from GUIDE.md to another page (DATA.md) shows that page, not a
// blank one, and Back returns to the guide; a link to a section lands on that page, its
// heading at the top; every "What is ...?" topic of the Help menu opens at its section.
#include "app/studio/guidetopics.h"
#include "app/studio/guidewindow.h"
#include "testmain.h"

#include <QApplication>
#include <QFileInfo>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolButton>

using acsel::studio::GuideWindow;

class TestStudioGuide : public QObject
{
    Q_OBJECT
private slots:
    void linksOpenThePageAndBackReturns()
    {
        const QString docs =
            QFileInfo(QStringLiteral(ACSEL_DATASETS "/../docs")).canonicalFilePath();
        GuideWindow w(docs + QStringLiteral("/GUIDE.md"));
        w.show();
        QTextBrowser* b = w.browser();
        auto* back = w.findChild<QToolButton*>(QStringLiteral("guideBack"));
        QVERIFY(back && !back->isEnabled());
        QVERIFY(b->toPlainText().startsWith(QStringLiteral("ACSeL Studio user guide")));
        // What a click on the link does: a URL relative to the page.
        const QString guide = b->toPlainText();
        b->setSource(QUrl(QStringLiteral("DATA.md")));
        QVERIFY2(b->toPlainText().startsWith(QStringLiteral("Bring your own data")),
                 qPrintable(b->toPlainText().left(200))); // it was blank
        QVERIFY(back->isEnabled());
        back->click();
        QCOMPARE(b->toPlainText(), guide);
        QVERIFY(!back->isEnabled());
        // A section of another page: that page.
        b->setSource(QUrl(QStringLiteral("CLI.md#tested-examples")));
        QVERIFY2(b->toPlainText().startsWith(QStringLiteral("acsel command reference")),
                 qPrintable(b->toPlainText().left(200)));
        QCOMPARE(w.sectionShown(), QStringLiteral("Tested examples"));
        QTRY_VERIFY(headingAtTop(w));
    }

    void anchorsAreGitHubs()
    {
        // As GitHub (and the docs' own links) write them.
        QCOMPARE(GuideWindow::anchorOf(QStringLiteral("5. Reading a recommendation")),
                 QStringLiteral("5-reading-a-recommendation"));
        QCOMPARE(GuideWindow::anchorOf(QStringLiteral("4.1 What is loaded: acsel info")),
                 QStringLiteral("41-what-is-loaded-acsel-info"));
        QCOMPARE(GuideWindow::anchorOf(QStringLiteral("4.6 Export: acsel search --json and "
                                                      "acsel export")),
                 QStringLiteral("46-export-acsel-search---json-and-acsel-export"));
    }

    void everyTopicOpensAtItsSection()
    {
        const QString docs =
            QFileInfo(QStringLiteral(ACSEL_DATASETS "/../docs")).canonicalFilePath();
        for (const acsel::studio::GuideTopic& t : acsel::studio::termTopics()) {
            GuideWindow w(docs + QLatin1Char('/') + t.page);
            w.show();
            QVERIFY2(!w.sectionShown().isEmpty(), qPrintable(t.page));
            QCOMPARE(GuideWindow::anchorOf(w.sectionShown()), t.page.section(QLatin1Char('#'), 1));
            QTRY_VERIFY2(headingAtTop(w), qPrintable(t.page));
        }
        // A part of the window names its topic; its children inherit it.
        QObject dock;
        dock.setProperty(acsel::studio::kGuideTopicProperty, QStringLiteral("GUI.md#using-it"));
        QObject child(&dock);
        QCOMPARE(acsel::studio::topicOf(&child), QStringLiteral("GUI.md#using-it"));
        QCOMPARE(acsel::studio::topicOf(nullptr), QStringLiteral("GUIDE.md"));
    }

private:
    // The shown section's heading is the first line in view, or in view with the page
    // scrolled to its end (a section near the end cannot come to the top).
    static bool headingAtTop(const GuideWindow& w)
    {
        const QTextBrowser* b = w.browser();
        if (b->cursorForPosition(QPoint(4, 4)).block().text() == w.sectionShown())
            return true;
        const QScrollBar* bar = b->verticalScrollBar();
        for (QTextBlock k = b->document()->begin(); k.isValid(); k = k.next())
            if (k.text() == w.sectionShown() && k.blockFormat().headingLevel() > 0)
                return bar->value() == bar->maximum() && bar->maximum() > 0 &&
                       b->cursorRect(QTextCursor(k)).top() >= 0;
        return false;
    }
};

ACSEL_TEST_MAIN(TestStudioGuide)
#include "test_studio_guide.moc"
