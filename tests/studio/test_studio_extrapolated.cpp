// The recipe card warns when the recommended configuration's model has no rows in the quality
// set (its RMQD is the other models' trend, as `acsel search` warns), and the status line when
// the band editor's configuration's model has none; the banner over the plot names every model
// without rows. The workspace is the
// default one with a quality set made here from datasets/quality/demo_quality.json without the
// rows of Qwen3-8B (SYNTHETIC, like the set it comes from; said in its provenance).
#include "app/studio/engineloading.h"
#include "app/studio/explorersession.h"
#include "app/studio/mainwindow.h"
#include "app/studio/sessionnotes.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/bandeditor.h"
#include "widgets/comparemodel.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;

namespace
{
const QString kDropped = QStringLiteral("Qwen3-8B");

QJsonObject readJson(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool writeJson(const QString& file, const QJsonObject& o)
{
    QFile f(file);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(o).toJson()) > 0;
}

// dir/workspace.json: the default workspace whose quality set lacks kDropped's rows. Empty on
// failure.
QString writeWorkspaceWithoutModel(const QTemporaryDir& dir)
{
    const QString datasets = QStringLiteral(ACSEL_DATASETS);
    QJsonObject quality = readJson(datasets + QStringLiteral("/quality/demo_quality.json"));
    QJsonArray kept;
    for (const QJsonValue row : quality.value(QStringLiteral("rows")).toArray())
        if (row.toObject().value(QStringLiteral("model")).toString() != kDropped)
            kept.append(row);
    if (kept.isEmpty() || kept.size() == quality.value(QStringLiteral("rows")).toArray().size())
        return {};
    quality[QStringLiteral("rows")] = kept;
    quality[QStringLiteral("provenance")] =
        quality.value(QStringLiteral("provenance")).toString() +
        QStringLiteral(" [test_studio_extrapolated: the rows of %1 removed]").arg(kDropped);
    const QString qualityFile = dir.filePath(QStringLiteral("quality.json"));
    QJsonObject ws = readJson(datasets + QStringLiteral("/workspace.json"));
    ws[QStringLiteral("quality")] =
        QJsonObject{{QStringLiteral("file"), qualityFile}, {QStringLiteral("synthetic"), true}};
    ws[QStringLiteral("platforms")] = datasets + QStringLiteral("/platforms.json");
    ws[QStringLiteral("utilisation")] = datasets + QStringLiteral("/utilisation.json");
    ws[QStringLiteral("request_overheads")] = datasets + QStringLiteral("/request_overheads.json");
    const QString wsFile = dir.filePath(QStringLiteral("workspace.json"));
    return writeJson(qualityFile, quality) && writeJson(wsFile, ws) ? wsFile : QString();
}

int modelIndex(const Workspace& ws, const QString& name)
{
    const auto m = ws.findModel(name.toStdString());
    return m ? *m : -1;
}

} // namespace

class TestStudioExtrapolated : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio extrapolated test"));
        QSettings().clear();
    }

    void theNoteNamesOnlyModelsWithoutRows()
    {
        QTemporaryDir dir;
        const QString wsFile = writeWorkspaceWithoutModel(dir);
        QVERIFY(!wsFile.isEmpty());
        const auto lacking = studio::loadEngine(wsFile.toStdString(), {}, {});
        const QString note = studio::rmqdExtrapolationNote(*lacking.engine, kDropped.toStdString());
        // acsel search's words (its warning on stderr), as a sentence.
        QCOMPARE(note,
                 QStringLiteral("The quality data has no rows of Qwen3-8B: its predicted RMQD "
                                "is the other models' trend over log(params), not its own; "
                                "measure a few of its configurations (acsel rmqd) before "
                                "trusting the answer."));
        // The mixture-of-experts models of the workspace have no quality rows either.
        for (const ModelArch& m : lacking.workspace->models)
            QCOMPARE(studio::rmqdExtrapolationNote(*lacking.engine, m.name).isEmpty(),
                     m.name != kDropped.toStdString() && !m.isMoe());
        QCOMPARE(studio::extrapolatedModelsLine(*lacking.engine),
                 QStringLiteral("RMQD extrapolated: Qwen3-8B, Qwen3-30B-A3B, Qwen3-235B-A22B "
                                "have no quality rows in the quality set; their RMQD is the "
                                "other models' trend, not their own."));
        // The default workspace has rows of every dense model.
        const auto full = studio::loadEngine(ACSEL_DATASETS "/workspace.json", {}, {});
        for (const ModelArch& m : full.workspace->models)
            QCOMPARE(studio::rmqdExtrapolationNote(*full.engine, m.name).isEmpty(), !m.isMoe());
        QCOMPARE(studio::extrapolatedModelsLine(*full.engine),
                 QStringLiteral("RMQD extrapolated: Qwen3-30B-A3B, Qwen3-235B-A22B have no "
                                "quality rows in the quality set; their RMQD is the other "
                                "models' trend, not their own."));
        // What an exported configuration says about its RMQD (both sets are synthetic).
        QCOMPARE(studio::predictionsNote(*lacking.engine, "Qwen3-8B"),
                 std::string("RMQD from the surrogate fitted on synthetic quality data; no quality "
                             "data of this model: its RMQD is extrapolated"));
        QCOMPARE(studio::predictionsNote(*lacking.engine, "Qwen3-32B"),
                 std::string("RMQD from the surrogate fitted on synthetic quality data"));
        QCOMPARE(studio::predictionsNote(*full.engine, "Qwen3-8B"),
                 std::string("RMQD from the surrogate fitted on synthetic quality data"));
    }

    void theBannerNamesTheExtrapolatedModels()
    {
        QTemporaryDir dir;
        const QString wsFile = writeWorkspaceWithoutModel(dir);
        QVERIFY(!wsFile.isEmpty());
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        auto* banner = w.findChild<QLabel*>(QStringLiteral("banner"));
        QVERIFY(banner);
        QVERIFY2(banner->text().startsWith(QStringLiteral(
                     "RMQD extrapolated: Qwen3-30B-A3B, Qwen3-235B-A22B have no quality rows")),
                 qPrintable(banner->text()));
        QVERIFY(w.openWorkspace(wsFile, QString()));
        QVERIFY2(banner->text().startsWith(QStringLiteral(
                     "RMQD extrapolated: Qwen3-8B, Qwen3-30B-A3B, Qwen3-235B-A22B have no")),
                 qPrintable(banner->text()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
    }

    void theCardWarnsForAModelWithoutQualityRows()
    {
        QTemporaryDir dir;
        const QString wsFile = writeWorkspaceWithoutModel(dir);
        QVERIFY(!wsFile.isEmpty());
        MainWindow w(false);
        QVERIFY(w.openWorkspace(wsFile, QString()));
        w.show();
        auto* card = w.findChild<RecipeCard*>();
        auto* caveat = card->findChild<QLabel*>(QStringLiteral("rmqdCaveat"));
        QVERIFY(caveat);
        auto* editorCaveat = w.findChild<QLabel*>(QStringLiteral("editorRmqdCaveat"));
        QVERIFY(editorCaveat);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && card->content(), kSlowMs);
        auto* panel = w.findChild<SloPanel*>();
        auto* session = w.findChild<studio::ExplorerSession*>();
        const Workspace& ws = *session->workspace();

        // One model per search, as the user filters the space: the recommendation is then of
        // that model. Qwen3-1.7B has rows (no line), Qwen3-8B has none (the line).
        for (const QString& model : {QStringLiteral("Qwen3-1.7B"), kDropped}) {
            SpaceFilter f = panel->filter();
            f.models = {modelIndex(ws, model)};
            QVERIFY(f.models[0] >= 0);
            w.state()->setFilter(f); // the panel and the explorer session follow
            QTRY_VERIFY_WITH_TIMEOUT(
                !w.isBusy() && card->content() && card->content()->modelName == model, kSlowMs);
            const bool expected = model == kDropped;
            QCOMPARE(caveat->isVisibleTo(card), expected);
            QCOMPARE(caveat->text().contains(
                         QStringLiteral("The quality data has no rows of %1:").arg(model)),
                     expected);
            QCOMPARE(card->content()->rmqdCaveat, caveat->text());
            // The band editor shows the recommendation: the status line says the same, short.
            QTRY_VERIFY_WITH_TIMEOUT(
                w.findChild<BandEditor*>()->config() == card->content()->config, kSlowMs);
            QCOMPARE(editorCaveat->isVisibleTo(&w), expected);
            QCOMPARE(editorCaveat->text().contains(model), expected);
        }
        // Pinned, the Qwen3-8B recommendation's RMQD is marked in the Compare table.
        auto* compare = w.findChild<CompareModel*>();
        QVERIFY(compare);
        emit card->pinRequested();
        QCOMPARE(compare->rowCount(), 1);
        const QModelIndex pinnedRmqd = compare->index(0, CompareModel::Rmqd);
        QVERIFY2(compare->data(pinnedRmqd).toString().endsWith(QLatin1Char('*')),
                 qPrintable(compare->data(pinnedRmqd).toString()));
        QCOMPARE(compare->data(pinnedRmqd, Qt::ToolTipRole).toString(), caveat->text());
        // A configuration of a model with rows clicked while the card shows Qwen3-8B.
        Config other = card->content()->config;
        other.model = modelIndex(ws, QStringLiteral("Qwen3-1.7B"));
        other.recipe = BandRecipe::uniform(ws.models[static_cast<std::size_t>(other.model)].layers,
                                           Format::Bf16);
        w.findChild<BandEditor*>()->setConfig(other, QStringLiteral("Qwen3-1.7B"), {Format::Bf16});
        QVERIFY(!editorCaveat->isVisibleTo(&w));
        QVERIFY(caveat->isVisibleTo(card));
        w.findChild<QAction*>(QStringLiteral("pinEditorAction"))
            ->trigger(); // the editor's Qwen3-1.7B configuration: no mark
        QCOMPARE(compare->rowCount(), 2);
        QVERIFY(!compare->data(compare->index(1, CompareModel::Rmqd))
                     .toString()
                     .endsWith(QLatin1Char('*')));
        // A message (no recommendation) clears it.
        card->showMessage(QStringLiteral("Searching..."));
        QVERIFY(!caveat->isVisibleTo(card));
    }

    void cleanupTestCase() { QSettings().clear(); }
};

ACSEL_TEST_MAIN(TestStudioExtrapolated)
#include "test_studio_extrapolated.moc"
