// The window's widgets on the core search engine (a hand-made ToyEngine from the search tests):
// moving the TTFT budget slider gives the feasible count and frontier that acsel::Explorer
// computes for the same request; dragging a band boundary re-predicts with the full gate; the
// search through SearchRunner returns what the core searcher returns when run directly.
#include "../core/toyengine.h"
#include "app/studio/enginehooks.h"
#include "core/data/configjson.h"
#include "core/data/jsonfields.h"
#include "core/search/explorer.h"
#include "core/search/gate.h"
#include "core/search/searcher.h"
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/budgetslider.h"
#include "widgets/paretoplot.h"
#include "widgets/slopanel.h"

#include <QSignalSpy>
#include <QSlider>
#include <QUndoStack>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

namespace
{
using acsel::Format;

std::shared_ptr<acsel::test::ToyEngine> toy()
{
    return std::make_shared<acsel::test::ToyEngine>(
        std::vector<Format>{Format::Int4Wo, Format::Int8, Format::Fp8, Format::Bf16});
}
} // namespace

class TestEngineHooks : public QObject
{
    Q_OBJECT
private slots:
    void budgetSliderMatchesCoreExplorer();
    void dragRepredictsWithFullGate();
    void searchMatchesCoreSearcher();
    void rejectedConfigurationsKeepTheirNumbers();
    void batchBelowConcurrencyRefusedLikeTheCli();
};

void TestEngineHooks::budgetSliderMatchesCoreExplorer()
{
    const auto engine = toy();
    const acsel::studio::ExplorerHooks hooks = acsel::studio::makeEngineHooks(engine);
    acsel::gui::SloPanel panel;
    acsel::gui::ParetoPlot plot;
    panel.setWorkspace(engine->workspace());
    QObject::connect(
        &panel, &acsel::gui::SloPanel::requestChanged, &plot,
        [&plot](const acsel::Request& r) { plot.setBudgets(acsel::gui::budgetsOf(r)); });
    const acsel::Request q = panel.request();
    QCOMPARE(q.stack, std::string("toygpu/toy"));
    const acsel::gui::SpaceFilter filter = panel.filter();
    QCOMPARE(filter.models.size(), 2u);
    const std::atomic<bool> never{false};
    std::shared_ptr<const acsel::gui::PointSet> early;
    const auto points = hooks.scoreSpace(
        q, filter, [&early](std::shared_ptr<const acsel::gui::PointSet> p) { early = p; }, never);
    plot.setPoints(points);

    // The core's own explorer for the same request and space.
    acsel::Explorer core;
    acsel::SearchOptions o;
    o.models = filter.models;
    o.formats = filter.formats;
    o.scopes = filter.scopes;
    QVERIFY(core.build(*engine, q, o, 50000, never));
    QCOMPARE(points->points.size(), core.points().size());
    // The early set is exactly the uniform configurations of the complete one, in its order.
    QVERIFY(early);
    const auto uniforms = static_cast<std::size_t>(
        std::count_if(core.points().begin(), core.points().end(),
                      [](const acsel::ExplorerPoint& p) { return p.uniform; }));
    QVERIFY(uniforms > 0);
    QCOMPARE(early->points.size(), uniforms);
    for (std::size_t i = 0; i < uniforms; ++i) {
        QVERIFY(early->points[i].uniform && points->points[i].uniform);
        QCOMPARE(early->points[i].ttftMs, points->points[i].ttftMs);
        QCOMPARE(early->points[i].rmqd, points->points[i].rmqd);
        QVERIFY(early->configs[i] == points->configs[i]);
    }
    QVERIFY(early->provenance.find("uniform configurations only") != std::string::npos);
    std::set<std::size_t> counts;
    for (int pos = 0; pos <= 1000; pos += 50) {
        panel.ttftSlider()->slider()->setValue(pos);
        const acsel::Request r = panel.request();
        core.applyBudgets(r.ttftBudgetMs, r.tpotBudgetMs, r.memBudgetGiB);
        QCOMPARE(static_cast<std::size_t>(plot.scored().feasibleCount), core.feasibleCount());
        const std::vector<std::size_t> front = core.frontier(acsel::LatencyAxis::Ttft);
        QCOMPARE(plot.scored().frontier.size(), front.size());
        for (std::size_t k = 0; k < front.size(); ++k)
            QCOMPARE(static_cast<std::size_t>(plot.scored().frontier[k]), front[k]);
        counts.insert(core.feasibleCount());
    }
    QVERIFY(counts.size() > 3); // the sweep crossed the cloud, not just its empty ends
}

void TestEngineHooks::dragRepredictsWithFullGate()
{
    const auto engine = toy();
    const acsel::studio::ExplorerHooks hooks = acsel::studio::makeEngineHooks(engine);
    acsel::Request q;
    q.stack = "toygpu/toy";
    q.isl = 512;
    q.osl = 64;
    acsel::gui::BandEditor editor;
    editor.resize(700, 140);
    editor.setPredictor([&](const acsel::Config& c) { return hooks.predict(c, q); });
    acsel::Config c;
    c.model = 1; // 8 layers
    c.recipe = acsel::BandRecipe::fromCuts(
        8, {2}, {{Format::Fp8, acsel::Scope::Full}, {Format::Bf16, acsel::Scope::Full}});
    editor.setConfig(c, QStringLiteral("toy-8"), {Format::Fp8, Format::Bf16});
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    acsel::gui::BandStrip* strip = editor.strip();
    const int y = strip->stripRect().center().y();
    QTest::mousePress(strip, Qt::LeftButton, {}, QPoint(strip->layerX(2), y));
    QTest::mouseMove(strip, QPoint(strip->layerX(6), y));
    QTest::mouseRelease(strip, Qt::LeftButton, {}, QPoint(strip->layerX(6), y));
    QCOMPARE(strip->recipe()[0].end, 6);
    acsel::Config moved = c;
    moved.recipe = acsel::BandRecipe::fromCuts(
        8, {6}, {{Format::Fp8, acsel::Scope::Full}, {Format::Bf16, acsel::Scope::Full}});
    const acsel::GateResult g = acsel::fullGate(*engine, moved, q);
    QCOMPARE(editor.prediction()->tpotMs, g.prediction.tpotMs);
    QCOMPARE(editor.prediction()->ttftMs, g.prediction.ttftMs);
    QCOMPARE(editor.prediction()->admitted, g.admitted());
    strip->undoStack()->undo();
    QCOMPARE(editor.prediction()->tpotMs, acsel::fullGate(*engine, c, q).prediction.tpotMs);
}

void TestEngineHooks::searchMatchesCoreSearcher()
{
    const auto engine = toy();
    const acsel::studio::ExplorerHooks hooks = acsel::studio::makeEngineHooks(engine);
    acsel::Request q;
    q.stack = "toygpu/toy";
    q.isl = 512;
    q.osl = 64;
    q.ttftBudgetMs = 40;
    q.tpotBudgetMs = 2;
    q.memBudgetGiB = 32;
    acsel::gui::SpaceFilter f{{0, 1},
                              {Format::Int4Wo, Format::Int8, Format::Fp8, Format::Bf16},
                              {acsel::kAllScopes.begin(), acsel::kAllScopes.end()}};
    acsel::gui::SearchRunner runner;
    QSignalSpy done(&runner, &acsel::gui::SearchRunner::finished);
    acsel::gui::SearchOutcome out;
    runner.start<acsel::gui::SearchOutcome>(
        [&](const acsel::gui::SearchRunner::ProgressFn& p, const std::atomic<bool>& stop) {
            return hooks.search(q, f, acsel::gui::SearchAlgorithm("exact"), {}, p, stop);
        },
        [&out](int, const acsel::gui::SearchOutcome& o) { out = o; });
    QVERIFY(!done.isEmpty() || done.wait(20000)); // a fast job may finish inside start()
    acsel::SearchOptions o;
    o.models = f.models;
    o.formats = f.formats;
    o.scopes = f.scopes;
    const std::atomic<bool> never{false};
    const acsel::SearchResult direct = acsel::makeSearcher("exact")->run(
        *engine, q, o, [](double) {}, never);
    QCOMPARE(out.best.has_value(), direct.config.has_value());
    QVERIFY(out.best.has_value()); // the budgets leave room
    QVERIFY(*out.best == *direct.config);
    QCOMPARE(out.bestPrediction.rmqd, direct.gate.prediction.rmqd);
    QVERIFY(out.bestUniform && out.bestUniform->recipe.isUniform());
    QVERIFY(out.bestPrediction.rmqd <= out.bestUniformPrediction.rmqd); // bands can only help Exact
}

void TestEngineHooks::rejectedConfigurationsKeepTheirNumbers()
{
    // Rejected for memory, a configuration still shows its predicted latencies (the gate stops
    // before them): the same as with room to spare, calibration included. Every verdict is in
    // fixed-point numbers, never an exponent.
    const auto engine = toy();
    const acsel::studio::ExplorerHooks hooks = acsel::studio::makeEngineHooks(engine);
    acsel::Request roomy;
    roomy.stack = "toygpu/toy";
    roomy.isl = 512;
    roomy.osl = 64;
    roomy.ttftBudgetMs = roomy.tpotBudgetMs = 1e9;
    roomy.memBudgetGiB = 64;
    acsel::Config c;
    c.model = 1;
    c.recipe = acsel::BandRecipe::uniform(8, Format::Fp8);
    const acsel::gui::PredictionView fits = hooks.predict(c, roomy);
    QVERIFY(fits.admitted);
    QVERIFY(fits.ttftMs > 0 && fits.tpotMs > 0);
    const acsel::LatencyMs expected =
        engine->calibration(roomy.stack).apply(engine->rawLatency(c, roomy));
    QCOMPARE(fits.ttftMs, expected.ttft);

    acsel::Request tight = roomy;
    tight.memBudgetGiB = fits.memoryGiB() / 2;
    const acsel::gui::PredictionView rejected = hooks.predict(c, tight);
    QVERIFY(!rejected.admitted);
    QCOMPARE(rejected.ttftMs, fits.ttftMs);
    QCOMPARE(rejected.tpotMs, fits.tpotMs);
    QCOMPARE(rejected.memoryGiB(), fits.memoryGiB());
    const QString memory = QString::fromStdString(rejected.verdict);
    QCOMPARE(memory, QStringLiteral("memory %1 exceeds the budget %2")
                         .arg(acsel::gui::formatGiB(fits.memoryGiB()),
                              acsel::gui::formatGiB(fits.memoryGiB() / 2)));

    // A TTFT budget of 1400 ms against 1460.4 ms: "1460 ms ... 1400 ms", as the user reads it.
    acsel::Request slow = roomy;
    slow.ttftBudgetMs = fits.ttftMs * 0.9;
    const acsel::gui::PredictionView late = hooks.predict(c, slow);
    QVERIFY(!late.admitted);
    const QString ttft = QString::fromStdString(late.verdict);
    QVERIFY2(!ttft.contains(QStringLiteral("e+")) && !ttft.contains(QStringLiteral("e-")),
             qPrintable(ttft));
    QCOMPARE(ttft,
             QStringLiteral("TTFT %1 exceeds the budget %2")
                 .arg(acsel::gui::formatMs(fits.ttftMs), acsel::gui::formatMs(fits.ttftMs * 0.9)));
    QCOMPARE(acsel::gui::formatMs(1460.4), QStringLiteral("1460 ms"));
    QCOMPARE(acsel::gui::formatMs(179.58), QStringLiteral("179.6 ms"));
    QCOMPARE(acsel::gui::formatMs(3.14159), QStringLiteral("3.14 ms"));
    QCOMPARE(acsel::gui::formatMs(std::nan("")), QStringLiteral("- ms"));
}

void TestEngineHooks::batchBelowConcurrencyRefusedLikeTheCli()
{
    // Batch 4 at concurrency 999: the band editor said "admitted" where acsel predict refuses
    // the file; both now ask the core's configProblem, so the verdict is the CLI's sentence.
    const auto engine = toy();
    const acsel::studio::ExplorerHooks hooks = acsel::studio::makeEngineHooks(engine);
    acsel::Request q;
    q.stack = "toygpu/toy";
    q.isl = 512;
    q.osl = 64;
    q.ttftBudgetMs = q.tpotBudgetMs = 1e9;
    q.memBudgetGiB = 1e6;
    acsel::Config c;
    c.model = 1;
    c.batch = 4;
    c.recipe = acsel::BandRecipe::uniform(8, Format::Fp8);
    QVERIFY(hooks.predict(c, q).admitted); // concurrency 1: batch 4 holds it
    q.concurrency = 999;
    const acsel::gui::PredictionView p = hooks.predict(c, q);
    QVERIFY(!p.admitted);
    const std::string sentence =
        "batch 4 is below the request's concurrency 999 (a batch must hold every request)";
    QCOMPARE(p.verdict, sentence);
    // The CLI's reader of the same configuration file (acsel predict --config) refuses it with
    // the same sentence.
    acsel::ConfigDocument doc = acsel::makeConfigDocument(engine->workspace(), c, q);
    doc.modelHfId = "toy/model"; // the toy model has none; the file needs one
    const std::string text = acsel::writeConfigJson(doc);
    try {
        acsel::parseConfigJson(acsel::parseJsonText(text, "config.json"), "config.json");
        QFAIL("the configuration file was accepted");
    } catch (const acsel::LoadError& e) {
        QVERIFY2(std::string(e.what()).find("/config/batch") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(sentence) != std::string::npos, e.what());
    }
}

ACSEL_TEST_MAIN(TestEngineHooks)
#include "test_enginehooks.moc"
