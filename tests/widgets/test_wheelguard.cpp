// WheelGuard: in a scrolled panel the wheel over an unfocused slider, spin box or combo box is
// left to the scroll area (the control's value stays); once the control has focus it takes
// the wheel as before.
#include "testmain.h"
#include "widgets/wheelguard.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>
#include <QWheelEvent>

using acsel::gui::WheelGuard;

class TestWheelGuard : public QObject
{
    Q_OBJECT

    // One notch down over w; true when w accepted it (took it as its own).
    static bool wheel(QWidget* w)
    {
        const QPointF at = QRectF(w->rect()).center();
        QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &e);
        return e.isAccepted();
    }

private slots:
    void theWheelScrollsThePanelUntilAControlHasFocus()
    {
        QScrollArea area;
        auto* panel = new QWidget;
        auto* layout = new QVBoxLayout(panel);
        auto* slider = new QSlider(Qt::Horizontal);
        slider->setRange(0, 100);
        slider->setValue(50);
        auto* spin = new QDoubleSpinBox;
        spin->setRange(0, 100);
        spin->setValue(60);
        auto* combo = new QComboBox;
        combo->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        combo->setCurrentIndex(1);
        auto* other = new QDoubleSpinBox; // focus goes here first
        layout->addWidget(slider);
        layout->addWidget(spin);
        layout->addWidget(combo);
        layout->addWidget(other);
        WheelGuard::install(panel);
        area.setWidget(panel);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        area.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&area));
        other->setFocus();
        for (QWidget* w : std::initializer_list<QWidget*>{slider, spin, combo})
            QCOMPARE(w->focusPolicy(), Qt::StrongFocus); // the wheel gives no focus
        // Unfocused: ignored (Qt passes it on to the scroll area), values unchanged.
        QVERIFY(!wheel(slider));
        QVERIFY(!wheel(spin));
        QVERIFY(!wheel(combo));
        QCOMPARE(slider->value(), 50);
        QCOMPARE(spin->value(), 60.0);
        QCOMPARE(combo->currentIndex(), 1);
        // Focused (clicked or tabbed to): the control's own again.
        slider->setFocus();
        wheel(slider);
        QVERIFY(slider->value() != 50);
        spin->setFocus();
        wheel(spin);
        QCOMPARE(spin->value(), 59.0); // one step down
    }
};

ACSEL_TEST_MAIN(TestWheelGuard)
#include "test_wheelguard.moc"
