// The FracMix lower bound on mixture-of-experts models: every recipe of every context (static
// and continuous requests, one GPU and tensor parallelism, each serving backend's policy) has
// its mix of uniform estimates at most the full estimate and its memory exactly the full one,
// on the toy models with an MoE block on every layer (servingengine.h). Models mixing dense and
// MoE layers (decoder_sparse_step > 1, mlp_only_layers) are not covered: there a band's share
// of the layers is not its share of the cost, and the mix can exceed the estimate.
#include "core/search/fracmixtable.h"
#include "servingengine.h"

#include <QTest>
#include <random>

using namespace acsel;
using acsel::test::ServingEngine;

class TestMoeBound : public QObject
{
    Q_OBJECT
private slots:
    void fracMixBoundsEveryMoeRecipe();
};

void TestMoeBound::fracMixBoundsEveryMoeRecipe()
{
    std::mt19937_64 rng(20261206);
    std::int64_t checked = 0, strict = 0, admitted = 0;
    for (int i = 0; i < 8; ++i) {
        const char* backend =
            test::kBackendNames[static_cast<std::size_t>(i) % std::size(test::kBackendNames)];
        ServingEngine e(0.5 * (1 << 30), backend); // half a GiB: memory binds some contexts
        e.makeMixtureOfExperts();
        e.enableTensorParallelism();
        QVERIFY(e.workspace().models[0].moeLayers() == e.workspace().models[0].layers);
        const int concurrency = 1 + static_cast<int>(rng() % 12);
        Request q = test::continuous(e.workspace().stacks[0].id, concurrency, 128 << (rng() % 3),
                                     64 << (rng() % 2));
        q.mode = i < 4 ? ServingMode::Static : ServingMode::Continuous;
        q.gpus = 2;
        SearchOptions o;
        o.batches = {concurrency};
        const FracMixTable table(e, q, o);
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
            table.space(c).forEachRecipe([&](const BandRecipe& r) {
                const Config cfg = table.config(c, r, Algorithm::Max);
                const SoftScore s = table.soft(c, r);
                const double memory = e.memoryBytes(cfg, q);
                ++checked;
                if (std::abs(s.memoryBytes - memory) > 1e-9 * memory) {
                    QTest::qFail("FracMix memory is not the full estimate's", __FILE__, __LINE__);
                    return false;
                }
                if (memory > 0.5 * (1 << 30)) // never admitted: its latency bounds nothing
                    return true;
                ++admitted;
                const LatencyMs full = e.rawLatency(cfg, q);
                if (s.rawTtft > full.ttft * (1 + 1e-12) || s.rawTpot > full.tpot * (1 + 1e-12)) {
                    QTest::qFail(qPrintable(QString("FracMix above the estimate: %1 tp %2")
                                                .arg(QString::fromStdString(r.describe(true)))
                                                .arg(cfg.tp)),
                                 __FILE__, __LINE__);
                    return false;
                }
                strict += s.rawTtft < full.ttft * (1 - 1e-9);
                return true;
            });
    }
    QVERIFY(checked > 10000);
    QVERIFY(admitted > 1000);
    QVERIFY(strict > 0); // the bound is not the estimate itself: some bands cost more
}

QTEST_APPLESS_MAIN(TestMoeBound)
#include "test_moebound.moc"
