// BandStrip and BandEditor with QTest events: dragging a boundary snaps to layers and moves the
// cut, the live prediction follows (a FracMix predictor whose values are worked out by hand),
// arrows nudge by one layer, menus offer only legal edits, and undo/redo restore each step; the
// settings row (batch, KV format, calibration algorithm, lm_head) edits the configuration in
// undo steps of the same stack.
#include "core/model/configspace.h"
#include "testmain.h"
#include "viewmodel/bandedits.h"
#include "widgets/bandeditor.h"
#include "widgets/bandpainter.h"
#include "widgets/bandstrip.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QMenu>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolButton>
#include <QUndoStack>

using namespace acsel;
using namespace acsel::gui;

namespace
{
// FracMix (docs/METHOD.md 3): TPOT = sum_j L_j / L * T_uniform(format_j), made-up uniform TPOTs.
double uniformTpot(Format f)
{
    return f == Format::Fp8 ? 12.0 : f == Format::Int8 ? 13.0 : 20.0;
}
PredictionView fracMix(const Config& c)
{
    PredictionView p;
    const double layers = c.recipe.numLayers();
    for (const Band& b : c.recipe)
        p.tpotMs += b.layers() / layers * uniformTpot(b.format);
    p.admitted = true;
    return p;
}

BandRecipe fp8ThenBf16(int cut)
{
    return BandRecipe::fromCuts(28, {cut},
                                {{Format::Fp8, Scope::Full}, {Format::Bf16, Scope::Full}});
}

QAction* findAction(QMenu* menu, const QString& text)
{
    for (QAction* a : menu->actions()) {
        if (a->text() == text)
            return a;
        if (a->menu())
            if (QAction* inner = findAction(a->menu(), text))
                return inner;
    }
    return nullptr;
}
} // namespace

class TestBandStrip : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void dragSnapsAndUndoRestores();
    void dragClampsToNeighbours();
    void arrowsNudgeByOneLayer();
    void menuOffersOnlyLegalEdits();
    void editsAreCanonical();
    void aRecommendationNeverReplacesAnEdit();
    void settingsAreEditedInUndoSteps();
    void aNarrowBandDropsItsLayerRange();

private:
    BandEditor* editor_ = nullptr;
    BandStrip* strip() const { return editor_->strip(); }
    void drag(int fromX, int toX);
};

void TestBandStrip::init()
{
    editor_ = new BandEditor;
    editor_->resize(700, 140);
    editor_->setPredictor(&fracMix);
    Config c;
    c.recipe = fp8ThenBf16(10);
    editor_->setConfig(c, QStringLiteral("Small"), {Format::Int8, Format::Fp8, Format::Bf16});
    editor_->show();
    QVERIFY(QTest::qWaitForWindowExposed(editor_));
}

void TestBandStrip::cleanup()
{
    delete editor_;
}

void TestBandStrip::drag(int fromX, int toX)
{
    const int y = strip()->stripRect().center().y();
    QTest::mousePress(strip(), Qt::LeftButton, {}, QPoint(fromX, y));
    QTest::mouseMove(strip(), QPoint((fromX + toX) / 2, y));
    QTest::mouseMove(strip(), QPoint(toX, y));
    QTest::mouseRelease(strip(), Qt::LeftButton, {}, QPoint(toX, y));
}

void TestBandStrip::dragSnapsAndUndoRestores()
{
    QCOMPARE(editor_->prediction()->tpotMs, (10 * 12.0 + 18 * 20.0) / 28);
    QSignalSpy predicted(editor_, &BandEditor::configPredicted);
    // Release 30% of a layer past layer 14's edge: snaps to the cut at 14.
    const double layerWidth = (strip()->layerX(28) - strip()->layerX(0)) / 28.0;
    drag(strip()->layerX(10), strip()->layerX(14) + static_cast<int>(0.3 * layerWidth));
    QCOMPARE(strip()->recipe()[0].end, 14);
    QVERIFY(strip()->recipe() == fp8ThenBf16(14));
    QCOMPARE(editor_->prediction()->tpotMs, 16.0); // 14/28 * 12 + 14/28 * 20
    QVERIFY(predicted.count() >= 1);
    QCOMPARE(strip()->undoStack()->count(), 1); // the whole drag is one step
    // The undo step and the editor's Undo button say what the edit was.
    QCOMPARE(strip()->undoStack()->undoText(), QStringLiteral("move boundary 1 to layer 14"));
    auto* undoButton = editor_->findChild<QToolButton*>(QStringLiteral("editorUndo"));
    QCOMPARE(undoButton->text(), QStringLiteral("Undo")); // one word, whatever the edit
    QCOMPARE(undoButton->toolTip(), QStringLiteral("Undo: move boundary 1 to layer 14"));

    strip()->undoStack()->undo();
    QVERIFY(strip()->recipe() == fp8ThenBf16(10));
    QCOMPARE(editor_->prediction()->tpotMs, (10 * 12.0 + 18 * 20.0) / 28);
    strip()->undoStack()->redo();
    QVERIFY(strip()->recipe() == fp8ThenBf16(14));

    // 70% of a layer past layer 20's edge rounds to 21.
    drag(strip()->layerX(14), strip()->layerX(20) + static_cast<int>(0.7 * layerWidth));
    QCOMPARE(strip()->recipe()[0].end, 21);
    QCOMPARE(editor_->prediction()->tpotMs, (21 * 12.0 + 7 * 20.0) / 28);
    // Ctrl+Z through the editor's undo button shortcut path: the stack's action.
    strip()->undoStack()->undo();
    QCOMPARE(strip()->recipe()[0].end, 14);
}

void TestBandStrip::dragClampsToNeighbours()
{
    drag(strip()->layerX(10), strip()->layerX(28) + 50); // beyond the right end
    QCOMPARE(strip()->recipe()[0].end, 27);              // the last band keeps one layer
    drag(strip()->layerX(27), 0);
    QCOMPARE(strip()->recipe()[0].end, 1);
    // A press away from any boundary does not drag.
    drag(strip()->layerX(5), strip()->layerX(15));
    QCOMPARE(strip()->recipe()[0].end, 1);
}

void TestBandStrip::arrowsNudgeByOneLayer()
{
    strip()->setFocus();
    QTest::keyClick(strip(), Qt::Key_Right);
    QCOMPARE(strip()->recipe()[0].end, 11);
    QCOMPARE(editor_->prediction()->tpotMs, (11 * 12.0 + 17 * 20.0) / 28);
    QTest::keyClick(strip(), Qt::Key_Left);
    QTest::keyClick(strip(), Qt::Key_Left);
    QCOMPARE(strip()->recipe()[0].end, 9);
    QCOMPARE(strip()->undoStack()->count(), 3);
    strip()->undoStack()->undo();
    QCOMPARE(strip()->recipe()[0].end, 10);
}

void TestBandStrip::menuOffersOnlyLegalEdits()
{
    std::unique_ptr<QMenu> menu(strip()->bandMenu(0, 5, nullptr));
    // fp8 takes only max calibration, int8 only SmoothQuant: a recipe with both has no
    // algorithm, so splitting the fp8 band into int8 is not offered.
    QMenu* split = nullptr;
    for (QAction* a : menu->actions())
        if (a->menu() && a->text().startsWith(QStringLiteral("Split at layer 5")))
            split = a->menu();
    QVERIFY(split);
    QVERIFY(findAction(split, QStringLiteral("int8/full")) == nullptr);
    // A bf16 right part would equal the next band and vanish on merging: not offered either.
    QVERIFY(findAction(split, QStringLiteral("bf16")) == nullptr);
    QVERIFY(findAction(split, QStringLiteral("fp8/mlp")) != nullptr);
    // Changing band 0 to int8 is legal (int8 + bf16: SmoothQuant fits both).
    QAction* toInt8 = findAction(menu.get(), QStringLiteral("int8"));
    QVERIFY(toInt8 && toInt8->isEnabled());
    toInt8->trigger();
    QVERIFY(strip()->recipe()[0].format == Format::Int8);
    QCOMPARE(strip()->undoStack()->undoText(), QStringLiteral("band 1 format int8"));
    // Merge band 0 into the right band: uniform bf16.
    std::unique_ptr<QMenu> again(strip()->bandMenu(0, 5, nullptr));
    findAction(again.get(), QStringLiteral("Merge into the right band"))->trigger();
    QCOMPARE(strip()->undoStack()->undoText(), QStringLiteral("merge band 1 into band 2"));
    QVERIFY(strip()->recipe() == BandRecipe::uniform(28, Format::Bf16));
    QCOMPARE(editor_->prediction()->tpotMs, 20.0);
    // Split the uniform band at 7 with an fp8/mlp right part.
    std::unique_ptr<QMenu> third(strip()->bandMenu(0, 7, nullptr));
    findAction(third.get(), QStringLiteral("fp8/mlp"))->trigger();
    QCOMPARE(strip()->recipe().size(), 2);
    QVERIFY(strip()->recipe()[1].format == Format::Fp8 && strip()->recipe()[1].scope == Scope::Mlp);
    QCOMPARE(strip()->undoStack()->undoText(),
             QStringLiteral("split band 1 at layer 7, right part fp8/mlp"));
    QCOMPARE(strip()->undoStack()->count(), 3);
    for (int i = 0; i < 3; ++i)
        strip()->undoStack()->undo();
    QVERIFY(strip()->recipe() == fp8ThenBf16(10));
}

void TestBandStrip::editsAreCanonical()
{
    const BandRecipe three = BandRecipe::fromCuts(
        30, {10, 20},
        {{Format::Fp8, Scope::Full}, {Format::Bf16, Scope::Full}, {Format::Fp8, Scope::Mlp}});
    // Making the middle band fp8/full merges it with the first band.
    const auto merged = setBand(three, 1, Format::Fp8, Scope::Full);
    QVERIFY(merged);
    QCOMPARE(merged->size(), 2);
    QCOMPARE((*merged)[0].end, 20);
    // bf16 never carries a partial scope.
    const auto bf = setBand(three, 2, Format::Bf16, Scope::Mlp);
    QVERIFY(bf && (*bf)[1].scope == Scope::Full && bf->size() == 2);
    QVERIFY(!moveCut(three, 2, 5));                                // no third cut
    QCOMPARE((*moveCut(three, 1, 3))[2].begin, 11);                // clamped: band 1 keeps a layer
    QVERIFY(!splitBand(three, 0, 5, Format::Int4Wo, Scope::Full)); // 4 bands
}

void TestBandStrip::aRecommendationNeverReplacesAnEdit()
{
    // init() loaded a chosen configuration (cut at 10): a recommendation is only offered.
    Config rec;
    rec.recipe = fp8ThenBf16(20);
    QVERIFY(!editor_->followsRecommendation());
    editor_->showRecommendation(rec, QStringLiteral("Small"), {Format::Fp8, Format::Bf16});
    QVERIFY(editor_->config().recipe == fp8ThenBf16(10));
    QVERIFY(editor_->offered() && *editor_->offered() == rec);
    // Loaded as a recommendation and untouched, the next one replaces it.
    editor_->setConfig(rec, QStringLiteral("Small"), {Format::Fp8, Format::Bf16},
                       BandEditor::Origin::Recommendation);
    QVERIFY(editor_->followsRecommendation() && !editor_->offered());
    Config next = rec;
    next.recipe = fp8ThenBf16(22);
    editor_->showRecommendation(next, QStringLiteral("Small"), {Format::Fp8, Format::Bf16});
    QVERIFY(editor_->config().recipe == fp8ThenBf16(22));
    // An edit: kept, with its undo step, when the next recommendation arrives.
    strip()->edit(fp8ThenBf16(5), QStringLiteral("edit"));
    Config third = rec;
    third.recipe = fp8ThenBf16(15);
    editor_->showRecommendation(third, QStringLiteral("Small"), {Format::Fp8, Format::Bf16});
    QVERIFY(editor_->config().recipe == fp8ThenBf16(5));
    QCOMPARE(strip()->undoStack()->count(), 1);
    QVERIFY(editor_->offered());
    // Revert goes back to the configuration as loaded; Redo brings the edit back.
    editor_->revertEdits();
    QVERIFY(editor_->config().recipe == fp8ThenBf16(22));
    strip()->undoStack()->redo();
    QVERIFY(editor_->config().recipe == fp8ThenBf16(5));
    // Load: one undo step (only the bands differ), so Undo returns to the edit.
    editor_->loadOffered();
    QVERIFY(editor_->config().recipe == fp8ThenBf16(15));
    QVERIFY(!editor_->offered());
    QCOMPARE(editor_->prediction()->tpotMs, (15 * 12.0 + 13 * 20.0) / 28);
    strip()->undoStack()->undo();
    QVERIFY(editor_->config().recipe == fp8ThenBf16(5));
}

void TestBandStrip::settingsAreEditedInUndoSteps()
{
    std::vector<Config> seen; // what the predictor was asked
    editor_->setPredictor([&seen](const Config& c) {
        seen.push_back(c);
        return fracMix(c);
    });
    auto* batch = editor_->findChild<QSpinBox*>(QStringLiteral("editorBatch"));
    auto* kv = editor_->findChild<QComboBox*>(QStringLiteral("editorKv"));
    auto* algorithm = editor_->findChild<QComboBox*>(QStringLiteral("editorAlgorithm"));
    auto* lmHead = editor_->findChild<QCheckBox*>(QStringLiteral("editorLmHead"));
    QVERIFY(batch && kv && algorithm && lmHead);
    QCOMPARE(batch->value(), 1);
    QSignalSpy predicted(editor_, &BandEditor::configPredicted);

    batch->setValue(8);
    QCOMPARE(editor_->config().batch, 8);
    QCOMPARE(seen.back().batch, 8); // predicted at the new batch
    QCOMPARE(predicted.count(), 1);
    QCOMPARE(strip()->undoStack()->count(), 1);
    QVERIFY(!editor_->followsRecommendation());
    kv->setCurrentIndex(kv->findData(static_cast<int>(KvFormat::Fp8)));
    QVERIFY(editor_->config().kv == KvFormat::Fp8);
    QCOMPARE(strip()->undoStack()->count(), 2);
    QCOMPARE(strip()->undoStack()->undoText(), QStringLiteral("KV format fp8"));
    strip()->undoStack()->undo(); // the KV change
    QVERIFY(editor_->config().kv == KvFormat::Bf16);
    QCOMPARE(kv->currentData().toInt(), static_cast<int>(KvFormat::Bf16)); // the control follows
    QCOMPARE(strip()->undoStack()->undoText(), QStringLiteral("batch 8"));
    strip()->undoStack()->undo(); // the batch
    QCOMPARE(editor_->config().batch, 1);
    QCOMPARE(batch->value(), 1);
    strip()->undoStack()->redo();
    QCOMPARE(editor_->config().batch, 8);

    // The algorithms offered are those that fit every band (ConfigSpace's rule), and follow
    // the recipe: an int8 band allows SmoothQuant.
    const auto offered = [&] {
        std::vector<Algorithm> out;
        for (int i = 0; i < algorithm->count(); ++i)
            out.push_back(static_cast<Algorithm>(algorithm->itemData(i).toInt()));
        return out;
    };
    QVERIFY(offered() == ConfigSpace::fittingAlgorithms(editor_->config().recipe));
    const BandRecipe int8 =
        BandRecipe::fromCuts(28, {10}, {{Format::Int8, Scope::Full}, {Format::Bf16, Scope::Full}});
    strip()->edit(int8, QStringLiteral("int8"));
    const std::vector<Algorithm> fits = ConfigSpace::fittingAlgorithms(int8);
    QVERIFY(offered() == fits);
    QVERIFY(std::find(fits.begin(), fits.end(), Algorithm::SmoothQuant) != fits.end());
    algorithm->setCurrentIndex(algorithm->findData(static_cast<int>(Algorithm::SmoothQuant)));
    QVERIFY(editor_->config().algorithm == Algorithm::SmoothQuant);
    QVERIFY(seen.back().algorithm == Algorithm::SmoothQuant);

    // lm_head: only with a last band that is not bf16, and cleared when it becomes bf16.
    QVERIFY(!lmHead->isEnabled());
    const BandRecipe fp8 = BandRecipe::uniform(28, Format::Fp8);
    strip()->edit(fp8, QStringLiteral("fp8"));
    QVERIFY(lmHead->isEnabled());
    lmHead->setChecked(true);
    QVERIFY(editor_->config().lmHeadQuantized && seen.back().lmHeadQuantized);
    strip()->edit(fp8ThenBf16(12), QStringLiteral("bf16 last"));
    QVERIFY(!editor_->config().lmHeadQuantized && !lmHead->isChecked() && !lmHead->isEnabled());
    // Undo brings the recipe back; lm_head stays as the recipe step left it (unquantized), and
    // can be quantized again.
    strip()->undoStack()->undo();
    QVERIFY(editor_->config().recipe == fp8);
    QVERIFY(!editor_->config().lmHeadQuantized && lmHead->isEnabled() && !lmHead->isChecked());
}

void TestBandStrip::aNarrowBandDropsItsLayerRange()
{
    // The strip labels each band with its layer range while it fits; a narrower band shows its
    // format alone rather than a cut range ("bf16  ·  5..." read as layer 5), elided only when
    // the format itself does not fit.
    const QFontMetrics fm{QFont()};
    const Band last{54, 64, Format::Bf16, Scope::Full};
    const QString full = QStringLiteral("bf16  \u00b7  54-63");
    const int fits = fm.horizontalAdvance(full);
    QCOMPARE(shownBandLabel(last, false, true, fm, fits), full);
    QCOMPARE(shownBandLabel(last, false, true, fm, fits - 1), QStringLiteral("bf16"));
    const int between = (fm.horizontalAdvance(QStringLiteral("bf16")) + fits) / 2;
    QCOMPARE(shownBandLabel(last, false, true, fm, between), QStringLiteral("bf16"));
    const int narrow = fm.horizontalAdvance(QStringLiteral("bf16")) - 1;
    QCOMPARE(shownBandLabel(last, false, true, fm, narrow),
             fm.elidedText(QStringLiteral("bf16"), Qt::ElideRight, narrow));
    // Compare's rows draw no ranges; an MoE model's MLP scope reads "experts".
    const Band experts{0, 10, Format::Fp8, Scope::Mlp};
    QCOMPARE(shownBandLabel(experts, true, false, fm, 1000), QStringLiteral("fp8/experts"));
    QCOMPARE(shownBandLabel(experts, false, true, fm, 1000),
             QStringLiteral("fp8/mlp  \u00b7  0-9"));
}

ACSEL_TEST_MAIN(TestBandStrip)
#include "test_bandstrip.moc"
