// Help > User guide: a link from GUIDE.md to another page (DATA.md) shows that page, not a
// blank one, and Back returns to the guide; a link to a section lands on that page too.
#include "app/studio/guidewindow.h"

#include <QApplication>
#include <QFileInfo>
#include <QTest>
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
    }
};

QTEST_MAIN(TestStudioGuide)
#include "test_studio_guide.moc"
