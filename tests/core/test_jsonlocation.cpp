// Where a JSON syntax error is reported: line and column as an editor counts them (worked out
// by hand on each text), and a truncated document said to end early.
#include "core/data/jsonfields.h"
#include "core/data/loaderror.h"
#include "core/export/modeloptjson.h"
#include "modelfixtures.h"
#include "testmain.h"

#include <nlohmann/json.hpp>

class TestJsonLocation : public QObject
{
    Q_OBJECT
private slots:
    void lineAndColumn_data();
    void lineAndColumn();
    void modelOptJsonToo();
};

void TestJsonLocation::lineAndColumn_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    // The '2' after "b" is the first character that cannot follow: line 3, column 7.
    QTest::newRow("missing colon") << "{\n  \"a\": 1,\n  \"b\" 2\n}"
                                   << "line 3, column 7"
                                   << "expected a well-formed document";
    // 14 characters, then the end: the parser stops one past the last one.
    QTest::newRow("truncated") << "{\"stack\": \"h10"
                               << "line 1, column 15"
                               << "the document ends early";
    QTest::newRow("truncated after newline") << "{\n  \"a\": [1,\n"
                                             << "line 3, column 1"
                                             << "the document ends early";
    QTest::newRow("first character") << "]"
                                     << "line 1, column 1"
                                     << "expected a well-formed document";
}

void TestJsonLocation::lineAndColumn()
{
    QFETCH(QString, text);
    QFETCH(QString, where);
    QFETCH(QString, message);
    try {
        acsel::parseJsonText(text.toStdString(), "r.json");
        QFAIL("parsed");
    } catch (const acsel::LoadError& e) {
        QCOMPARE(QString::fromStdString(e.where()), where);
        QVERIFY2(e.message().find(message.toStdString()) != std::string::npos, e.what());
        QVERIFY(std::string(e.what()).find("r.json") != std::string::npos);
    }
}

void TestJsonLocation::modelOptJsonToo()
{
    // A ModelOpt quant_cfg file cut after its second line: the parser stops past the end,
    // line 3, column 1 (the two lines are 1 and 16 characters long, newlines included).
    try {
        acsel::readModelOptQuantCfgJson("{\n  \"quant_cfg\": {\n", acsel::test::tinyArch(2),
                                        "q.json");
        QFAIL("parsed");
    } catch (const acsel::LoadError& e) {
        QCOMPARE(QString::fromStdString(e.where()), QStringLiteral("line 3, column 1"));
    }
}

ACSEL_TEST_APPLESS_MAIN(TestJsonLocation)
#include "test_jsonlocation.moc"
