// The real engine on the real tables: FracMix is exact for memory and a lower bound for latency
// (static batching), the surrogate's fast path equals its prediction, and BandPareto's answer
// passes the full gate and never beats Exact.
#include "core/data/workspacefile.h"
#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/workspaceengine.h"

#include <QFileInfo>
#include <QTest>
#include <random>

using namespace acsel;

class TestWorkspaceEngine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void fracMixBoundsOnRealTables();
    void searchersOnRealTables();

private:
    std::unique_ptr<WorkspaceEngine> engine_;
};

namespace
{

Request request()
{
    Request q;
    q.stack = "h100_sxm/trtllm";
    q.isl = 1024;
    q.osl = 256;
    q.concurrency = 4;
    q.ttftBudgetMs = 900;
    q.tpotBudgetMs = 14;
    q.memBudgetGiB = 40;
    return q;
}

const std::atomic<bool> kNoStop{false};

} // namespace

void TestWorkspaceEngine::initTestCase()
{
    const std::string tables = ACSEL_SHARED_DIR "/aic";
    if (!QFileInfo::exists(QString::fromStdString(tables)))
        QSKIP("../shared/aic not present");
    engine_ = std::make_unique<WorkspaceEngine>(
        loadWorkspace(ACSEL_DATASETS "/workspace.json", tables), EngineSources{});
}

void TestWorkspaceEngine::fracMixBoundsOnRealTables()
{
    SearchOptions o;
    o.models = {*engine_->workspace().findModel("Qwen3-8B")};
    o.batches = {4};
    const Request q = request();
    const FracMixTable table(*engine_, q, o);
    std::mt19937_64 rng(5);
    int checked = 0, strict = 0;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            if (rng() % 97 != 0)
                return;
            const auto [algo, rmqd] = table.bestQuality(c, r);
            const Config cfg = table.config(c, r, algo);
            const SoftScore s = table.soft(c, r);
            const LatencyMs full = engine_->rawLatency(cfg, q);
            QVERIFY(std::abs(s.memoryBytes - engine_->memoryBytes(cfg, q)) <= 1e-9 * s.memoryBytes);
            QVERIFY(s.rawTtft <= full.ttft * (1 + 1e-12));
            QVERIFY(s.rawTpot <= full.tpot * (1 + 1e-12));
            QVERIFY(std::abs(rmqd - engine_->rmqd(cfg)) <= 1e-9 * rmqd);
            strict += s.rawTtft < full.ttft * (1 - 1e-12);
            ++checked;
        });
    QVERIFY(checked > 500);
    QVERIFY(strict > 0);
}

void TestWorkspaceEngine::searchersOnRealTables()
{
    SearchOptions o;
    o.models = {*engine_->workspace().findModel("Qwen3-8B")};
    const Request q = request();
    const SearchResult bp = BandPareto().run(*engine_, q, o, {}, kNoStop);
    const SearchResult exact = ExactSearch().run(*engine_, q, o, {}, kNoStop);
    QVERIFY(exact.config.has_value());
    QVERIFY(fullGate(*engine_, *exact.config, q).admitted());
    if (bp.config) {
        QVERIFY(fullGate(*engine_, *bp.config, q).admitted());
        QVERIFY(bp.gate.prediction.rmqd >= exact.gate.prediction.rmqd);
    }
    qInfo("BP %s rmqd %.5g (%lld soft, %lld full, %.1f ms); Exact rmqd %.5g (%lld full, %.1f ms)",
          bp.config ? bp.config->recipe.describe().c_str() : "none", bp.gate.prediction.rmqd,
          static_cast<long long>(bp.softEvaluations), static_cast<long long>(bp.fullEvaluations),
          bp.wallSeconds * 1e3, exact.gate.prediction.rmqd,
          static_cast<long long>(exact.fullEvaluations), exact.wallSeconds * 1e3);
}

QTEST_APPLESS_MAIN(TestWorkspaceEngine)
#include "test_workspaceengine.moc"
