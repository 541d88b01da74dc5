// RecipeCard: the uniform-vs-band comparison shows the deltas worked out by hand, breakdowns
// list every operator class of either prediction, and Pin/Export follow the content.
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/comparemodel.h"
#include "widgets/glossary.h"
#include "widgets/recipecard.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>

using namespace acsel;
using namespace acsel::gui;

class TestRecipeCard : public QObject
{
    Q_OBJECT
private slots:
    void showsDeltasAgainstBestUniform();
    void messageDisablesActions();
    void staleContentIsGreyedAndNotPinnable();
    void everyTermIsExplainedWhereItIsShown();
    void engineMemoryBesideTheEstimate();
};

void TestRecipeCard::showsDeltasAgainstBestUniform()
{
    RecipeCard card;
    CardContent c;
    c.title = QStringLiteral("Recommended");
    c.modelName = QStringLiteral("Qwen3-8B");
    c.config.recipe =
        BandRecipe::fromCuts(36, {12}, {{Format::Bf16, Scope::Full}, {Format::Fp8, Scope::Mlp}});
    c.prediction = {{.ttftMs = 400, .tpotMs = 20, .memoryBytes = 12 * kGiB, .rmqd = 0.030},
                    true,
                    "admitted",
                    {{"gemm", 300}, {"attention", 100}},
                    {{"gemm", 15}},
                    {{"weights", 10}}};
    c.uniform = Config{};
    c.uniform->recipe = BandRecipe::uniform(36, Format::Fp8);
    c.uniformPrediction =
        PredictionView{{.ttftMs = 320, .tpotMs = 16, .memoryBytes = 9 * kGiB, .rmqd = 0.040},
                       true,
                       "admitted",
                       {{"gemm", 320}},
                       {{"gemm", 16}},
                       {{"weights", 8}}};
    card.setContent(c);
    QTableWidget* m = card.metricsTable();
    QCOMPARE(m->rowCount(), 4);
    // The share of the best uniform's value, short enough for the card at 1280x720.
    QCOMPARE(m->item(0, 3)->text(), QStringLiteral("+25.0%")); // TTFT 400 vs 320
    QCOMPARE(m->item(1, 3)->text(), QStringLiteral("+25.0%")); // TPOT 20 vs 16
    QCOMPARE(m->item(2, 3)->text(), QStringLiteral("+33.3%")); // memory 12 vs 9
    QCOMPARE(m->item(3, 3)->text(), QStringLiteral("-25.0%")); // RMQD 0.030 vs 0.040
    QCOMPARE(m->item(3, 1)->text(), QStringLiteral("0.0300"));
    // RMQD in fixed point with three significant digits, never an exponent.
    QCOMPARE(formatRmqd(-4.6e-05), QStringLiteral("-0.0000460")); // it read "-4.6e-05"
    QCOMPARE(formatRmqd(0.0352), QStringLiteral("0.0352"));
    QCOMPARE(formatRmqd(0.4896), QStringLiteral("0.490"));
    QCOMPARE(formatRmqd(0), QStringLiteral("0"));
    auto* ops = card.findChildren<QTableWidget*>().at(1);
    QCOMPARE(ops->rowCount(), 2); // gemm and attention, from either breakdown
    QSignalSpy pin(&card, &RecipeCard::pinRequested);
    for (QPushButton* b : card.findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Pin"))
            QTest::mouseClick(b, Qt::LeftButton);
    QCOMPARE(pin.count(), 1);
}

void TestRecipeCard::messageDisablesActions()
{
    RecipeCard card;
    card.showMessage(QStringLiteral("No configuration meets this request."));
    QVERIFY(!card.content());
    for (QPushButton* b : card.findChildren<QPushButton*>())
        QVERIFY(!b->isEnabled());
}

void TestRecipeCard::staleContentIsGreyedAndNotPinnable()
{
    RecipeCard card;
    CardContent c;
    c.title = QStringLiteral("Recommended");
    c.modelName = QStringLiteral("Qwen3-8B");
    c.config.recipe = BandRecipe::uniform(36, Format::Fp8);
    c.prediction.admitted = true;
    card.setContent(c);
    auto buttons = card.findChildren<QPushButton*>();
    QVERIFY(buttons.size() >= 2);
    auto* note = card.findChild<QLabel*>(QStringLiteral("staleNote"));
    QVERIFY(note);
    QVERIFY(!card.isStale() && !note->isVisibleTo(&card));
    card.setStale(true);
    QVERIFY(card.isStale());
    QVERIFY(note->isVisibleTo(&card));
    QVERIFY(!card.metricsTable()->isEnabled()); // greyed
    for (QPushButton* b : buttons)
        QVERIFY2(!b->isEnabled(), qPrintable(b->text()));
    card.setContent(c); // the current answer arrives
    QVERIFY(!card.isStale() && !note->isVisibleTo(&card) && card.metricsTable()->isEnabled());
    card.showMessage(QStringLiteral("Searching..."));
    card.setStale(true); // a message is never stale
    QVERIFY(!card.isStale());
}

void TestRecipeCard::everyTermIsExplainedWhereItIsShown()
{
    // RMQD, FMC, FracMix, scope, gate, calibration algorithm and screened: each has its
    // "what is this" sentence as the tooltip of the card's row or line and the Compare column
    // that shows it.
    for (const Term t : {Term::Rmqd, Term::Fmc, Term::FracMix, Term::Scope, Term::Gate,
                         Term::CalibrationAlgorithm, Term::Screened})
        QVERIFY(whatIs(t).contains(QStringLiteral(": ")));
    RecipeCard card;
    CardContent c;
    c.config.recipe = BandRecipe::uniform(4, Format::Fp8);
    c.prediction.admitted = true;
    c.stats = SearchStats{};
    card.setContent(c);
    QTableWidget* metrics = card.metricsTable();
    QCOMPARE(metrics->item(0, 0)->text(), QStringLiteral("TTFT"));
    QCOMPARE(metrics->item(0, 0)->toolTip(), whatIs(Term::Fmc));
    QCOMPARE(metrics->item(3, 0)->text(), QStringLiteral("RMQD"));
    QCOMPARE(metrics->item(3, 0)->toolTip(), whatIs(Term::Rmqd));
    const QString verdict = card.findChild<QLabel*>(QStringLiteral("cardVerdict"))->toolTip();
    QCOMPARE(verdict, whatIs(Term::Gate));
    const QString stats = card.findChild<QLabel*>(QStringLiteral("cardStats"))->toolTip();
    QVERIFY(stats.contains(whatIs(Term::Screened)) && stats.contains(whatIs(Term::FracMix)));
    CompareModel compare;
    const auto header = [&](int column) {
        return compare.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
    };
    QCOMPARE(header(CompareModel::Rmqd), whatIs(Term::Rmqd));
    QCOMPARE(header(CompareModel::Verdict), whatIs(Term::Gate));
    QVERIFY(header(CompareModel::Recipe).contains(whatIs(Term::Scope)) &&
            header(CompareModel::Recipe).contains(whatIs(Term::CalibrationAlgorithm)));
}

// What the engine takes at the launch's memory flag, as the prediction carries it (the text of
// core's engineMemoryText), on its own line; hidden without an engine model and for a message.
void TestRecipeCard::engineMemoryBesideTheEstimate()
{
    RecipeCard card;
    CardContent c;
    c.modelName = QStringLiteral("Llama-3.1-70B");
    c.config.recipe = BandRecipe::uniform(80, Format::Bf16);
    c.prediction.memoryBytes = 77.69 * kGiB;
    c.prediction.engineMemory = "79.20 GiB at --gpu-memory-utilization 0.99";
    card.setContent(c);
    auto* line = card.findChild<QLabel*>(QStringLiteral("cardEngineMemory"));
    QVERIFY(line);
    QCOMPARE(
        line->text(),
        QStringLiteral("Engine at launch, per GPU: 79.20 GiB at --gpu-memory-utilization 0.99"));
    QVERIFY(!line->isHidden());
    QVERIFY(line->toolTip().contains(QStringLiteral("acsel launch")));
    c.prediction.engineMemory.clear();
    card.setContent(c);
    QVERIFY(line->isHidden());
    c.prediction.engineMemory = "1.00 GiB at --mem-fraction-static 0.5";
    card.setContent(c);
    QVERIFY(!line->isHidden());
    card.showMessage(QStringLiteral("No configuration meets this request."));
    QVERIFY(line->isHidden());
}

ACSEL_TEST_MAIN(TestRecipeCard)
#include "test_recipecard.moc"
