// acsel info end to end through the CLI's dispatcher: output, JSON, and bad input.
#include "clirun.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace acsel::cli::test;

class TestCliInfo : public QObject
{
    Q_OBJECT
private slots:
    void helpAndUnknown();
    void listsAllStacksAndModels();
    void noTablesStillWorks();
    void namesTheTablesFolderUsed();
    void missingTablesDirIsExit2();
    void brokenWorkspaceFieldIsExit2();
    void listsMoeActiveParameters();
    void denseModelTypeWithExpertsIsExit2();
    void unknownOptionIsExit2();
};

void TestCliInfo::helpAndUnknown()
{
    const Run help = run({"help"});
    QCOMPARE(help.code, 0);
    QVERIFY(contains(help.out, "info"));
    const Run bad = run({"frobnicate"});
    QCOMPARE(bad.code, 2);
    QVERIFY(contains(bad.err, "unknown command 'frobnicate'"));
}

void TestCliInfo::listsAllStacksAndModels()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const Run r = run({"info", "--workspace", kWorkspace, "--tables", kTables, "--json"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    // 18 measured stacks from the tables, plus the spec-only GPUs (A6000, Thor) estimated.
    std::size_t measured = 0, estimated = 0;
    for (const auto& s : j["stacks"]) {
        if (s["latency_source"] == "tables")
            ++measured;
        else
            estimated += contains(s["system"].get<std::string>(), "a6000") ||
                         contains(s["system"].get<std::string>(), "thor");
    }
    QCOMPARE(measured, std::size_t{18});
    QVERIFY(estimated >= 2);
    QCOMPARE(measured + estimated, j["stacks"].size());
    QCOMPARE(j["models"].size(), std::size_t{8});
    bool sawNvfp4 = false;
    for (const auto& s : j["stacks"]) {
        QVERIFY(!s["formats"].empty());
        if (s["id"] == "b200_sxm/trtllm")
            for (const auto& f : s["formats"])
                sawNvfp4 = sawNvfp4 || f == "nvfp4";
        if (s["id"] == "a100_sxm/trtllm")
            QCOMPARE(s["formats"].size(), std::size_t{4}); // int4_wo, int8_wo, int8 (sq), bf16
    }
    QVERIFY(sawNvfp4);
    for (const auto& m : j["models"])
        if (m["name"] == "Qwen3-8B")
            QVERIFY(std::abs(m["params"].get<double>() - 8.19e9) < 0.02 * 8.19e9);
}

void TestCliInfo::noTablesStillWorks()
{
    qputenv("ACSEL_TABLES", "");
    QTemporaryDir empty;
    // Run from a folder with no ../shared: the source-tree default may still find tables, so
    // this checks only that the command succeeds and says where tables came from or that none.
    const Run r = run({"info", "--workspace", kWorkspace});
    QCOMPARE(r.code, 0);
    QVERIFY(contains(r.out, "note:"));
}

// The banner names the folder the stacks were read from and which setting chose it
// (app/common/paths.h: --tables before ACSEL_TABLES; ACSEL_TABLES=none means none, and an
// ACSEL_TABLES that is no tables folder is exit 2 naming the variable).
void TestCliInfo::namesTheTablesFolderUsed()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir other;
    qputenv("ACSEL_TABLES", other.path().toUtf8());
    Run r = run({"info", "--workspace", kWorkspace, "--tables", kTables});
    QCOMPARE(r.code, 0);
    QVERIFY2(contains(r.out, "note: Operator tables from " + kTables + " (--tables)\n"),
             r.out.c_str());
    qputenv("ACSEL_TABLES", QByteArray::fromStdString(kTables));
    r = run({"info", "--workspace", kWorkspace});
    QCOMPARE(r.code, 0);
    QVERIFY2(contains(r.out, "note: Operator tables from " + kTables + " (ACSEL_TABLES)\n"),
             r.out.c_str());
    qputenv("ACSEL_TABLES", "none");
    r = run({"info", "--workspace", kWorkspace});
    QCOMPARE(r.code, 0);
    QVERIFY2(contains(r.out, "note: ACSEL_TABLES=none: running without operator tables\n"),
             r.out.c_str());
    // A file, an empty folder: exit 2, one line naming the variable (before: noted, and the
    // search ran on spec-sheet estimates).
    QTemporaryDir empty;
    for (const std::string& bad : {std::string("/etc/passwd"), empty.path().toStdString()}) {
        qputenv("ACSEL_TABLES", QByteArray::fromStdString(bad));
        r = run({"search", "--workspace", kWorkspace, "--stack", "h100_sxm/vllm"});
        QCOMPARE(r.code, 2);
        QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
        QVERIFY2(contains(r.err, bad + ": ACSEL_TABLES: "), r.err.c_str());
        QVERIFY2(contains(r.err, "ACSEL_TABLES must name a tables folder, or be none"),
                 r.err.c_str());
    }
    qputenv("ACSEL_TABLES", "");
}

void TestCliInfo::missingTablesDirIsExit2()
{
    const Run r = run({"info", "--workspace", kWorkspace, "--tables", "/nonexistent"});
    QCOMPARE(r.code, 2);
    QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    QVERIFY(contains(r.err, "/nonexistent"));
    QVERIFY(contains(r.err, "does not exist"));
}

void TestCliInfo::brokenWorkspaceFieldIsExit2()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("ws.json").toStdString();
    auto j = readJson(kWorkspace);
    j["models"][2]["config"]["num_hidden_layers"] = "thirty-six";
    std::ofstream(path) << j.dump();
    const Run r = run({"info", "--workspace", path, "--tables", kTables});
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "/models/2/config/num_hidden_layers: expected an integer"),
             r.err.c_str());
    QVERIFY(contains(r.err, path));
}

void TestCliInfo::unknownOptionIsExit2()
{
    const Run r = run({"info", "--frob"});
    QCOMPARE(r.code, 2);
    QVERIFY(contains(r.err, "unknown option --frob"));
}

// Qwen3-30B-A3B: 30,532,122,624 parameters, 3,353,032,704 active (tests/core/test_moe.cpp
// works both out from the config.json).
void TestCliInfo::listsMoeActiveParameters()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const Run r = run({"info", "--workspace", kWorkspace, "--tables", kTables, "--json"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    bool seen = false;
    for (const auto& m : j["models"])
        if (m["name"] == "Qwen3-30B-A3B") {
            seen = true;
            QCOMPARE(m["params"].get<std::int64_t>(), std::int64_t{30'532'122'624});
            QCOMPARE(m["moe"]["active_params"].get<std::int64_t>(), std::int64_t{3'353'032'704});
            QCOMPARE(m["moe"]["experts"].get<int>(), 128);
        }
    QVERIFY(seen);
    const Run text = run({"info", "--workspace", kWorkspace, "--tables", kTables});
    QVERIFY(contains(text.out, "30.53 B params  Qwen/Qwen3-30B-A3B  MoE: 3.35 B active"));
}

// Qwen3-30B-A3B's config with model_type qwen3 would be priced as a 3.3 B dense model.
void TestCliInfo::denseModelTypeWithExpertsIsExit2()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("ws.json").toStdString();
    auto j = readJson(kWorkspace);
    for (auto& m : j["models"])
        if (m["name"] == "Qwen3-30B-A3B")
            m["config"]["model_type"] = "qwen3";
    std::ofstream(path) << j.dump();
    const Run r = run({"info", "--workspace", path, "--tables", kTables});
    QCOMPARE(r.code, 2);
    QVERIFY(contains(r.err, "/config/num_experts"));
    QVERIFY(contains(r.err, "dense decoder"));
    QCOMPARE(std::count(r.err.begin(), r.err.end(), '\n'), std::ptrdiff_t{1});
}

ACSEL_TEST_APPLESS_MAIN(TestCliInfo)
#include "test_cli_info.moc"
