// The window's "why nothing fits" text, built by hand: the binding budget, the lowest value
// found, the budget to set and the answer there; a mixture-of-experts answer names its MLP
// scope "experts", as the card and the band strip do.
#include "testmain.h"
#include "viewmodel/predictiontext.h"

using namespace acsel;

namespace
{

Workspace workspaceWith(bool moe)
{
    Workspace ws;
    ModelArch m;
    m.name = moe ? "Moe-Toy" : "Dense-Toy";
    m.layers = 4;
    if (moe) {
        m.moe.experts = 8;
        m.moe.topk = 2;
    }
    ws.models.push_back(m);
    return ws;
}

// TPOT binds at 55.0 ms; the answer there quantizes the MLP (experts) of layers 0-3 to fp8.
NearestMiss tpotMiss()
{
    NearestMiss miss;
    for (std::size_t i = 0; i < miss.budgets.size(); ++i)
        miss.budgets[i].budget = kBudgetKinds[i];
    BudgetMiss& tpot = miss.budgets[1];
    tpot.lowest = 54.93;
    tpot.suggested = 55.0;
    Config c;
    c.model = 0;
    c.batch = 4;
    c.recipe = BandRecipe::uniform(4, Format::Fp8, Scope::Mlp);
    tpot.answer.config = c;
    tpot.answer.gate.prediction.ttftMs = 659.3;
    tpot.answer.gate.prediction.tpotMs = 54.93;
    tpot.answer.gate.prediction.rmqd = 0.0807;
    return miss;
}

} // namespace

class TestNearestMissText : public QObject
{
    Q_OBJECT
private slots:
    void namesTheBudgetAndTheAnswer()
    {
        Request q;
        q.tpotBudgetMs = 52.9;
        const QString text = gui::nearestMissText(tpotMiss(), q, workspaceWith(false));
        QVERIFY2(text.contains(QStringLiteral("TPOT binds")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("at a TPOT budget of 55.0 ms the answer is "
                                              "Dense-Toy")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("fp8/mlp")), qPrintable(text));
    }

    void mixtureOfExpertsSaysExperts()
    {
        Request q;
        q.tpotBudgetMs = 52.9;
        const QString text = gui::nearestMissText(tpotMiss(), q, workspaceWith(true));
        QVERIFY2(text.contains(QStringLiteral("fp8/experts")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("/mlp")), qPrintable(text));
    }
};

ACSEL_TEST_GUILESS_MAIN(TestNearestMissText)
#include "test_nearestmisstext.moc"
