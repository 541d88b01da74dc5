// Defects found by re-running the documented commands: a continuous request whose KV cache
// cannot fit is answered (best fitting configuration or "none", exit 3), never an internal
// error, in search, recommend-like runs and the explorer; `-o -` means standard output for
// every command that writes a file; predict warns on stderr when an FMC line was fitted on the
// other serving model.
#include "clirun.h"
#include "core/data/workspacefile.h"
#include "core/search/explorer.h"
#include "core/search/workspaceengine.h"
#include "testmain.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

using namespace acsel;
using namespace acsel::cli::test;

namespace
{

Run searchLong(const std::string& model, const std::string& tokens)
{
    return run(
        {"search",  "--workspace", kWorkspace, "--tables",   kTables,  "--stack", "h100_sxm/trtllm",
         "--model", model,         "--mode",   "continuous", "--isl",  tokens,    "--osl",
         tokens,    "--memory",    "80",       "--ttft",     "100000", "--tpot",  "1000"});
}

// Runs work() with the current folder set to dir, so a stray file named "-" would land there.
template <class Work> Run inFolder(const QTemporaryDir& dir, Work&& work)
{
    const QString previous = QDir::currentPath();
    QDir::setCurrent(dir.path());
    const Run r = work();
    QDir::setCurrent(previous);
    return r;
}

} // namespace

class TestCliEdgeCases : public QObject
{
    Q_OBJECT
private slots:
    void kvThatCannotFitIsRejectedByTheGate();
    void nothingFitsAnswersNoneWithExit3();
    void explorerScoresConfigurationsThatCannotFit();
    void calibrateDashIsStandardOutput();
    void exportDashIsStandardOutput();
    void fitUtilisationDashIsStandardOutput();
    void predictWarnsAboutTheOtherServingModel();
};

// Qwen3-32B, 65,536 + 65,536 tokens on an 80 GiB H100: a 32 GiB bf16 KV cache. Several uniform
// configurations (bf16, fp8 with bf16 KV) cannot hold it; before the fix the FracMix table's
// latency of one of them threw through the search (exit 1, "internal error").
void TestCliEdgeCases::kvThatCannotFitIsRejectedByTheGate()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const Run r = searchLong("Qwen3-32B", "65536");
    QVERIFY2(r.code == 0, (r.out + r.err).c_str());
    QVERIFY2(!contains(r.err, "internal error"), r.err.c_str());
    QVERIFY2(contains(r.out, "gate: admitted"), r.out.c_str());
    // The answer's memory (continuous: with the KV pool's share) is within 80 GiB.
    const auto at = r.out.find("memory ", r.out.find("answer: "));
    QVERIFY(at != std::string::npos);
    QVERIFY(std::stod(r.out.substr(at + 7)) <= 80.0);
}

// Qwen3-0.6B, 1,048,576 + 1,048,576 tokens: 112 GiB of KV even in fp8, nothing fits.
void TestCliEdgeCases::nothingFitsAnswersNoneWithExit3()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const Run r = searchLong("Qwen3-0.6B", "1048576");
    QCOMPARE(r.code, 3);
    QVERIFY2(contains(r.out, "answer: none: no configuration passes the gate"), r.out.c_str());
    QVERIFY2(!contains(r.err, "internal error"), r.err.c_str());
    // The exact search gates every candidate: all are rejected on memory, none throws.
    const Run exact = run({"search", "--workspace", kWorkspace, "--tables", kTables, "--stack",
                           "h100_sxm/trtllm", "--model", "Qwen3-0.6B", "--mode", "continuous",
                           "--isl", "1048576", "--osl", "1048576", "--algo", "exact"});
    QCOMPARE(exact.code, 3);
}

// The GUI's scoring path (Explorer, FracMix table) on the same request: every uniform point is
// scored, the ones that cannot hold one request are beyond the memory budget, none throws.
void TestCliEdgeCases::explorerScoresConfigurationsThatCannotFit()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const WorkspaceEngine engine(loadWorkspace(kWorkspace, kTables), {});
    Request q;
    q.stack = "h100_sxm/trtllm";
    q.isl = 65536;
    q.osl = 65536;
    q.mode = ServingMode::Continuous;
    q.memBudgetGiB = 80;
    q.ttftBudgetMs = 100000;
    q.tpotBudgetMs = 1000;
    SearchOptions o;
    o.models = {*engine.workspace().findModel("Qwen3-32B")};
    o.batches = {1};
    Explorer x;
    const std::atomic<bool> noStop{false};
    QVERIFY(x.buildUniform(engine, q, o, noStop));
    QVERIFY(!x.points().empty());
    std::size_t tooBig = 0;
    for (std::size_t i = 0; i < x.points().size(); ++i) {
        const ExplorerPoint& p = x.points()[i];
        QVERIFY(std::isfinite(p.ttftMs) && std::isfinite(p.tpotMs));
        if (p.memoryGiB > 80.0f) {
            ++tooBig;
            QVERIFY(!x.feasible(i));
        }
    }
    // bf16 weights (61 GiB) next to a 32 GiB KV cache cannot fit.
    QVERIFY(tooBig > 0);
    QVERIFY(x.feasibleCount() > 0);
}

void TestCliEdgeCases::calibrateDashIsStandardOutput()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const Run r = inFolder(dir, [] {
        return run({"calibrate", "--workspace", kWorkspace, "--tables", kTables, "--measurements",
                    kSilicon, "-o", "-"});
    });
    QVERIFY2(r.code == 0, r.err.c_str());
    // stdout is the FMC JSON alone; the summary went to stderr; no file named "-".
    const auto j = nlohmann::json::parse(r.out);
    QVERIFY(j["kind"] == "acsel-fmc");
    QVERIFY(contains(r.err, "FMC at tau 0.5"));
    QVERIFY(!contains(r.err, "wrote"));
    QVERIFY(!QFileInfo::exists(dir.filePath("-")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
}

// export already wrote '-' to stdout; it shares the writer now: still so, and a file that
// exists is refused without --force with the same message as calibrate's.
void TestCliEdgeCases::exportDashIsStandardOutput()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const std::string config = dir.filePath("config.json").toStdString();
    const Run s = run({"search", "--workspace", kWorkspace, "--tables", kTables, "--stack",
                       "h100_sxm/trtllm", "--model", "Qwen3-0.6B", "--mode", "static", "--json"});
    QVERIFY2(s.code == 0, s.err.c_str());
    std::ofstream(config) << s.out;
    const Run r = inFolder(dir, [&] {
        return run({"export", "--config", config, "--as", "modelopt-yaml", "-o", "-", "--workspace",
                    kWorkspace, "--tables", kTables});
    });
    QVERIFY2(r.code == 0, r.err.c_str());
    QVERIFY(!QFileInfo::exists(dir.filePath("-")));
    // stdout holds exactly what the file would.
    const std::string yaml = dir.filePath("recipe.yaml").toStdString();
    QCOMPARE(run({"export", "--config", config, "--as", "modelopt-yaml", "-o", yaml, "--workspace",
                  kWorkspace, "--tables", kTables})
                 .code,
             0);
    std::ifstream in(yaml);
    const std::string written((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    QVERIFY(!written.empty());
    QVERIFY(r.out == written);
    const std::string fmc = dir.filePath("fmc.json").toStdString();
    std::ofstream(fmc) << "keep\n";
    const Run refused = run({"calibrate", "--workspace", kWorkspace, "--tables", kTables,
                             "--measurements", kSilicon, "-o", fmc});
    QCOMPARE(refused.code, 2);
    QVERIFY2(contains(refused.err, fmc + " exists; pass --force to overwrite it"),
             refused.err.c_str());
}

// fit-utilisation reads every table of ../shared/aic (seconds): its JSON alone on stdout.
void TestCliEdgeCases::fitUtilisationDashIsStandardOutput()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const Run r = inFolder(dir, [] {
        return run({"fit-utilisation", "--tables", kTables, "-o", "-"});
    });
    QVERIFY2(r.code == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QVERIFY(j.contains("axes"));
    QVERIFY2(contains(r.err, "wrote standard output"), r.err.c_str());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
}

void TestCliEdgeCases::predictWarnsAboutTheOtherServingModel()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const std::string fmc = dir.filePath("fmc.json").toStdString();
    QCOMPARE(run({"calibrate", "--workspace", kWorkspace, "--tables", kTables, "--measurements",
                  kSilicon, "-o", fmc, "--mode", "static"})
                 .code,
             0);
    auto predict = [&](const char* mode) {
        return run({"predict", "--workspace", kWorkspace, "--tables", kTables, "--measurements",
                    kSilicon, "--fmc", fmc, "--mode", mode});
    };
    const Run other = predict("continuous");
    QCOMPARE(other.code, 0);
    const std::string warning = "warning: the FMC line of h100_sxm/trtllm was fitted on the "
                                "static serving model, this prediction uses the continuous one";
    QVERIFY2(contains(other.err, warning), other.err.c_str());
    // Once per stack, not once per row (h100_sxm/trtllm has 85 rows).
    QCOMPARE(other.err.find(warning), other.err.rfind(warning));
    const Run same = predict("static");
    QCOMPARE(same.code, 0);
    QVERIFY2(!contains(same.err, "warning"), same.err.c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestCliEdgeCases)
#include "test_cli_edgecases.moc"
