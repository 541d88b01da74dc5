// The provenance lines of a CSV quality set: a set marked synthetic loads as synthetic, an
// unmarked one keeps counting as measured, every bad line is refused naming the file and the
// line, and the CSV writer's output reads back equal.
#include "core/data/loaderror.h"
#include "core/data/qualityset.h"
#include "core/data/workspacefile.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <filesystem>

using namespace acsel;

namespace
{

const std::string kQualityCsvHeader = "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n";
const std::string kRows = "Qwen3-8B,awq,false,bf16,0-2:bf16;3-35:int4_wo/full,0.0123,train\n"
                          "Qwen3-0.6B,max,true,fp8,0-27:fp8/mlp,0.0009,heldout\n";

std::string csvErrorOf(const std::string& text, const std::vector<ModelArch>& models)
{
    try {
        parseQualitySetCsv(text, "m.csv", models);
    } catch (const LoadError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class TestQualitySetCsv : public QObject
{
    Q_OBJECT
private slots:
    void markedSyntheticLoadsAsSynthetic();
    void unmarkedCountsAsMeasured();
    void badProvenanceLines_data();
    void badProvenanceLines();
    void writerRoundTrip();
    void writerRefusesWhatOneLineCannotHold();

private:
    std::vector<ModelArch> models_ = loadWorkspace(ACSEL_DATASETS "/workspace.json", "").models;
};

void TestQualitySetCsv::markedSyntheticLoadsAsSynthetic()
{
    const std::string text = "# synthetic: true\r\n"
                             "#provenance:   SYNTHETIC rows typed for this test  \n"
                             "\n"
                             "# generator: {\"seed\": 7, \"command\": \"by hand\"}\n" +
                             kQualityCsvHeader + kRows;
    const QualitySet set = parseQualitySetCsv(text, "m.csv", models_);
    QVERIFY(set.synthetic);
    QCOMPARE(set.provenance, std::string("SYNTHETIC rows typed for this test"));
    QCOMPARE(set.generator.at("seed").get<int>(), 7);
    QCOMPARE(set.generator.at("command").get<std::string>(), std::string("by hand"));
    QCOMPARE(set.rows.size(), std::size_t{2});
    QCOMPARE(set.rows[0].rmqd, 0.0123);
    QVERIFY(set.rows[1].lmHeadQuantized && set.rows[1].split == Split::Heldout);
    // Row errors keep naming the file's own line numbers: header at 5, rows at 6 and 7.
    const std::string rowError =
        csvErrorOf(text + "Qwen9,max,false,bf16,0-35:fp8,0.001,train\n", models_);
    QVERIFY2(rowError.find("m.csv: line 8, column 'model': unknown model 'Qwen9'") !=
                 std::string::npos,
             rowError.c_str());
    // The flag goes where the JSON set's goes: through the JSON form and back.
    const QualitySet back =
        parseQualitySetJson(qualitySetToJson(set, models_), "back.json", models_);
    QVERIFY(back.synthetic);
    QCOMPARE(back.provenance, set.provenance);
    QVERIFY(back.generator == set.generator);
}

void TestQualitySetCsv::unmarkedCountsAsMeasured()
{
    const QualitySet plain = parseQualitySetCsv(kQualityCsvHeader + kRows, "m.csv", models_);
    QVERIFY(!plain.synthetic);
    QCOMPARE(plain.provenance, std::string("imported from CSV m.csv"));
    QVERIFY(plain.generator.is_null());
    const QualitySet said =
        parseQualitySetCsv("# synthetic: false\n" + kQualityCsvHeader + kRows, "m.csv", models_);
    QVERIFY(!said.synthetic);
    QCOMPARE(said.provenance, std::string("imported from CSV m.csv"));
    const QualitySet described = parseQualitySetCsv(
        "# provenance: lab A, acsel rmqd on wikitext\n" + kQualityCsvHeader + kRows, "m.csv",
        models_);
    QVERIFY(!described.synthetic);
    QCOMPARE(described.provenance, std::string("lab A, acsel rmqd on wikitext"));
}

void TestQualitySetCsv::badProvenanceLines_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    const QByteArray table = QByteArray::fromStdString(kQualityCsvHeader + kRows);
    QTest::newRow("yes") << "# synthetic: yes\n" + table
                         << "m.csv: line 1: '# synthetic': expected true or false, found 'yes'";
    QTest::newRow("upper case") << "# synthetic: TRUE\n" + table << "found 'TRUE'";
    QTest::newRow("empty value") << "# synthetic:\n" + table
                                 << "line 1: '# synthetic': expected true or false, found ''";
    QTest::newRow("twice") << "\n# synthetic: true\n# synthetic: false\n" + table
                           << "m.csv: line 3: '# synthetic' given twice";
    QTest::newRow("provenance twice")
        << "# provenance: a\n# provenance: b\n" + table << "line 2: '# provenance' given twice";
    QTest::newRow("unknown key")
        << "# source: lab\n" + table
        << "m.csv: line 1: unknown key '# source' (expected synthetic, provenance or generator)";
    QTest::newRow("no colon") << "# measured last week\n" + table
                              << "m.csv: line 1: expected '# key: value' before the header";
    QTest::newRow("empty provenance")
        << "# provenance:   \n" + table << "line 1: '# provenance': expected who measured what";
    QTest::newRow("provenance not UTF-8")
        << "# provenance: caf\xe9\n" + table
        << "line 1: '# provenance': expected one line of UTF-8 text";
    QTest::newRow("generator array")
        << "# generator: [1, 2]\n" + table << "line 1: '# generator': expected a JSON object";
    QTest::newRow("generator broken") << "# synthetic: true\n# generator: {\"seed\": \n" + table
                                      << "line 2: '# generator': expected a JSON object";
    QTest::newRow("generator command")
        << "# generator: {\"command\": 5}\n" + table
        << "line 1: '# generator': expected \"command\" to be a string";
    QTest::newRow("after the header")
        << QByteArray::fromStdString(kQualityCsvHeader) + "# synthetic: true\n" +
               QByteArray::fromStdString(kRows)
        << "m.csv: line 2: a '# key: value' line must come before the header";
    QTest::newRow("no header") << QByteArray("# synthetic: true\n\n")
                               << "m.csv: file is empty: expected a CSV header row";
}

void TestQualitySetCsv::badProvenanceLines()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    const std::string err = csvErrorOf(text.toStdString(), models_);
    QVERIFY2(err.find(expected.toStdString()) != std::string::npos, err.c_str());
}

void TestQualitySetCsv::writerRoundTrip()
{
    QualitySet set = parseQualitySetCsv(kQualityCsvHeader + kRows, "m.csv", models_);
    set.synthetic = true;
    set.provenance = "SYNTHETIC: written by test_quality_set_csv";
    set.generator = {{"seed", 11}, {"anchors", {0.5, 1e-300}}};
    set.rows[0].rmqd = 0.1 + 0.2; // 0.30000000000000004: needs all 17 digits
    set.rows[1].rmqd = 1e-5;
    const std::string text = qualitySetToCsv(set, models_, "w.csv");
    QVERIFY2(text.rfind("# synthetic: true\n# provenance: SYNTHETIC: written by "
                        "test_quality_set_csv\n# generator: {",
                        0) == 0,
             text.c_str());
    QVERIFY(text.find("0.30000000000000004,train\n") != std::string::npos);
    QTemporaryDir dir;
    for (const char* name : {"set.csv", "set.json"}) {
        const std::string file = dir.filePath(name).toStdString();
        writeQualitySet(set, models_, file);
        const QualitySet back = loadQualitySet(file, models_);
        QVERIFY(back.synthetic);
        QCOMPARE(back.provenance, set.provenance);
        QVERIFY(back.generator == set.generator);
        QCOMPARE(back.rows.size(), set.rows.size());
        for (std::size_t i = 0; i < set.rows.size(); ++i) {
            const QualityRow &a = back.rows[i], &b = set.rows[i];
            QVERIFY(a.model == b.model && a.recipe == b.recipe && a.algorithm == b.algorithm &&
                    a.lmHeadQuantized == b.lmHeadQuantized && a.kv == b.kv && a.split == b.split);
            QCOMPARE(a.rmqd, b.rmqd); // bit for bit
        }
    }
    // Unmarked sets are written marked: the file says what it is.
    set.synthetic = false;
    QVERIFY(qualitySetToCsv(set, models_, "w.csv").rfind("# synthetic: false\n", 0) == 0);
}

void TestQualitySetCsv::writerRefusesWhatOneLineCannotHold()
{
    QualitySet set = parseQualitySetCsv(kQualityCsvHeader + kRows, "m.csv", models_);
    QTemporaryDir dir;
    const std::string file = dir.filePath("set.csv").toStdString();
    for (const char* bad : {"line one\nline two", " padded", ""}) {
        set.provenance = bad;
        try {
            writeQualitySet(set, models_, file);
            QFAIL("a provenance one CSV line cannot hold was written");
        } catch (const LoadError& e) {
            QCOMPARE(e.file(), file);
            QCOMPARE(e.where(), std::string("provenance"));
        }
        QVERIFY(!std::filesystem::exists(file) && !std::filesystem::exists(file + ".tmp"));
    }
    set.provenance = "lab";
    std::vector<ModelArch> commaModels = models_;
    commaModels[static_cast<std::size_t>(set.rows[1].model)].name = "Qwen3,0.6B";
    try {
        (void)qualitySetToCsv(set, commaModels, "w.csv");
        QFAIL("a model name with a comma was written");
    } catch (const LoadError& e) {
        QCOMPARE(e.where(), std::string("row 2, column 'model'"));
    }
}

ACSEL_TEST_APPLESS_MAIN(TestQualitySetCsv)
#include "test_quality_set_csv.moc"
