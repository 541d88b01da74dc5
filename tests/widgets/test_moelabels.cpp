// What the window says of a mixture-of-experts model: the card's parameter line (active and
// total parameters, from the bundled workspace's config numbers) and the scope names of the
// band strip and the card ("experts" for the MLP scope, "mlp" on a dense model).
#include "core/data/workspacefile.h"
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandstrip.h"
#include "widgets/recipecard.h"

#include <QLabel>
#include <QMenu>
#include <memory>

using namespace acsel;
using namespace acsel::gui;

namespace
{

ModelArch workspaceModel(const std::string& name)
{
    const Workspace ws = loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
    return ws.models[static_cast<std::size_t>(*ws.findModel(name))];
}

// The scope submenu's entries of band 0.
QStringList scopeNames(BandStrip& strip)
{
    std::unique_ptr<QMenu> menu(strip.bandMenu(0, 1, nullptr));
    QStringList out;
    for (QAction* a : menu->actions())
        if (a->menu() && a->text() == QStringLiteral("Scope"))
            for (QAction* s : a->menu()->actions())
                out << s->text();
    return out;
}

} // namespace

class TestMoeLabels : public QObject
{
    Q_OBJECT
private slots:
    void parameterLine();
    void cardNamesTheExpertsScope();
    void stripNamesTheExpertsScope();
};

void TestMoeLabels::parameterLine()
{
    // Qwen3-30B-A3B: 30,532,122,624 parameters, 3,353,032,704 active (test_moe.cpp by hand).
    const ModelArch a3b = workspaceModel("Qwen3-30B-A3B");
    QCOMPARE(a3b.paramCount(), std::int64_t{30532122624});
    QCOMPARE(a3b.activeParamCount(), std::int64_t{3353032704});
    QCOMPARE(parameterText(a3b), QStringLiteral("3.35 B active / 30.53 B total parameters"));
    QCOMPARE(parameterText(workspaceModel("Qwen3-8B")), QStringLiteral("8.19 B parameters"));
}

void TestMoeLabels::cardNamesTheExpertsScope()
{
    RecipeCard card;
    auto* params = card.findChild<QLabel*>(QStringLiteral("cardParameters"));
    QVERIFY(params);
    CardContent c;
    c.title = QStringLiteral("Recommended");
    c.modelName = QStringLiteral("Qwen3-30B-A3B");
    c.config.recipe =
        BandRecipe::fromCuts(48, {16}, {{Format::Fp8, Scope::Attn}, {Format::Nvfp4, Scope::Mlp}});
    c.parameters = parameterText(workspaceModel("Qwen3-30B-A3B"));
    c.moe = true;
    card.setContent(c);
    QCOMPARE(params->text(), QStringLiteral("3.35 B active / 30.53 B total parameters"));
    bool named = false;
    for (QLabel* l : card.findChildren<QLabel*>())
        named =
            named || l->text().endsWith(QStringLiteral(": 0-15 fp8/attn | 16-47 nvfp4/experts"));
    QVERIFY(named);
    card.showMessage(QStringLiteral("No configuration meets this request."));
    QVERIFY(params->text().isEmpty());
}

void TestMoeLabels::stripNamesTheExpertsScope()
{
    BandStrip strip;
    strip.setRecipe(BandRecipe::uniform(4, Format::Fp8, Scope::Mlp));
    QCOMPARE(scopeNames(strip),
             (QStringList{QStringLiteral("full"), QStringLiteral("mlp"), QStringLiteral("attn")}));
    strip.setMoe(true);
    QCOMPARE(scopeNames(strip), (QStringList{QStringLiteral("full"), QStringLiteral("experts"),
                                             QStringLiteral("attn")}));
}

ACSEL_TEST_MAIN(TestMoeLabels)
#include "test_moelabels.moc"
