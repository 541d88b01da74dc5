// The request overheads file: the shipped one reads to the two fitted values its entries
// state (docs/SERVING.md), and every malformed entry is refused naming the file and field.
#include "core/data/loaderror.h"
#include "core/data/requestoverheadsfile.h"
#include "core/latency/requestoverhead.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <fstream>

using namespace acsel;

namespace
{

// The error of reading a file of `entries`, its path shown as "f.json".
std::string errorOf(const std::string& entries, const std::string& version)
{
    const QTemporaryDir dir;
    const std::string file = dir.filePath("f.json").toStdString();
    std::ofstream(file) << "{\"schema_version\": " << version << ", \"entries\": [" << entries
                        << "]}";
    try {
        loadRequestOverheads(file);
    } catch (const LoadError& e) {
        std::string what = e.what();
        return what.replace(0, file.size(), "f.json");
    }
    return "no error";
}

const std::string kGood =
    R"({"stack": "h100_sxm/trtllm", "release": "1.0.0rc3", "overhead_ms": 152, "fitted": "83 rows"})";

} // namespace

class TestRequestOverheads : public QObject
{
    Q_OBJECT
private slots:
    void shippedFile();
    void badEntries_data();
    void badEntries();
};

void TestRequestOverheads::shippedFile()
{
    Workspace ws;
    ws.requestOverheads = loadRequestOverheads(ACSEL_DATASETS "/request_overheads.json");
    QCOMPARE(ws.requestOverheads.size(), std::size_t{2});
    QCOMPARE(requestOverheadMs(ws, "h100_sxm/trtllm", "1.0.0rc3"), 152.0);
    QCOMPARE(requestOverheadMs(ws, "h200_sxm/sglang", "0.5.6.post2"), 382.0);
    QCOMPARE(requestOverheadMs(ws, "h200_sxm/trtllm", "1.0.0rc3"), 0.0);
    QCOMPARE(requestOverheadMs(ws, "h100_sxm/trtllm", ""), 0.0);
}

void TestRequestOverheads::badEntries_data()
{
    QTest::addColumn<QString>("entries");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("error");
    const QString f = "f.json: ";
    QTest::newRow("good") << QString::fromStdString(kGood) << "1"
                          << "no error";
    QTest::newRow("stack without backend")
        << R"({"stack": "h100_sxm", "release": "1", "overhead_ms": 1, "fitted": "x"})"
        << "1"
        << f + "/entries/0/stack: expected a stack id system/backend such as h100_sxm/trtllm, "
               "not 'h100_sxm'";
    QTest::newRow("empty release")
        << R"({"stack": "a/b", "release": " ", "overhead_ms": 1, "fitted": "x"})"
        << "1" << f + "/entries/0/release: expected the measured engine release such as 1.0.0rc3";
    QTest::newRow("overhead a string")
        << R"({"stack": "a/b", "release": "1", "overhead_ms": "152", "fitted": "x"})"
        << "1" << f + "/entries/0/overhead_ms: expected a number";
    QTest::newRow("negative overhead")
        << R"({"stack": "a/b", "release": "1", "overhead_ms": -1, "fitted": "x"})"
        << "1" << f + "/entries/0/overhead_ms: expected a number in [0, 10000], found -1";
    QTest::newRow("no fit") << R"({"stack": "a/b", "release": "1", "overhead_ms": 1})"
                            << "1" << f + "/entries/0/fitted: missing field 'fitted'";
    QTest::newRow("misspelt key")
        << R"({"stack": "a/b", "release": "1", "overhead": 1, "fitted": "x"})"
        << "1"
        << f + "/entries/0/overhead: unknown field 'overhead' (expected: stack, release, "
               "overhead_ms, "
               "fitted)";
    QTest::newRow("second entry") << QString::fromStdString(kGood + ", " + kGood) << "1"
                                  << f + "/entries/1/release: a second entry for h100_sxm/trtllm "
                                         "1.0.0rc3";
    QTest::newRow("newer schema") << QString::fromStdString(kGood) << "2"
                                  << f + "/schema_version: written by a newer ACSeL Studio "
                                         "(schema 2, this build reads up to 1)";
}

void TestRequestOverheads::badEntries()
{
    QFETCH(QString, entries);
    QFETCH(QString, version);
    QFETCH(QString, error);
    QCOMPARE(QString::fromStdString(errorOf(entries.toStdString(), version.toStdString())), error);
}

ACSEL_TEST_APPLESS_MAIN(TestRequestOverheads)
#include "test_requestoverheads.moc"
