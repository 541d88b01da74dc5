// ElidedLabel: a text too long for the width is shown as its start and an ellipsis with the
// whole text in the tooltip; the label never asks for more than a few characters of width, so
// a long text cannot widen the layout it sits in.
#include "testmain.h"
#include "widgets/elidedlabel.h"

#include <QApplication>
#include <QHBoxLayout>

using namespace acsel::gui;

class TestElidedLabel : public QObject
{
    Q_OBJECT
private slots:
    void elidesWhatDoesNotFit()
    {
        ElidedLabel l;
        const QString text = QStringLiteral("Undo: move boundary 1 to layer 37");
        l.setText(text);
        QCOMPARE(l.text(), text);
        QCOMPARE(l.toolTip(), text);
        const int whole = l.fontMetrics().horizontalAdvance(text);
        QCOMPARE(l.sizeHint().width(), whole);
        l.resize(whole, l.sizeHint().height());
        QCOMPARE(l.shownText(), text);
        l.resize(whole / 2, l.sizeHint().height());
        const QString shown = l.shownText();
        QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown)); // "…"
        QVERIFY2(text.startsWith(shown.chopped(1)), qPrintable(shown));
        QVERIFY(l.fontMetrics().horizontalAdvance(shown) <= whole / 2);
    }

    void aLongTextDoesNotWidenItsLayout()
    {
        QWidget w;
        auto* layout = new QHBoxLayout(&w);
        auto* l = new ElidedLabel(&w);
        layout->addWidget(l);
        l->setText(QString(400, QLatin1Char('x'))); // thousands of pixels
        const int eight = l->fontMetrics().averageCharWidth() * 8;
        QCOMPARE(l->minimumSizeHint().width(), eight);
        const QMargins m = layout->contentsMargins();
        QCOMPARE(w.minimumSizeHint().width(), eight + m.left() + m.right());
        l->setText(QStringLiteral("ab")); // shorter than eight characters: its own width
        QCOMPARE(l->minimumSizeHint().width(),
                 l->fontMetrics().horizontalAdvance(QStringLiteral("ab")));
    }
};

ACSEL_TEST_MAIN(TestElidedLabel)
#include "test_elidedlabel.moc"
