// The load-compatibility table and the check of an export against it: release order, the entry
// holding for a release, what fails and the release that fixes it, and the file's errors, each
// against a small test table (so that the shipped data can change without these).
#include "core/data/engineloaders.h"
#include "core/data/loaderror.h"
#include "core/export/loadcheck.h"
#include "test_export_fixtures.h"
#include "testmain.h"

using namespace exporttest;

namespace
{

// tests/data/engine_loaders/table.json, vllm only: 1.0 refuses mixed checkpoints and nvfp4
// off Blackwell, its fp8 KV uncertain; 2.0 may load mixed; 3.0 loads mixed and nvfp4 on Hopper.
LoaderTable testTable()
{
    return loadLoaderTable(ACSEL_TEST_DATA "/engine_loaders/table.json");
}

Platform gpu(const std::string& id, int sm)
{
    Platform p;
    p.id = id;
    p.smVersion = sm;
    return p;
}

// Qwen3-8B all at one format (one weight format: no MIXED_PRECISION).
ExportInput uniform(Format f, KvFormat kv)
{
    ExportInput in = acceptanceInput();
    in.config = makeConfig(36, {}, {{f, Scope::Full}}, Algorithm::Max, kv);
    return in;
}

bool mentions(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestLoadCheck : public QObject
{
    Q_OBJECT
private slots:
    void releasesOrderNumerically();
    void entryHoldsUntilTheNext();
    void mixedCheckpointRefusedWithTheReleaseThatMayLoadIt();
    void formatOffItsGenerationRefusedWithTheFix();
    void uncertainIsANoteNotARefusal();
    void userEntriesReplaceAndExtend();
    void badFilesNameTheField();
    void shippedTableLoadsWithSources();
};

void TestLoadCheck::releasesOrderNumerically()
{
    QVERIFY(compareReleases("0.9.2", "0.10.0") < 0); // 9 < 10, not '9' > '1'
    QVERIFY(compareReleases("0.10.0", "0.10") == 0);
    QVERIFY(compareReleases("1.3.0rc20", "1.3.0") < 0);
    QVERIFY(compareReleases("1.3.0rc9", "1.3.0rc20") < 0);
    QVERIFY(compareReleases("0.5.13.post1", "0.5.13") > 0);
    QVERIFY(compareReleases("0.5.13.post1", "0.5.14") < 0);
}

void TestLoadCheck::entryHoldsUntilTheNext()
{
    const LoaderTable t = testTable();
    QCOMPARE(t.entries.size(), std::size_t(3));
    QCOMPARE(t.entries.front().release, std::string("1.0")); // sorted by release
    QVERIFY(t.find(Backend::Vllm, "0.9") == nullptr);
    QCOMPARE(t.find(Backend::Vllm, "1.5")->release, std::string("1.0"));
    QCOMPARE(t.find(Backend::Vllm, "2.0")->release, std::string("2.0"));
    QCOMPARE(t.find(Backend::Vllm, "9.1")->release, std::string("3.0"));
    QVERIFY(t.find(Backend::Sglang, "9.1") == nullptr);
    QCOMPARE(t.newer(Backend::Vllm, "1.5").size(), std::size_t(2));
}

void TestLoadCheck::mixedCheckpointRefusedWithTheReleaseThatMayLoadIt()
{
    const LoaderTable t = testTable();
    // fp8 + nvfp4 bands (+ bf16): two weight formats, so MIXED_PRECISION; on Blackwell both
    // formats load, the KV (fp8) is uncertain in 1.0.
    ExportInput in = acceptanceInput();
    const LoadCheck c = checkLoad(t, Backend::Vllm, "1.2", in, gpu("b200_sxm", 100));
    QVERIFY(c.refused());
    QCOMPARE(c.findings.size(), std::size_t(2));
    QCOMPARE(c.findings[0].message,
             std::string("vllm 1.2 (as of its table entry 1.0) does not load a checkpoint with "
                         "several weight formats (quant_algo MIXED_PRECISION); vllm 3.0 loads it "
                         "(sources: https://example.org/3); vllm 2.0 may (UNCERTAIN)"));
    QVERIFY(!c.findings[1].refused);
    QVERIFY(mentions(c.findings[1].message, "UNCERTAIN whether vllm 1.2"));
    QVERIFY(mentions(c.findings[1].message, "fp8 KV cache"));
    // 3.0 loads it all.
    QVERIFY(checkLoad(t, Backend::Vllm, "3.0", in, gpu("b200_sxm", 100)).findings.empty());
}

void TestLoadCheck::formatOffItsGenerationRefusedWithTheFix()
{
    const LoaderTable t = testTable();
    const ExportInput in = uniform(Format::Nvfp4, KvFormat::Bf16);
    // nvfp4 on Hopper (SM 90): no in 1.0 and 2.0, yes from 3.0.
    const LoadCheck c = checkLoad(t, Backend::Vllm, "2.0", in, gpu("h100_sxm", 90));
    QCOMPARE(c.refusals(), std::string("vllm 2.0 does not load nvfp4 weights on h100_sxm (hopper); "
                                       "vllm 3.0 loads it (sources: https://example.org/3)"));
    // Ada (SM 89) is in no entry's nvfp4 list.
    QVERIFY(mentions(checkLoad(t, Backend::Vllm, "3.0", in, gpu("l40s", 89)).refusals(),
                     "no newer vllm release in the load-compatibility table loads it"));
    // Before Ampere there is no generation.
    QVERIFY(mentions(checkLoad(t, Backend::Vllm, "3.0", in, gpu("v100", 70)).refusals(),
                     "SM 70, older than Ampere"));
    // bf16 weights only: nothing to check but the KV.
    QVERIFY(checkLoad(t, Backend::Vllm, "1.0", uniform(Format::Bf16, KvFormat::Bf16),
                      gpu("h100_sxm", 90))
                .findings.empty());
}

void TestLoadCheck::uncertainIsANoteNotARefusal()
{
    const LoaderTable t = testTable();
    const LoadCheck c = checkLoad(t, Backend::Vllm, "2.0", acceptanceInput(), gpu("b200_sxm", 100));
    QVERIFY(!c.refused());
    QCOMPARE(c.findings.size(), std::size_t(1));
    QVERIFY(mentions(c.findings[0].message, "UNCERTAIN whether vllm 2.0 loads a checkpoint with "
                                            "several weight formats"));
    // No entry at all: nothing to say (the caller notes it).
    const LoadCheck none = checkLoad(t, Backend::Vllm, "0.1", acceptanceInput(), gpu("b", 100));
    QVERIFY(none.entry == nullptr && none.findings.empty());
}

void TestLoadCheck::userEntriesReplaceAndExtend()
{
    LoaderTable t = testTable();
    t.extend(loadLoaderTable(ACSEL_TEST_DATA "/engine_loaders/mine.json"));
    QCOMPARE(t.entries.size(), std::size_t(4));
    QCOMPARE(t.find(Backend::Vllm, "1.0")->mixedPrecision, Support::Yes);
    QVERIFY(t.find(Backend::Sglang, "0.6") != nullptr);
}

void TestLoadCheck::badFilesNameTheField()
{
    const auto error = [](const std::string& name) {
        try {
            loadLoaderTable(ACSEL_TEST_DATA "/engine_loaders/" + name);
        } catch (const LoadError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    QVERIFY(mentions(error("bad_engine.json"), "/entries/0/engine"));
    QVERIFY(mentions(error("bad_generation.json"), "/entries/0/weight_formats/fp8/0"));
    QVERIFY(mentions(error("no_sources.json"), "/entries/0/sources"));
    QVERIFY(mentions(error("bad_mixed.json"), "/entries/0/mixed_precision"));
}

void TestLoadCheck::shippedTableLoadsWithSources()
{
    const LoaderTable t = loadLoaderTable(ACSEL_DATASETS "/engine_loaders.json");
    QVERIFY(!t.entries.empty());
    for (const BackendInfo& b : kBackends) // each engine's template release has an entry
        QVERIFY2(t.find(b.backend, b.templateVersion) != nullptr, b.name.data());
    for (const LoaderEntry& e : t.entries)
        for (const std::string& s : e.sources)
            QVERIFY2(s.starts_with("https://"), s.c_str());
}

ACSEL_TEST_GUILESS_MAIN(TestLoadCheck)
#include "test_loadcheck.moc"
