// WorkShare: every item of a loop runs once, on any number of threads, loop after loop with
// the same helpers, and what the items wrote is seen by the caller when run() returns.
#include "core/search/workshare.h"
#include "testmain.h"

#include <atomic>
#include <cstddef>
#include <vector>

using namespace acsel;

class TestWorkShare : public QObject
{
    Q_OBJECT
private slots:
    void runsEachItemOnce();
    void runsWithoutHelpers();
};

// 500 loops of 0 to 499 items on 1, 2 and 4 threads: each item's slot counts its calls (plain
// ints: read after run() returns, so TSan checks that hand-over), and the sum of the items
// equals n (n - 1) / 2.
void TestWorkShare::runsEachItemOnce()
{
    for (const int threads : {1, 2, 4}) {
        WorkShare share(threads);
        std::vector<int> calls;
        for (std::size_t n = 0; n < 500; ++n) {
            calls.assign(n, 0);
            std::atomic<std::size_t> sum{0};
            share.run(n, [&](std::size_t k) {
                ++calls[k];
                sum += k;
            });
            for (std::size_t k = 0; k < n; ++k)
                QCOMPARE(calls[k], 1);
            QCOMPARE(sum.load(), n * (n - 1) / 2);
        }
    }
}

// With no helper the items run on the caller, in order.
void TestWorkShare::runsWithoutHelpers()
{
    WorkShare share(1);
    std::vector<std::size_t> order;
    share.run(5, [&](std::size_t k) { order.push_back(k); });
    QCOMPARE(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

ACSEL_TEST_GUILESS_MAIN(TestWorkShare)
#include "test_workshare.moc"
