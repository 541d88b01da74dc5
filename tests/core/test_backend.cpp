// The serving backends have one name table (core/model/backend.h): every name parses back to
// its backend, the names are distinct, and no other source file of the tool spells a backend's
// name as a string literal of its own (which is how a second list would start).
#include "core/data/loaderror.h"
#include "core/data/tablesdir.h"
#include "core/model/backend.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace acsel;

class TestBackend : public QObject
{
    Q_OBJECT
private slots:
    void namesRoundTrip();
    void tableIsIndexedByTheEnum();
    void namesHaveOneSource();
    void tablesOfAnUnknownBackendAreRefused();
};

void TestBackend::namesRoundTrip()
{
    std::set<std::string_view> seen;
    for (const BackendInfo& b : kBackends) {
        QCOMPARE(parseBackend(b.name), std::optional<Backend>(b.backend));
        QVERIFY(seen.insert(b.name).second);
    }
    QVERIFY(!parseBackend("tgi"));
    QVERIFY(!parseBackend("VLLM")); // names are exact, as in stack ids
    QVERIFY(!parseBackend(""));
    QCOMPARE(backendNames(), std::string("trtllm, vllm, sglang"));
}

void TestBackend::tableIsIndexedByTheEnum()
{
    for (std::size_t i = 0; i < kBackends.size(); ++i)
        QCOMPARE(static_cast<std::size_t>(kBackends[i].backend), i);
    QCOMPARE(info(Backend::Vllm).memoryFlag, std::string_view("--gpu-memory-utilization"));
    QCOMPARE(info(Backend::Sglang).memoryFlag, std::string_view("--mem-fraction-static"));
    QCOMPARE(info(Backend::TrtLlm).memoryFlag,
             std::string_view("--kv_cache_free_gpu_memory_fraction"));
}

void TestBackend::namesHaveOneSource()
{
    namespace fs = std::filesystem;
    const fs::path root = fs::path(ACSEL_DATASETS).parent_path();
    const fs::path table = fs::path("core") / "model" / "backend.h";
    std::vector<std::string> literals;
    for (const BackendInfo& b : kBackends)
        literals.push_back("\"" + std::string(b.name) + "\"");
    std::vector<std::string> offenders;
    int files = 0;
    for (const char* folder : {"core", "app", "viewmodel", "widgets"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
            const fs::path ext = entry.path().extension();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
                continue;
            ++files;
            if (fs::relative(entry.path(), root) == table)
                continue;
            std::ifstream in(entry.path());
            std::stringstream text;
            text << in.rdbuf();
            for (const std::string& l : literals)
                if (text.str().find(l) != std::string::npos)
                    offenders.push_back(fs::relative(entry.path(), root).string() + ": " + l);
        }
    }
    QVERIFY2(files > 100, "the source tree was not found beside the datasets folder");
    std::string list;
    for (const std::string& o : offenders)
        list += o + "\n";
    QVERIFY2(offenders.empty(), list.c_str());
}

void TestBackend::tablesOfAnUnknownBackendAreRefused()
{
    // A complete set of tables under gpu/tgi/1.0: the folder is named, not skipped.
    namespace fs = std::filesystem;
    QTemporaryDir tmp;
    const fs::path backend = fs::path(tmp.path().toStdString()) / "gpu" / "tgi";
    fs::create_directories(backend / "1.0");
    for (const char* name :
         {"gemm_perf.csv", "context_attention_perf.csv", "generation_attention_perf.csv"})
        fs::copy_file(ACSEL_TEST_DATA "/latency/" + std::string(name), backend / "1.0" / name);
    std::ofstream(backend.parent_path() / "system.yaml")
        << "gpu:\n  mem_bw: 1e12\n  mem_capacity: 1e10\n  bfloat16_tc_flops: 1e14\n";
    std::string error;
    try {
        discoverStacks(tmp.path().toStdString());
    } catch (const LoadError& e) {
        error = e.what();
    }
    QCOMPARE(error,
             backend.string() + ": not a backend folder (expected one of trtllm, vllm, sglang)");
    fs::rename(backend, backend.parent_path() / "vllm");
    QCOMPARE(discoverStacks(tmp.path().toStdString()).size(), std::size_t{1});
}

ACSEL_TEST_APPLESS_MAIN(TestBackend)
#include "test_backend.moc"
