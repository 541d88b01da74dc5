// Throughput from TTFT and TPOT (docs/METHOD.md 3), against values worked out by hand.
#include "core/latency/throughput.h"
#include "testmain.h"

#include <limits>
#include <stdexcept>

class TestThroughput : public QObject
{
    Q_OBJECT
private slots:
    void closedLoopByHand();
    void oneOutputToken();
    void refusesImpossibleInput();
};

void TestThroughput::closedLoopByHand()
{
    // TTFT 200 ms, TPOT 20 ms, 11 output tokens: one request takes 200 + 10 x 20 = 400 ms; a
    // user decodes at 50 tokens/s; 4 clients finish 4 / 0.4 s = 10 requests/s = 110 tokens/s.
    const acsel::Throughput t = acsel::throughputOf(200, 20, 11, 4);
    QCOMPARE(t.requestMs, 400.0);
    QCOMPARE(t.tokensPerSUser, 50.0);
    QCOMPARE(t.requestsPerS, 10.0);
    QCOMPARE(t.tokensPerSGpu, 110.0);
    // The same replica split over 4 GPUs (tensor parallel): 110 / 4 tokens/s per GPU.
    QCOMPARE(acsel::throughputOf(200, 20, 11, 4, 4).tokensPerSGpu, 27.5);
}

void TestThroughput::oneOutputToken()
{
    // No decode: the one token arrives after TTFT 250 ms; 2 clients: 8 requests/s.
    const acsel::Throughput t = acsel::throughputOf(250, 0, 1, 2);
    QCOMPARE(t.requestMs, 250.0);
    QCOMPARE(t.tokensPerSUser, 4.0);
    QCOMPARE(t.requestsPerS, 8.0);
    QCOMPARE(t.tokensPerSGpu, 8.0);
}

void TestThroughput::refusesImpossibleInput()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acsel::throughputOf(0, 1, 2, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acsel::throughputOf(1, -1, 2, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acsel::throughputOf(1, 1, 0, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acsel::throughputOf(1, 1, 2, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, acsel::throughputOf(1, 1, 2, 1, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             acsel::throughputOf(std::numeric_limits<double>::infinity(), 1, 2, 1));
}

ACSEL_TEST_APPLESS_MAIN(TestThroughput)
#include "test_throughput.moc"
