// BudgetSlider on the TTFT range (1-100000 ms, log): fine control. An arrow key on the slider
// moves the value by one step of 1/1000 of five decades (x10^0.005 = x1.0116, worked out by
// hand), ten for Page Up; the spin box steps in the value's own decade (2.0 -> 2.1 ms,
// 600 -> 610 ms), where a fixed step of 1 ms jumped from 2 ms to 3 ms.
#include "testmain.h"
#include "widgets/budgetslider.h"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSlider>
#include <cmath>

using namespace acsel::gui;

class TestBudgetSlider : public QObject
{
    Q_OBJECT
private slots:
    void ttftHasFineControl()
    {
        BudgetSlider ttft(acsel::RequestField::TtftBudget, 1, 100000, true, QStringLiteral("ms"),
                          1);
        ttft.setValue(600);
        QSignalSpy changed(&ttft, &BudgetSlider::valueChanged);
        const int start = ttft.slider()->value();
        QTest::keyClick(ttft.slider(), Qt::Key_Right);
        QCOMPARE(ttft.slider()->value(), start + 1);
        QCOMPARE(changed.size(), 1);
        const double ratio = std::pow(10.0, 5.0 / 1000);
        QVERIFY(std::abs(ttft.valueAt(start + 1) / ttft.valueAt(start) - ratio) < 1e-9);
        QTest::keyClick(ttft.slider(), Qt::Key_PageUp);
        QCOMPARE(ttft.slider()->value(), start + 11);

        ttft.setValue(2.0);
        ttft.spinBox()->stepBy(1);
        QCOMPARE(ttft.value(), 2.1);
        ttft.setValue(600);
        ttft.spinBox()->stepBy(1);
        QCOMPARE(ttft.value(), 610.0);
        ttft.spinBox()->stepBy(-1);
        QCOMPARE(ttft.value(), 600.0);
    }
};

ACSEL_TEST_MAIN(TestBudgetSlider)
#include "test_budgetslider.moc"
