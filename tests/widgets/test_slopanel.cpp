// SloPanel: slider and spin box stay in step (log mapping worked out by hand), one edit emits
// one requestChanged and, after the hand rests, one requestSettled; the memory budget is capped
// at the device capacity; and a budget slider wired to the plot as MainWindow wires it moves
// the feasible count to the brute-force count for the same request.
#include "testmain.h"
#include "widgetfixtures.h"
#include "widgets/budgetslider.h"
#include "widgets/paretoplot.h"
#include "widgets/slopanel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>

using namespace acsel;
using namespace acsel::gui;

class TestSloPanel : public QObject
{
    Q_OBJECT
private slots:
    void sliderAndSpinBoxLinked();
    void oneSignalPerEditAndDebouncedSettle();
    void memoryCappedAtDeviceCapacity();
    void budgetSliderMovesFeasibleCount();
    void requestRoundTrip();
    void setFilterSwitchesFamily();
    void memoryBudgetKeptOnASmallerDevice();
    void bf16CannotBeUnchecked();
    void allFamiliesTogether();
    void invalidTypedInputMarkedNotClamped();
    void typingCommitsAfterThePause();
};

void TestSloPanel::sliderAndSpinBoxLinked()
{
    BudgetSlider b(RequestField::TtftBudget, 1, 100000, true, QStringLiteral("ms"), 1);
    QSignalSpy spy(&b, &BudgetSlider::valueChanged);
    b.slider()->setValue(500); // half way on a log scale from 1 to 1e5: sqrt(1e5) = 316.23
    QCOMPARE(b.spinBox()->value(), 316.2);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toDouble(), 316.2);
    b.spinBox()->setValue(1000); // 1e3 is 3/5 of the way: position 600
    QCOMPARE(b.slider()->value(), 600);
    QCOMPARE(spy.count(), 2);
    b.setValue(10); // programmatic: silent
    QCOMPARE(b.slider()->value(), 200);
    QCOMPARE(spy.count(), 2);

    BudgetSlider lin(RequestField::MemoryBudget, 0, 80, false, QStringLiteral("GiB"), 1);
    lin.slider()->setValue(250);
    QCOMPARE(lin.value(), 20.0);
}

void TestSloPanel::oneSignalPerEditAndDebouncedSettle()
{
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QSignalSpy changed(&panel, &SloPanel::requestChanged);
    QSignalSpy settled(&panel, &SloPanel::requestSettled);
    panel.tpotSlider()->slider()->setValue(300);
    QCOMPARE(changed.count(), 1);
    const auto r = changed.at(0).at(0).value<Request>();
    QCOMPARE(r.tpotBudgetMs, panel.tpotSlider()->value());
    QCOMPARE(r.stack, std::string("test_gpu/trtllm"));
    for (int pos : {310, 320, 330}) // a drag: one signal each, still one settle
        panel.tpotSlider()->slider()->setValue(pos);
    QCOMPARE(changed.count(), 4);
    QCOMPARE(settled.count(), 0);
    QVERIFY(settled.wait(2000));
    QTest::qWait(SloPanel::kSettleMs + 100);
    QCOMPARE(settled.count(), 1);
    QCOMPARE(settled.at(0).at(0).value<Request>().tpotBudgetMs, panel.tpotSlider()->value());
}

void TestSloPanel::memoryCappedAtDeviceCapacity()
{
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QCOMPARE(panel.memorySlider()->maximum(), 80e9 / (1024.0 * 1024.0 * 1024.0));
    // The default budget (80 GiB) is above the device's 80e9 bytes = 74.5 GiB: the request
    // keeps it, the slider sits at the cap and the line says so (the gate uses the smaller).
    QCOMPARE(panel.request().memBudgetGiB, 80.0);
    QCOMPARE(panel.memorySlider()->value(), 80.0);
    QCOMPARE(panel.memorySlider()->slider()->value(), BudgetSlider::kSteps);
    QVERIFY(!panel.memoryCapNote()->isHidden());
    panel.memorySlider()->spinBox()->setValue(40);
    QCOMPARE(panel.request().memBudgetGiB, 40.0);
    QVERIFY(panel.memoryCapNote()->isHidden());
    panel.memorySlider()->spinBox()->setValue(5000);
    QCOMPARE(panel.request().memBudgetGiB, 5000.0); // typed above the cap: kept, not clamped
    QVERIFY(!panel.memoryCapNote()->isHidden());
    const SpaceFilter f = panel.filter();
    QCOMPARE(f.models.size(), 2u); // the qwen3 family: Small and Big
    QCOMPARE(f.formats.size(), 3u);
    QCOMPARE(f.scopes.size(), 3u);
}

void TestSloPanel::budgetSliderMovesFeasibleCount()
{
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    ParetoPlot plot;
    panel.setWorkspace(ws);
    const auto set = fixtures::randomPoints(20000, 3);
    plot.setPoints(set);
    QObject::connect(&panel, &SloPanel::requestChanged, &plot,
                     [&plot](const Request& r) { plot.setBudgets(budgetsOf(r)); });
    auto bruteForce = [&](const Request& r) {
        std::int64_t n = 0;
        for (const PlotPoint& p : set->points)
            n += p.ttftMs <= r.ttftBudgetMs && p.tpotMs <= r.tpotBudgetMs &&
                 p.memoryGiB <= r.memBudgetGiB;
        return n;
    };
    panel.memorySlider()->spinBox()->setValue(40);
    std::int64_t previous = -1;
    for (int pos : {300, 500, 700, 900}) {
        panel.ttftSlider()->slider()->setValue(pos);
        const Request r = panel.request();
        QCOMPARE(plot.scored().feasibleCount, bruteForce(r));
        QVERIFY(plot.scored().feasibleCount >= previous); // a looser budget never admits fewer
        previous = plot.scored().feasibleCount;
    }
    QVERIFY(previous > 0);
}

void TestSloPanel::requestRoundTrip()
{
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QSignalSpy changed(&panel, &SloPanel::requestChanged);
    Request r;
    r.stack = "test_gpu/trtllm";
    r.isl = 2048;
    r.osl = 128;
    r.concurrency = 8;
    r.ttftBudgetMs = 450;
    r.tpotBudgetMs = 12.5;
    r.memBudgetGiB = 30;
    r.mode = ServingMode::Continuous;
    panel.setRequest(r);
    QCOMPARE(changed.count(), 0);
    const Request back = panel.request();
    QCOMPARE(back.isl, 2048);
    QCOMPARE(back.osl, 128);
    QCOMPARE(back.concurrency, 8);
    QCOMPARE(back.ttftBudgetMs, 450.0);
    QCOMPARE(back.tpotBudgetMs, 12.5);
    QCOMPARE(back.memBudgetGiB, 30.0);
    QVERIFY(back.mode == ServingMode::Continuous);
}

void TestSloPanel::setFilterSwitchesFamily()
{
    // The model list shows one family: a filter naming another family's model switches to it.
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QSignalSpy filterSpy(&panel, &SloPanel::filterChanged);
    gui::SpaceFilter llama;
    llama.models = {2};                          // "Other", the only llama model
    llama.formats = {Format::Fp8, Format::Bf16}; // bf16 is always searched (and checked)
    llama.scopes = {Scope::Mlp};
    panel.setFilter(llama);
    QVERIFY(panel.filter() == llama);
    gui::SpaceFilter qwen = llama;
    qwen.models = {1}; // "Big" only; "Small" is listed but unchecked
    qwen.formats = {Format::Int8, Format::Bf16};
    panel.setFilter(qwen);
    QVERIFY(panel.filter() == qwen);
    QCOMPARE(filterSpy.count(), 0); // programmatic, like setRequest
}

void TestSloPanel::memoryBudgetKeptOnASmallerDevice()
{
    // 60 GiB on the 80e9-byte device, then a 48e9-byte one (44.7 GiB) and back: the request
    // keeps 60 GiB throughout, the small device shows its cap.
    Workspace ws = fixtures::smallWorkspace();
    Platform small = ws.platforms[0];
    small.id = "small_gpu";
    small.name = "Small GPU 48GB";
    small.memCapacityBytes = 48e9;
    ws.platforms.push_back(small);
    Stack s = ws.stacks[0];
    s.id = "small_gpu/trtllm";
    s.platform = 1;
    ws.stacks.push_back(s);
    SloPanel panel;
    panel.setWorkspace(ws);
    panel.memorySlider()->spinBox()->setValue(60);
    QCOMPARE(panel.request().memBudgetGiB, 60.0);
    QVERIFY(panel.memoryCapNote()->isHidden());
    // The closed box shows the id alone (the device's name made it too wide for a laptop),
    // the item's tooltip the device.
    QCOMPARE(panel.stackBox()->itemText(1), QStringLiteral("small_gpu/trtllm"));
    QVERIFY(panel.stackBox()
                ->itemData(1, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Small GPU 48GB")));
    panel.stackBox()->setCurrentIndex(1);
    QCOMPARE(panel.request().stack, std::string("small_gpu/trtllm"));
    QCOMPARE(panel.request().memBudgetGiB, 60.0);
    QCOMPARE(panel.memoryCapGiB(), 48e9 / (1024.0 * 1024.0 * 1024.0));
    QCOMPARE(panel.memorySlider()->value(), 60.0); // kept; the slider sits at the cap
    QCOMPARE(panel.memorySlider()->slider()->value(), BudgetSlider::kSteps);
    QVERIFY(!panel.memoryCapNote()->isHidden());
    QVERIFY2(panel.memoryCapNote()->text().contains(QStringLiteral("44.7 GiB")),
             qPrintable(panel.memoryCapNote()->text()));
    panel.stackBox()->setCurrentIndex(0);
    QCOMPARE(panel.request().memBudgetGiB, 60.0);
    QCOMPARE(panel.memorySlider()->value(), 60.0);
    QVERIFY(panel.memoryCapNote()->isHidden());
}

void TestSloPanel::bf16CannotBeUnchecked()
{
    // The core search always offers bf16 bands: the box is checked, disabled and says why.
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QListWidgetItem* bf16 = nullptr;
    for (int i = 0; i < panel.formatList()->count(); ++i)
        if (panel.formatList()->item(i)->text() == QStringLiteral("bf16"))
            bf16 = panel.formatList()->item(i);
    QVERIFY(bf16);
    QVERIFY(!(bf16->flags() & Qt::ItemIsUserCheckable));
    QVERIFY(!(bf16->flags() & Qt::ItemIsEnabled));
    QCOMPARE(bf16->checkState(), Qt::Checked);
    QVERIFY(bf16->toolTip().contains(QStringLiteral("Always searched")));
    gui::SpaceFilter f = panel.filter();
    f.formats = {Format::Int8};
    panel.setFilter(f);
    QCOMPARE(bf16->checkState(), Qt::Checked);
    QVERIFY((panel.filter().formats == std::vector<Format>{Format::Int8, Format::Bf16}));
}

void TestSloPanel::allFamiliesTogether()
{
    // "All families" lists and checks the qwen3 and the llama models (0, 1 and 2); a filter
    // across families selects it and keeps every model asked for.
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QCOMPARE(panel.familyBox()->currentText(), QStringLiteral("qwen3"));
    QVERIFY((panel.filter().models == std::vector<int>{0, 1}));
    QSignalSpy filterSpy(&panel, &SloPanel::filterChanged);
    panel.familyBox()->setCurrentIndex(panel.familyBox()->findData(QString()));
    QCOMPARE(filterSpy.count(), 1);
    QVERIFY((panel.filter().models == std::vector<int>{0, 1, 2}));
    panel.familyBox()->setCurrentIndex(panel.familyBox()->findText(QStringLiteral("llama")));
    QVERIFY((panel.filter().models == std::vector<int>{2}));
    gui::SpaceFilter mixed = panel.filter();
    mixed.models = {1, 2};
    panel.setFilter(mixed);
    QCOMPARE(panel.familyBox()->currentData().toString(), QString());
    QVERIFY((panel.filter().models == std::vector<int>{1, 2}));
}

void TestSloPanel::invalidTypedInputMarkedNotClamped()
{
    // The cases: "-5" ms, concurrency 999999; each stays typed, is marked with the
    // core's reason, and the request keeps the last valid value.
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    QSignalSpy changed(&panel, &SloPanel::requestChanged);
    const double ttft = panel.request().ttftBudgetMs;
    panel.ttftSlider()->spinBox()->setValue(-5);
    QCOMPARE(panel.ttftSlider()->spinBox()->value(), -5.0);
    QVERIFY(!panel.ttftSlider()->isValid());
    QCOMPARE(panel.ttftSlider()->problem(), QStringLiteral("TTFT budget -5 ms is not above 0"));
    QVERIFY(panel.ttftSlider()->spinBox()->property("invalid").toBool());
    QVERIFY(panel.ttftSlider()->spinBox()->toolTip().startsWith(
        QStringLiteral("TTFT budget -5 ms is not above 0")));
    QCOMPARE(panel.request().ttftBudgetMs, ttft);
    QCOMPARE(changed.count(), 0);
    auto* concurrency = panel.findChildren<QSpinBox*>().at(2); // isl, osl, concurrency, gpus
    QCOMPARE(concurrency->value(), 1);
    concurrency->setValue(999999);
    QCOMPARE(concurrency->value(), 999999);
    QVERIFY(concurrency->property("invalid").toBool());
    QVERIFY(concurrency->toolTip().startsWith(
        QStringLiteral("concurrency 999999 is above the largest accepted, 65536 (not used")));
    QCOMPARE(panel.request().concurrency, 1);
    QCOMPARE(changed.count(), 0);
    // A valid value clears the mark and is used.
    concurrency->setValue(999);
    QVERIFY(!concurrency->property("invalid").toBool());
    QCOMPARE(panel.request().concurrency, 999);
    QCOMPARE(changed.count(), 1);
    panel.ttftSlider()->spinBox()->setValue(250);
    QVERIFY(panel.ttftSlider()->isValid());
    QCOMPARE(panel.request().ttftBudgetMs, 250.0);
}

void TestSloPanel::typingCommitsAfterThePause()
{
    // Keys typed into the focused box: nothing until typing pauses, then one request (the
    // whole number, not its prefixes) and the search at once.
    const Workspace ws = fixtures::smallWorkspace();
    SloPanel panel;
    panel.setWorkspace(ws);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTest::qWait(SloPanel::kSettleMs + 100); // the settle of setWorkspace's first request
    QSignalSpy changed(&panel, &SloPanel::requestChanged);
    QSignalSpy settled(&panel, &SloPanel::requestSettled);
    QDoubleSpinBox* box = panel.tpotSlider()->spinBox();
    box->setFocus();
    QTRY_VERIFY(box->hasFocus());
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("125"));
    QCOMPARE(changed.count(), 0); // "1", "12", "125" each waited for the pause
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, 2000);
    QCOMPARE(changed.at(0).at(0).value<Request>().tpotBudgetMs, 125.0);
    QCOMPARE(settled.count(), 1);
    // Enter commits without waiting.
    box->selectAll();
    QTest::keyClicks(box, QStringLiteral("90"));
    QTest::keyClick(box, Qt::Key_Return);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(panel.request().tpotBudgetMs, 90.0);
    QCOMPARE(settled.count(), 2);
}

ACSEL_TEST_MAIN(TestSloPanel)
#include "test_slopanel.moc"
