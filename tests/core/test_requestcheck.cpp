// The one validity check of typed request fields and of a configuration against its request
// (core/model/requestcheck.h), each case worked out from the limits by hand.
#include "core/model/requestcheck.h"
#include "testmain.h"

using namespace acsel;

class TestRequestCheck : public QObject
{
    Q_OBJECT
private slots:
    void fieldsInRange();
    void fieldsOutOfRange();
    void configAgainstRequest();
};

void TestRequestCheck::fieldsInRange()
{
    QCOMPARE(fieldProblem(RequestField::Concurrency, 1), std::string());
    QCOMPARE(fieldProblem(RequestField::Concurrency, 65536), std::string());
    QCOMPARE(fieldProblem(RequestField::Isl, 1 << 20), std::string());
    QCOMPARE(fieldProblem(RequestField::TtftBudget, 0.5), std::string());
    QCOMPARE(fieldProblem(RequestField::MemoryBudget, 5000), std::string()); // the cap is the
                                                                             // gate's, not a typo
    QCOMPARE(fieldProblem(RequestField::Gpus, 8), std::string());
    QCOMPARE(fieldProblem(RequestField::Margin, 0), std::string());
    QCOMPARE(fieldProblem(RequestField::Margin, 99.9), std::string());
}

void TestRequestCheck::fieldsOutOfRange()
{
    QCOMPARE(fieldProblem(RequestField::TtftBudget, -5),
             std::string("TTFT budget -5 ms is not above 0"));
    QCOMPARE(fieldProblem(RequestField::MemoryBudget, 0),
             std::string("memory budget 0 GiB is not above 0"));
    QCOMPARE(fieldProblem(RequestField::Concurrency, 999999),
             std::string("concurrency 999999 is above the largest accepted, 65536"));
    QCOMPARE(fieldProblem(RequestField::Concurrency, 0),
             std::string("concurrency 0 is below the smallest accepted, 1"));
    QCOMPARE(fieldProblem(RequestField::Osl, 2.5),
             std::string("output length 2.5 tokens is not a whole number"));
    QCOMPARE(fieldProblem(RequestField::Gpus, 16),
             std::string("GPUs 16 is above the largest accepted, 8"));
    QCOMPARE(fieldProblem(RequestField::TpotBudget, std::nan("")),
             std::string("TPOT budget: expected a number"));
    // The margin takes [0, 100): 0 itself is accepted, 100 (nothing left of a budget) is not.
    QCOMPARE(fieldProblem(RequestField::Margin, -5),
             std::string("margin -5 % is below the smallest accepted, 0"));
    QCOMPARE(fieldProblem(RequestField::Margin, 100), std::string("margin 100 % is not below 100"));
    QCOMPARE(fieldProblem(RequestField::Margin, 150), std::string("margin 150 % is not below 100"));
}

void TestRequestCheck::configAgainstRequest()
{
    Request q;
    q.concurrency = 999;
    q.gpus = 2;
    Config c;
    c.batch = 4;
    const ConfigProblem batch = configProblem(c, q);
    QCOMPARE(batch.field, std::string("batch"));
    QCOMPARE(batch.message, std::string("batch 4 is below the request's concurrency 999 (a batch "
                                        "must hold every request)"));
    c.batch = 999; // equal holds every request
    QVERIFY(!configProblem(c, q));
    c.tp = 4;
    QCOMPARE(configProblem(c, q).message, std::string("tp 4 exceeds the request's gpus 2"));
    c.tp = 2;
    QVERIFY(!configProblem(c, q));
}

ACSEL_TEST_APPLESS_MAIN(TestRequestCheck)
#include "test_requestcheck.moc"
