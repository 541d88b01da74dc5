// Quality measurement sets: band text, CSV import, JSON round trip, and clear errors.
#include "core/data/loaderror.h"
#include "core/data/qualityset.h"
#include "core/data/workspacefile.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

const std::string kQualityHeader = "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n";

std::string errorOf(const std::string& csv, const std::vector<ModelArch>& models)
{
    try {
        parseQualitySetCsv(kQualityHeader + csv, "m.csv", models);
    } catch (const LoadError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class TestQualitySet : public QObject
{
    Q_OBJECT
private slots:
    void bandsText();
    void csvImportAndJsonRoundTrip();
    void badRows_data();
    void badRows();
    void jsonErrorsNamePointer();
    void duplicateConfigurationsRefused();

private:
    std::vector<ModelArch> models_ = loadWorkspace(ACSEL_DATASETS "/workspace.json", "").models;
};

void TestQualitySet::bandsText()
{
    BandRecipe r;
    QCOMPARE(bandsFromText("0-2:bf16;3-30:int4_wo/mlp;31-35:fp8/full", 36, r), std::string());
    QCOMPARE(r.size(), 3);
    QVERIFY(r[1] == (Band{3, 31, Format::Int4Wo, Scope::Mlp}));
    QCOMPARE(bandsToText(r), std::string("0-2:bf16;3-30:int4_wo/mlp;31-35:fp8/full"));
    QVERIFY(bandsFromText("0-2:bf16;3-30:int4_wo/mlp", 36, r).find("bands end at layer 31") !=
            std::string::npos);
    QVERIFY(bandsFromText("0-35:int3", 36, r).find("unknown format 'int3'") != std::string::npos);
    QVERIFY(bandsFromText("0-35:fp8/qkv", 36, r).find("unknown scope 'qkv'") != std::string::npos);
    QVERIFY(bandsFromText("a-35:fp8", 36, r).find("integers") != std::string::npos);
    // INT_MAX as the last layer: rejected before last + 1 could overflow (UBSan, fuzz).
    QCOMPARE(bandsFromText("0-2147483647:fp8", 36, r),
             std::string("band 1 '0-2147483647:fp8': last layer 2147483647 is beyond the "
                         "model's last layer 35"));
    QVERIFY(bandsFromText("0-36:fp8", 36, r).find("beyond the model's last layer 35") !=
            std::string::npos);
    QVERIFY(bandsFromText("0-9:fp8;10-19:fp8;20-29:bf16;30-35:fp8", 36, r).find("more than 3") !=
            std::string::npos);
}

void TestQualitySet::csvImportAndJsonRoundTrip()
{
    const std::string csv = kQualityHeader +
                            "Qwen3-8B,awq,false,bf16,0-2:bf16;3-35:int4_wo/full,0.0123,train\n"
                            "Qwen/Qwen3-8B,max,1,fp8,0-35:fp8/mlp,0.0009,heldout\n";
    const QualitySet set = parseQualitySetCsv(csv, "m.csv", models_);
    QVERIFY(!set.synthetic);
    QCOMPARE(set.rows.size(), std::size_t{2});
    QCOMPARE(models_[static_cast<std::size_t>(set.rows[1].model)].name, std::string("Qwen3-8B"));
    QVERIFY(set.rows[1].lmHeadQuantized && set.rows[1].kv == KvFormat::Fp8 &&
            set.rows[1].split == Split::Heldout);
    QCOMPARE(set.rows[0].rmqd, 0.0123);
    QTemporaryDir dir;
    const std::string file = dir.filePath("set.json").toStdString();
    writeQualitySet(set, models_, file);
    const QualitySet back = loadQualitySet(file, models_);
    QCOMPARE(back.rows.size(), set.rows.size());
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        QVERIFY(back.rows[i].recipe == set.rows[i].recipe);
        QCOMPARE(back.rows[i].rmqd, set.rows[i].rmqd);
        QVERIFY(back.rows[i].algorithm == set.rows[i].algorithm &&
                back.rows[i].split == set.rows[i].split);
    }
}

void TestQualitySet::badRows_data()
{
    QTest::addColumn<QString>("row");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown model") << "Qwen9,max,false,bf16,0-35:fp8,0.001,train"
                                   << "m.csv: line 2, column 'model': unknown model 'Qwen9'";
    QTest::newRow("bands") << "Qwen3-8B,max,false,bf16,0-30:fp8,0.001,train"
                           << "column 'bands': bands end at layer 31 but the model has 36 layers";
    QTest::newRow("algorithm fit")
        << "Qwen3-8B,max,false,bf16,0-35:int4_wo,0.001,train"
        << "column 'algorithm': algorithm max cannot calibrate a int4_wo band";
    QTest::newRow("lm_head on bf16")
        << "Qwen3-8B,max,true,bf16,0-9:fp8;10-35:bf16,0.001,train"
        << "column 'lm_head_quantized': lm_head runs at the last band's format";
    QTest::newRow("zero rmqd") << "Qwen3-8B,max,false,bf16,0-35:fp8,0,train"
                               << "expected an RMQD in (0, 1e300] (nats), found '0'";
    // Beyond the JSON reader's bound: once accepted here, a set that JSON would not read back.
    QTest::newRow("huge rmqd") << "Qwen3-8B,max,false,bf16,0-35:fp8,1e308,train"
                               << "expected an RMQD in (0, 1e300] (nats), found '1e308'";
    QTest::newRow("infinite rmqd") << "Qwen3-8B,max,false,bf16,0-35:fp8,inf,train"
                                   << "found 'inf'";
    QTest::newRow("text rmqd") << "Qwen3-8B,max,false,bf16,0-35:fp8,low,train"
                               << "found 'low'";
    QTest::newRow("split") << "Qwen3-8B,max,false,bf16,0-35:fp8,0.001,test"
                           << "expected train or heldout";
    QTest::newRow("kv") << "Qwen3-8B,max,false,int8,0-35:fp8,0.001,train"
                        << "unknown KV format 'int8'";
    QTest::newRow("flag") << "Qwen3-8B,max,yes,bf16,0-35:fp8,0.001,train"
                          << "expected true/false or 1/0";
}

void TestQualitySet::badRows()
{
    QFETCH(QString, row);
    QFETCH(QString, expected);
    const std::string err = errorOf(row.toStdString() + "\n", models_);
    QVERIFY2(err.find(expected.toStdString()) != std::string::npos, err.c_str());
}

void TestQualitySet::jsonErrorsNamePointer()
{
    Json j = {{"schema_version", 1},
              {"kind", "acsel-quality-set"},
              {"synthetic", false},
              {"provenance", "lab"},
              {"rows", Json::array({{{"model", "Qwen3-8B"},
                                     {"algorithm", "max"},
                                     {"lm_head_quantized", false},
                                     {"kv", "bf16"},
                                     {"bands", "0-35:fp8/full"},
                                     {"rmqd", 0.001},
                                     {"split", "train"}}})}};
    QCOMPARE(parseQualitySetJson(j, "q.json", models_).rows.size(), std::size_t{1});
    auto err = [&](const Json& bad) {
        try {
            parseQualitySetJson(bad, "q.json", models_);
        } catch (const LoadError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Json bad = j;
    bad["rows"][0]["rmqd"] = "0.1";
    QVERIFY(err(bad).find("q.json: /rows/0/rmqd: expected a number") != std::string::npos);
    bad = j;
    bad["rows"][0]["bands"] = "0-35:fp8/mlp;";
    QCOMPARE(err(bad), std::string("no error")); // a trailing separator is harmless
    bad = j;
    bad.erase("synthetic");
    QVERIFY(err(bad).find("/synthetic: missing field") != std::string::npos);
    bad = j;
    bad["rows"] = Json::array();
    QVERIFY(err(bad).find("/rows: expected at least one measurement row") != std::string::npos);
}

// The same configuration twice, however spelt (HF id for the name, 0 for false, an explicit
// "/full"), is refused at the second row, whatever its RMQD and split; another scope is another
// configuration.
void TestQualitySet::duplicateConfigurationsRefused()
{
    QCOMPARE(errorOf("Qwen3-8B,max,false,bf16,0-35:fp8,0.001,train\n"
                     "Qwen3-8B,max,false,bf16,0-35:fp8/mlp,0.002,train\n"
                     "Qwen/Qwen3-8B,max,0,bf16,0-35:fp8/full,0.003,heldout\n",
                     models_),
             std::string("m.csv: line 4: duplicate configuration Qwen3-8B max kv bf16 lm_head bf16 "
                         "bands 0-35:fp8/full (first at line 2); keep one measurement per "
                         "configuration"));
    QCOMPARE(errorOf("Qwen3-8B,max,false,bf16,0-35:fp8,0.001,train\n"
                     "Qwen3-8B,max,false,fp8,0-35:fp8,0.001,train\n",
                     models_),
             std::string("no error")); // the KV format differs
    const Json row = {{"model", "Qwen3-8B"}, {"algorithm", "max"},  {"lm_head_quantized", false},
                      {"kv", "bf16"},        {"bands", "0-35:fp8"}, {"rmqd", 0.001},
                      {"split", "train"}};
    Json twice = row;
    twice["rmqd"] = 0.5;
    const Json j = {{"schema_version", 1},
                    {"kind", "acsel-quality-set"},
                    {"synthetic", false},
                    {"provenance", "lab"},
                    {"rows", Json::array({row, twice})}};
    try {
        parseQualitySetJson(j, "q.json", models_);
        QFAIL("a duplicated row was accepted");
    } catch (const LoadError& e) {
        QCOMPARE(std::string(e.what()),
                 std::string("q.json: /rows/1: duplicate configuration Qwen3-8B max kv bf16 "
                             "lm_head bf16 bands 0-35:fp8/full (first at /rows/0); keep one "
                             "measurement per configuration"));
    }
}

ACSEL_TEST_APPLESS_MAIN(TestQualitySet)
#include "test_quality_set.moc"
