// The configuration JSON: a hand-written document read into exactly the values it states,
// write -> parse round trips, and a clear LoadError (file + JSON pointer) for each bad input.
#include "core/data/configjson.h"
#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "testmain.h"

#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

const char* const kDoc = R"({
  "schema_version": 1,
  "tool": {"name": "acsel-studio", "version": "0.1.0"},
  "model": {"name": "Qwen3-8B", "hf_id": "Qwen/Qwen3-8B"},
  "stack": "b200_sxm/trtllm",
  "request": {"isl": 2048, "osl": 128, "concurrency": 4, "ttft_budget_ms": 250.5,
              "tpot_budget_ms": 12.25, "memory_budget_gib": 48, "mode": "continuous"},
  "config": {"batch": 8,
             "bands": [{"first_layer": 0, "last_layer": 9, "format": "fp8", "scope": "full"},
                       {"first_layer": 10, "last_layer": 27, "format": "nvfp4", "scope": "mlp"},
                       {"first_layer": 28, "last_layer": 35, "format": "bf16", "scope": "full"}],
             "algorithm": "max", "lm_head_quantized": false, "kv_cache": "fp8"},
  "predictions": {"ttft_ms": 201.75, "tpot_ms": 9.5, "memory_gib": 17.125, "rmqd": 0.0125,
                  "note": "RMQD from synthetic quality data"}
})";

Json doc()
{
    return Json::parse(kDoc);
}

Workspace workspace()
{
    return loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
}

} // namespace

class TestConfigJson : public QObject
{
    Q_OBJECT
private slots:
    void readsWhatTheFileSays();
    void roundTrips();
    void predictionsAndToolAreOptional();
    void badInputNamesTheField_data();
    void badInputNamesTheField();
    void resolvesTheModelInTheWorkspace();
    void tensorParallelFields();
    void expertParallelField();
};

void TestConfigJson::readsWhatTheFileSays()
{
    const ConfigDocument d = parseConfigJson(doc(), "c.json");
    QCOMPARE(d.modelName, std::string("Qwen3-8B"));
    QCOMPARE(d.modelHfId, std::string("Qwen/Qwen3-8B"));
    QCOMPARE(d.request.stack, std::string("b200_sxm/trtllm"));
    QCOMPARE(d.request.isl, 2048);
    QCOMPARE(d.request.osl, 128);
    QCOMPARE(d.request.concurrency, 4);
    QCOMPARE(d.request.ttftBudgetMs, 250.5);
    QCOMPARE(d.request.tpotBudgetMs, 12.25);
    QCOMPARE(d.request.memBudgetGiB, 48.0);
    QVERIFY(d.request.mode == ServingMode::Continuous);
    QCOMPARE(d.config.batch, 8);
    const BandRecipe want = BandRecipe::fromCuts(
        36, {10, 28},
        {{Format::Fp8, Scope::Full}, {Format::Nvfp4, Scope::Mlp}, {Format::Bf16, Scope::Full}});
    QVERIFY(d.config.recipe == want);
    QVERIFY(d.config.algorithm == Algorithm::Max);
    QVERIFY(!d.config.lmHeadQuantized);
    QVERIFY(d.config.kv == KvFormat::Fp8);
    QVERIFY(d.predictions.has_value());
    QCOMPARE(d.predictions->ttftMs, 201.75);
    QCOMPARE(d.predictions->tpotMs, 9.5);
    QCOMPARE(d.predictions->memoryGiB(), 17.125);
    QCOMPARE(d.predictions->rmqd, 0.0125);
    QCOMPARE(d.predictionNote, std::string("RMQD from synthetic quality data"));
    QCOMPARE(d.toolName, std::string("acsel-studio"));
}

void TestConfigJson::roundTrips()
{
    ConfigDocument d = parseConfigJson(doc(), "c.json");
    d.request.ttftBudgetMs = 0.1 + 0.2; // not exactly representable: must survive to the bit
    d.predictions->rmqd = 1.0 / 3.0;
    const std::string text = writeConfigJson(d);
    const ConfigDocument back = parseConfigJson(Json::parse(text), "w.json");
    QVERIFY(back == d);
    QCOMPARE(writeConfigJson(back), text);
    QCOMPARE(text.back(), '\n');
    // Written in schema order, not alphabetically.
    QVERIFY(text.find("\"schema_version\"") < text.find("\"model\""));
    QVERIFY(text.find("\"first_layer\"") < text.find("\"last_layer\""));
}

void TestConfigJson::predictionsAndToolAreOptional()
{
    Json j = doc();
    j.erase("predictions");
    j.erase("tool");
    const ConfigDocument d = parseConfigJson(j, "c.json");
    QVERIFY(!d.predictions);
    QCOMPARE(d.toolVersion, std::string(ACSEL_VERSION));
    QVERIFY(parseConfigJson(Json::parse(writeConfigJson(d)), "w.json") == d);
}

void TestConfigJson::badInputNamesTheField_data()
{
    QTest::addColumn<QString>("patch"); // a JSON Patch applied to the good document
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const char* patch, const char* where, const char* message) {
        QTest::newRow(name) << patch << where << message;
    };
    row("schema version", R"([{"op":"replace","path":"/schema_version","value":2}])",
        "/schema_version", "written by a newer ACSeL Studio (schema 2");
    row("unknown top key", R"([{"op":"add","path":"/predicitons","value":{}}])", "/predicitons",
        "unknown field 'predicitons'");
    row("missing batch", R"([{"op":"remove","path":"/config/batch"}])", "/config/batch",
        "missing field 'batch'");
    row("batch below concurrency", R"([{"op":"replace","path":"/config/batch","value":2}])",
        "/config/batch", "batch 2 is below the request's concurrency 4");
    row("gap between bands",
        R"([{"op":"replace","path":"/config/bands/1/first_layer","value":11}])", "/config/bands",
        "band 2 starts at layer 11, expected 10");
    row("bad format", R"([{"op":"replace","path":"/config/bands/1/format","value":"fp6"}])",
        "/config/bands/1/format", "unknown value 'fp6'");
    row("bad scope", R"([{"op":"replace","path":"/config/bands/0/scope","value":"all"}])",
        "/config/bands/0/scope", "unknown value 'all'");
    row("last before first", R"([{"op":"replace","path":"/config/bands/0/last_layer","value":-1}])",
        "/config/bands/0/last_layer", "expected an integer in [0,");
    row("four bands",
        R"([{"op":"add","path":"/config/bands/-","value":{"first_layer":36,"last_layer":36,"format":"fp8","scope":"full"}}])",
        "/config/bands", "expected 1 to 3 bands, found 4");
    row("bf16 with mlp scope", R"([{"op":"replace","path":"/config/bands/2/scope","value":"mlp"}])",
        "/config/bands", "a bf16 band quantizes nothing");
    row("kv cache", R"([{"op":"replace","path":"/config/kv_cache","value":"int8"}])",
        "/config/kv_cache", "expected bf16 or fp8");
    row("lm_head type", R"([{"op":"replace","path":"/config/lm_head_quantized","value":"no"}])",
        "/config/lm_head_quantized", "expected true or false");
    row("negative prediction", R"([{"op":"replace","path":"/predictions/rmqd","value":-0.1}])",
        "/predictions/rmqd", "expected a number in [0,");
    row("zero budget", R"([{"op":"replace","path":"/request/tpot_budget_ms","value":0}])",
        "/request/tpot_budget_ms", "expected a number in");
    row("mode", R"([{"op":"replace","path":"/request/mode","value":"batch"}])", "/request/mode",
        "expected static or continuous");
    row("empty stack", R"([{"op":"replace","path":"/stack","value":""}])", "/stack",
        "expected a non-empty string");
    row("algorithm", R"([{"op":"replace","path":"/config/algorithm","value":"awq_lite"}])",
        "/config/algorithm", "expected max, smoothquant, awq or gptq");
    row("tp not a power of two",
        R"([{"op":"add","path":"/request/gpus","value":8},{"op":"add","path":"/config/tp","value":3}])",
        "/config/tp", "tp 3 is not a power of two (1, 2, 4 or 8)");
    row("tp above gpus", R"([{"op":"add","path":"/config/tp","value":2}])", "/config/tp",
        "tp 2 exceeds the request's gpus 1 (/request/gpus)");
    row("tp 16", R"([{"op":"add","path":"/config/tp","value":16}])", "/config/tp",
        "expected an integer in [1, 8]");
    row("gpus 9", R"([{"op":"add","path":"/request/gpus","value":9}])", "/request/gpus",
        "expected an integer in [1, 8]");
    row("gpus 0", R"([{"op":"add","path":"/request/gpus","value":0}])", "/request/gpus",
        "expected an integer in [1, 8]");
}

void TestConfigJson::badInputNamesTheField()
{
    QFETCH(QString, patch);
    QFETCH(QString, where);
    QFETCH(QString, message);
    const Json bad = doc().patch(Json::parse(patch.toStdString()));
    try {
        (void)parseConfigJson(bad, "bad.json");
        QFAIL("accepted a bad document");
    } catch (const LoadError& e) {
        QCOMPARE(e.file(), std::string("bad.json"));
        QCOMPARE(QString::fromStdString(e.where()), where);
        QVERIFY2(e.message().find(message.toStdString()) != std::string::npos, e.what());
    }
}

void TestConfigJson::resolvesTheModelInTheWorkspace()
{
    const Workspace ws = workspace();
    ConfigDocument d = parseConfigJson(doc(), "c.json");
    d.config.model = -1;
    resolveModel(d, ws, "c.json");
    QCOMPARE(ws.models[static_cast<std::size_t>(d.config.model)].name, std::string("Qwen3-8B"));
    auto failsAt = [&](ConfigDocument x, const std::string& where, const std::string& part) {
        try {
            resolveModel(x, ws, "c.json");
        } catch (const LoadError& e) {
            return e.where() == where && e.message().find(part) != std::string::npos;
        }
        return false;
    };
    ConfigDocument unknown = d;
    unknown.modelName = "Nope-1B";
    unknown.modelHfId = "nobody/nope";
    QVERIFY(failsAt(unknown, "/model", "is not in the workspace"));
    // A short name the workspace lacks for an hf_id it has is refused, not resolved by the
    // hf_id: the file names the model wrongly.
    ConfigDocument misnamed = d;
    misnamed.modelName = "my-qwen";
    QVERIFY(failsAt(misnamed, "/model/name",
                    "model 'my-qwen' is not in the workspace; its hf_id Qwen/Qwen3-8B is the "
                    "workspace's 'Qwen3-8B' (expected that name)"));
    ConfigDocument mismatch = parseConfigJson(doc(), "c.json");
    mismatch.modelHfId = "Qwen/Qwen3-32B";
    QVERIFY(failsAt(mismatch, "/model/hf_id", "is Qwen/Qwen3-8B in the workspace"));
    ConfigDocument layers = parseConfigJson(doc(), "c.json");
    layers.modelName = "Qwen3-0.6B"; // 28 layers, the bands cover 36
    layers.modelHfId = "Qwen/Qwen3-0.6B";
    QVERIFY(failsAt(layers, "/config/bands", "but the model has 28 layers"));
    // makeConfigDocument fills the model from the workspace.
    Config c = d.config;
    const ConfigDocument made = makeConfigDocument(ws, c, d.request);
    QCOMPARE(made.modelHfId, std::string("Qwen/Qwen3-8B"));
    QVERIFY(!made.predictions);
}

void TestConfigJson::tensorParallelFields()
{
    // A file written before tensor parallelism: one GPU, tp 1.
    const ConfigDocument old = parseConfigJson(doc(), "c.json");
    QCOMPARE(old.request.gpus, 1);
    QCOMPARE(old.config.tp, 1);
    const Json request{
        {"schema_version", 1}, {"stack", "b200_sxm/trtllm"}, {"request", doc()["request"]}};
    QCOMPARE(parseRequestJson(request, "r.json").gpus, 1);
    // Written always, read back.
    ConfigDocument d = old;
    d.request.gpus = 4;
    d.config.tp = 2;
    const std::string text = writeConfigJson(d);
    QVERIFY(text.find("\"gpus\": 4") != std::string::npos);
    QVERIFY(text.find("\"tp\": 2") != std::string::npos);
    const ConfigDocument back = parseConfigJson(Json::parse(text), "w.json");
    QCOMPARE(back.request.gpus, 4);
    QCOMPARE(back.config.tp, 2);
    QVERIFY(back == d);
}

void TestConfigJson::expertParallelField()
{
    const Workspace ws = workspace();
    ConfigDocument d = parseConfigJson(doc(), "c.json");
    QCOMPARE(d.config.moeEp, 1);
    QVERIFY(writeConfigJson(d).find("moe_ep") == std::string::npos); // absent for 1
    d.modelName = "Qwen3-235B-A22B";                                 // 94 layers, 128 experts
    d.modelHfId = "Qwen/Qwen3-235B-A22B";
    d.config.recipe = BandRecipe::uniform(94, Format::Fp8, Scope::Mlp);
    d.request.gpus = 8;
    d.config.tp = 8;
    d.config.moeEp = 4;
    const std::string text = writeConfigJson(d);
    QVERIFY(text.find("\"moe_ep\": 4") != std::string::npos);
    ConfigDocument back = parseConfigJson(Json::parse(text), "w.json");
    QCOMPARE(back.config.moeEp, 4);
    resolveModel(back, ws, "w.json");
    auto failure = [&](ConfigDocument x) -> std::string {
        try {
            resolveModel(x, ws, "w.json");
        } catch (const LoadError& e) {
            return e.where() + ": " + e.message();
        }
        return {};
    };
    back.config.moeEp = 3;
    QCOMPARE(failure(back), std::string("/config/moe_ep: moe_ep 3 does not divide tp 8"));
    ConfigDocument dense = parseConfigJson(doc(), "c.json");
    dense.config.moeEp = 2;
    QCOMPARE(failure(dense), std::string("/config/moe_ep: moe_ep 2: Qwen3-8B has no experts"));
}

ACSEL_TEST_APPLESS_MAIN(TestConfigJson)
#include "test_configjson.moc"
