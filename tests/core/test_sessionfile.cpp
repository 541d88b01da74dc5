// The session file: every field survives write -> parse; paths are written relative to the
// session's folder and read back absolute; each missing or mistyped field is a LoadError naming
// the file and its JSON pointer; a newer schema says so before anything else.
#include "core/data/loaderror.h"
#include "core/session/sessionfile.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <functional>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

ConfigDocument configDoc(const std::string& name, Format middle, int batch, const Request& q)
{
    ConfigDocument d;
    d.modelName = name;
    d.modelHfId = "Qwen/" + name;
    d.request = q;
    d.config.batch = batch;
    d.config.recipe.push({0, 10, Format::Fp8, Scope::Full});
    d.config.recipe.push({10, 28, middle, Scope::Mlp});
    d.config.recipe.push({28, 36, Format::Bf16, Scope::Full});
    d.config.algorithm = Algorithm::Awq;
    d.config.lmHeadQuantized = true;
    d.config.kv = KvFormat::Fp8;
    d.config.tp = 2;
    d.predictions =
        Prediction{.ttftMs = 201.75, .tpotMs = 9.5, .memoryBytes = 17.125 * kGiB, .rmqd = 0.0125};
    d.predictionNote = "synthetic";
    return d;
}

// Every field away from its default, so a field the writer forgets cannot round trip.
SessionDocument fullSession(const std::string& root)
{
    SessionDocument s;
    s.workspaceFile = root + "/project/workspace.json";
    s.tablesDir = root + "/tables";
    s.fmcFile = root + "/project/fmc/coeffs.json";
    s.request = {"b200_sxm/trtllm", 2048, 128, 4, 250.5, 12.25, 48, ServingMode::Continuous, 4, {}};
    s.margin = {7.5};
    s.confidence = 0.95;
    s.filter = {{"Qwen3-8B", "Qwen3-32B"}, {Format::Fp8, Format::Nvfp4}, {Scope::Mlp}};
    s.searchAlgorithm = SearchAlgorithm("hc");
    s.view = {"normalised", true, true, "format_family"};
    s.edited = configDoc("Qwen3-8B", Format::Nvfp4, 8, s.request);
    s.pinned = {{"Recommended", configDoc("Qwen3-32B", Format::Int4Wo, 4, s.request)},
                {"Edited", configDoc("Qwen3-8B", Format::Int8Wo, 16, s.request)}};
    s.cleanExit = false;
    s.sessionFile = root + "/project/sessions/a.acsel-session";
    s.toolVersion = "9.9.9";
    return s;
}

Json written(const SessionDocument& s, const std::string& file)
{
    return Json::parse(writeSessionJson(s, file, SessionPaths::Absolute));
}

// The LoadError of parsing j, or a failure when it parses.
LoadError errorOf(const Json& j, const std::string& file = "s.acsel-session")
{
    try {
        parseSessionJson(j, file);
    } catch (const LoadError& e) {
        return e;
    }
    return LoadError("", "", "parsed without an error");
}

} // namespace

class TestSessionFile : public QObject
{
    Q_OBJECT
private slots:
    void roundTripsEveryField()
    {
        const SessionDocument s = fullSession("/data");
        const std::string file = "/data/project/sessions/a.acsel-session";
        const Json written = Json::parse(writeSessionJson(s, file, SessionPaths::Absolute));
        QCOMPARE(written["search_algorithm"].get<std::string>(), std::string("hill_climb"));
        const SessionDocument back = parseSessionJson(written, file);
        QVERIFY(back == s);
        QVERIFY(!back.cleanExit);
        QCOMPARE(back.pinned.size(), std::size_t(2));
        QCOMPARE(back.pinned[1].document.config.batch, 16);
        QVERIFY(back.edited->config.recipe[1].format == Format::Nvfp4);
        QCOMPARE(back.view.latencyAxis, std::string("normalised"));
        QVERIFY(back.filter.scopes == std::vector<Scope>{Scope::Mlp});
        QCOMPARE(back.request.gpus, 4);
        QCOMPARE(back.pinned[0].document.config.tp, 2);
        QCOMPARE(written["margin_percent"].get<double>(), 7.5);
        QCOMPARE(back.margin.percent, 7.5);
        QCOMPARE(back.confidence, 0.95);
        // Off (the median line) is left out of the file and reads back as off.
        SessionDocument off = s;
        off.confidence = 0.5;
        const Json j = Json::parse(writeSessionJson(off, file, SessionPaths::Absolute));
        QVERIFY(!j.contains("confidence"));
        QVERIFY(parseSessionJson(j, file) == off);
    }

    // Schema 1 had no margin nor confidence: such a file opens with the budgets as given (0 %);
    // a schema 1 file with a margin is refused (the field came with schema 2).
    void aSchemaOneSessionHasNoMargin()
    {
        SessionDocument s = fullSession("/data");
        const std::string file = "/data/project/sessions/a.acsel-session";
        Json j = written(s, file);
        j["schema_version"] = 1;
        j.erase("confidence");
        QCOMPARE(errorOf(j).where(), std::string("/margin_percent"));
        j.erase("margin_percent");
        const SessionDocument back = parseSessionJson(j, file);
        QCOMPARE(back.margin.percent, 0.0);
        s.margin = {};
        s.confidence = 0.5;
        QVERIFY(back == s);
    }

    // A session written before tensor parallelism (no request gpus, no config tp) is one GPU.
    void sessionsWithoutGpusAreOneGpu()
    {
        SessionDocument s = fullSession("/data");
        s.request.gpus = 1;
        s.edited->config.tp = 1;
        s.edited->request.gpus = 1;
        for (auto& p : s.pinned) {
            p.document.config.tp = 1;
            p.document.request.gpus = 1;
        }
        const std::string file = "/data/project/sessions/a.acsel-session";
        Json j = written(s, file);
        int erased = 0;
        const std::function<void(Json&)> strip = [&](Json& node) {
            if (!node.is_object() && !node.is_array())
                return;
            if (node.is_object())
                erased += static_cast<int>(node.erase("gpus") + node.erase("tp"));
            for (Json& child : node)
                strip(child);
        };
        strip(j);
        QVERIFY(erased >= 2);
        const SessionDocument back = parseSessionJson(j, file);
        QCOMPARE(back.request.gpus, 1);
        QCOMPARE(back.pinned[1].document.config.tp, 1);
        QVERIFY(back == s);
    }

    void automaticAlgorithmRoundTrips()
    {
        // The default: no searcher fixed, the serving mode's (acsel search without --algo).
        SessionDocument s = fullSession("/data");
        s.searchAlgorithm.reset();
        QVERIFY(!SessionDocument{}.searchAlgorithm);
        const std::string file = "/data/project/sessions/a.acsel-session";
        const Json j = Json::parse(writeSessionJson(s, file, SessionPaths::Absolute));
        QCOMPARE(j["search_algorithm"].get<std::string>(), std::string("automatic"));
        const SessionDocument back = parseSessionJson(j, file);
        QVERIFY(!back.searchAlgorithm);
        QVERIFY(back == s);
        // Each saved name still reads as its searcher.
        for (std::size_t i = 0; i < searchers().size(); ++i) {
            Json named = j;
            named["search_algorithm"] = searchers()[i].savedName;
            QVERIFY(parseSessionJson(named, file).searchAlgorithm == SearchAlgorithm::at(i));
        }
    }

    void relativePathsResolveAgainstTheSessionFolder()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        const SessionDocument s = fullSession(root);
        const std::string file = root + "/project/sessions/a.acsel-session";
        const Json j = Json::parse(writeSessionJson(s, file, SessionPaths::RelativeToFile));
        QCOMPARE(j["workspace"]["file"].get<std::string>(), std::string("../workspace.json"));
        QCOMPARE(j["workspace"]["tables_dir"].get<std::string>(), std::string("../../tables"));
        QCOMPARE(j["workspace"]["fmc_file"].get<std::string>(), std::string("../fmc/coeffs.json"));
        QCOMPARE(j["session_file"].get<std::string>(), std::string("a.acsel-session"));
        const SessionDocument back = parseSessionJson(j, file);
        QCOMPARE(back.workspaceFile, root + "/project/workspace.json");
        QCOMPARE(back.tablesDir, root + "/tables");
        QVERIFY(back == s);
        // Absolute paths are kept as written; empty stays empty (no FMC).
        Json k = j;
        k["workspace"]["file"] = "/elsewhere/w.json";
        k["workspace"]["fmc_file"] = "";
        const SessionDocument abs = parseSessionJson(k, file);
        QCOMPARE(abs.workspaceFile, std::string("/elsewhere/w.json"));
        QVERIFY(abs.fmcFile.empty());
    }

    void aSavedSessionIsClean()
    {
        SessionDocument s = fullSession("/d");
        s.cleanExit = true;
        s.sessionFile.clear();
        const Json j = written(s, "/d/s.acsel-session");
        QVERIFY(!j.contains("clean_exit"));
        QVERIFY(!j.contains("session_file")); // optional: a saved session has none
        QVERIFY(parseSessionJson(j, "/d/s.acsel-session").sessionFile.empty());
        QVERIFY(parseSessionJson(j, "/d/s.acsel-session").cleanExit);
        s.edited.reset();
        s.pinned.clear();
        const Json k = written(s, "/d/s.acsel-session");
        QVERIFY(!k.contains("edited"));
        QVERIFY(parseSessionJson(k, "/d/s.acsel-session") == s);
    }

    void missingFieldsNameTheirPointer_data()
    {
        QTest::addColumn<QString>("pointer"); // the field removed
        QTest::addColumn<QString>("where");   // what the error must name
        for (const char* p :
             {"/schema_version", "/tool", "/workspace", "/stack", "/request", "/margin_percent",
              "/filter", "/search_algorithm", "/view", "/pinned"})
            QTest::newRow(p) << p << p;
        QTest::newRow("tables_dir") << "/workspace/tables_dir"
                                    << "/workspace/tables_dir";
        QTest::newRow("isl") << "/request/isl"
                             << "/request/isl";
        QTest::newRow("scopes") << "/filter/scopes"
                                << "/filter/scopes";
        QTest::newRow("log_y") << "/view/log_y"
                               << "/view/log_y";
        QTest::newRow("edited bands") << "/edited/config/bands"
                                      << "/edited/config/bands";
        QTest::newRow("pin label") << "/pinned/1/label"
                                   << "/pinned/1/label";
        QTest::newRow("pin config") << "/pinned/0/configuration"
                                    << "/pinned/0/configuration";
        QTest::newRow("pin model") << "/pinned/0/configuration/model"
                                   << "/pinned/0/configuration/model";
    }
    void missingFieldsNameTheirPointer()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, where);
        Json j = written(fullSession("/d"), "/d/s.acsel-session");
        const Json::json_pointer ptr(pointer.toStdString());
        j[ptr.parent_pointer()].erase(ptr.back());
        const LoadError e = errorOf(j);
        QCOMPARE(QString::fromStdString(e.where()), where);
        QCOMPARE(e.file(), std::string("s.acsel-session"));
    }

    void mistypedFieldsNameTheirPointer_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value"); // JSON text
        QTest::addColumn<QString>("expected");
        QTest::newRow("log_x") << "/view/log_x"
                               << "\"yes\""
                               << "true or false";
        QTest::newRow("axis") << "/view/latency_axis"
                              << "\"e2e\""
                              << "ttft, tpot, normalised";
        QTest::newRow("colour") << "/view/colour_by"
                                << "\"size\""
                                << "model, format_family";
        QTest::newRow("algorithm") << "/search_algorithm"
                                   << "\"greedy\""
                                   << "band_pareto";
        QTest::newRow("algorithm by its CLI name")
            << "/search_algorithm"
            << "\"bp\""
            << "automatic, band_pareto, exact, hill_climb, random";
        QTest::newRow("format") << "/filter/formats/1"
                                << "\"fp4\""
                                << "nvfp4";
        QTest::newRow("scope") << "/filter/scopes/0"
                               << "\"all\""
                               << "full, mlp or attn";
        QTest::newRow("model") << "/filter/models/0"
                               << "3"
                               << "string";
        QTest::newRow("concurrency") << "/request/concurrency"
                                     << "0"
                                     << "";
        QTest::newRow("mode") << "/request/mode"
                              << "\"batch\""
                              << "static or continuous";
        QTest::newRow("clean_exit") << "/clean_exit"
                                    << "1"
                                    << "true or false";
        QTest::newRow("session_file") << "/session_file"
                                      << "1"
                                      << "string";
        QTest::newRow("pinned") << "/pinned"
                                << "{}"
                                << "array";
        QTest::newRow("pin") << "/pinned/0"
                             << "[]"
                             << "{label, configuration}";
        QTest::newRow("pin band") << "/pinned/1/configuration/config/bands/2/format"
                                  << "\"fp16\""
                                  << "bf16";
        QTest::newRow("edited batch") << "/edited/config/batch"
                                      << "2"
                                      << "concurrency";
        QTest::newRow("margin 100") << "/margin_percent"
                                    << "100"
                                    << "margin 100 % is not below 100 (expected a percentage in "
                                       "[0, 100))";
        QTest::newRow("margin -5") << "/margin_percent"
                                   << "-5"
                                   << "margin -5 % is below the smallest accepted, 0";
        QTest::newRow("margin text") << "/margin_percent"
                                     << "\"5\""
                                     << "expected a number";
        QTest::newRow("confidence") << "/confidence"
                                    << "1.5"
                                    << "[0.01, 0.99]";
        QTest::newRow("unknown") << "/colour"
                                 << "\"red\""
                                 << "unknown field 'colour'";
    }
    void mistypedFieldsNameTheirPointer()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        Json j = written(fullSession("/d"), "/d/s.acsel-session");
        j[Json::json_pointer(pointer.toStdString())] = Json::parse(value.toStdString());
        const LoadError e = errorOf(j);
        QCOMPARE(QString::fromStdString(e.where()), pointer);
        QVERIFY2(e.message().find(expected.toStdString()) != std::string::npos, e.what());
    }

    void aNewerSchemaSaysSoFirst()
    {
        Json j = written(fullSession("/d"), "/d/s.acsel-session");
        j["schema_version"] = kSessionSchemaVersion + 1;
        j["future_field"] = 1; // a newer file may carry fields this build does not know
        j.erase("workspace");  // ... or miss ones it needs
        const LoadError e = errorOf(j);
        QCOMPARE(e.where(), std::string("/schema_version"));
        QCOMPARE(e.message(), std::string("written by a newer ACSeL Studio (schema 3, this build "
                                          "reads up to 2)"));
        j["schema_version"] = 0;
        QCOMPARE(errorOf(j).where(), std::string("/schema_version"));
    }

    void badFilesAreLoadErrors()
    {
        QTemporaryDir tmp;
        const std::string missing = tmp.path().toStdString() + "/none.acsel-session";
        try {
            loadSessionFile(missing);
            QFAIL("a missing file loaded");
        } catch (const LoadError& e) {
            QCOMPARE(e.file(), missing);
        }
        QCOMPARE(errorOf(Json::array()).where(), std::string("/"));
    }
};

ACSEL_TEST_APPLESS_MAIN(TestSessionFile)
#include "test_sessionfile.moc"
