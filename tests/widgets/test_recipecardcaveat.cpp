// RecipeCard's RMQD caveat: shown under the metrics, with its text, only while the content has
// one; a content without one and a message hide it.
#include "testmain.h"
#include "widgets/recipecard.h"

#include <QLabel>

using namespace acsel;
using namespace acsel::gui;

class TestRecipeCardCaveat : public QObject
{
    Q_OBJECT
private slots:
    void followsTheContent()
    {
        RecipeCard card;
        auto* caveat = card.findChild<QLabel*>(QStringLiteral("rmqdCaveat"));
        QVERIFY(caveat);
        QVERIFY(!caveat->isVisibleTo(&card)); // "No recommendation yet."
        CardContent c;
        c.title = QStringLiteral("Recommended");
        c.modelName = QStringLiteral("Qwen3-8B");
        c.config.recipe = BandRecipe::uniform(36, Format::Fp8);
        c.prediction.rmqd = 0.02;
        c.rmqdCaveat = QStringLiteral("RMQD extrapolated: Qwen3-8B has no quality rows");
        card.setContent(c);
        QVERIFY(caveat->isVisibleTo(&card));
        QCOMPARE(caveat->text(), c.rmqdCaveat);
        c.rmqdCaveat.clear(); // another model, with rows
        card.setContent(c);
        QVERIFY(!caveat->isVisibleTo(&card));
        QVERIFY(caveat->text().isEmpty());
        c.rmqdCaveat = QStringLiteral("RMQD extrapolated: Llama-3.1-8B has no quality rows");
        card.setContent(c);
        QVERIFY(caveat->isVisibleTo(&card));
        card.showMessage(QStringLiteral("No configuration meets this request."));
        QVERIFY(!caveat->isVisibleTo(&card));
        QVERIFY(caveat->text().isEmpty());
    }
};

ACSEL_TEST_MAIN(TestRecipeCardCaveat)
#include "test_recipecardcaveat.moc"
