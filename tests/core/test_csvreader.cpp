// The CSV reader's fields: plain ones as they are, double-quoted ones (free text holding commas,
// as AIC's estimate files write their reasons) without their quotes, and a quote that never
// closes refused with the file and line.
#include "core/data/csvreader.h"
#include "core/data/loaderror.h"
#include "testmain.h"

using namespace acsel;

class TestCsvReader : public QObject
{
    Q_OBJECT
private slots:
    void quotedFieldsHoldCommas();
    void unclosedQuoteIsRefused();
};

void TestCsvReader::quotedFieldsHoldCommas()
{
    CsvReader csv = CsvReader::fromString("id,reason,ms\n"
                                          "a,\"OOM, does not fit (tp=2, pp=1)\",1.5\n"
                                          "b,,2\n"
                                          "c,\"\",3\n"
                                          "d,plain,\"4\"\n",
                                          "q.csv");
    QVERIFY(csv.next());
    QCOMPARE(csv.field(1), std::string_view("OOM, does not fit (tp=2, pp=1)"));
    QCOMPARE(csv.number(2), 1.5);
    QVERIFY(csv.next());
    QCOMPARE(csv.field(1), std::string_view(""));
    QVERIFY(csv.next());
    QCOMPARE(csv.field(1), std::string_view(""));
    QCOMPARE(csv.number(2), 3.0);
    QVERIFY(csv.next());
    QCOMPARE(csv.field(1), std::string_view("plain"));
    QCOMPARE(csv.number(2), 4.0); // the last field quoted
    QVERIFY(!csv.next());
}

void TestCsvReader::unclosedQuoteIsRefused()
{
    for (const char* row : {"a,\"open,1\n", "a,\"\n"}) {
        CsvReader csv = CsvReader::fromString(std::string("id,reason,ms\n") + row, "bad.csv");
        try {
            (void)csv.next();
            QFAIL("accepted an unclosed quote");
        } catch (const LoadError& e) {
            QCOMPARE(e.file(), std::string("bad.csv"));
            QCOMPARE(e.where(), std::string("line 2"));
            QVERIFY2(e.message().find("does not close") != std::string::npos, e.what());
        }
    }
}

ACSEL_TEST_APPLESS_MAIN(TestCsvReader)
#include "test_csvreader.moc"
