// The spec-sheet platforms file: the committed facts, strict errors on malformed files, and
// the spec-only stacks it adds to a workspace.
#include "core/data/loaderror.h"
#include "core/data/platformsfile.h"
#include "core/data/specstacks.h"
#include "core/model/units.h"
#include "testmain.h"

#include <algorithm>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

const std::string kFile = ACSEL_DATASETS "/platforms.json";
// A minimal valid file with one GPU, edited by each bad-input case.
Json minimal()
{
    return Json::parse(R"({
      "schema_version": 1, "kind": "acsel-platforms",
      "memory_op_model": {"bw_scaling": 0.8, "constant_latency_us": 3, "source": "AIC"},
      "platforms": [{
        "id": "gpu", "name": "GPU", "architecture": "x", "sm_version": 90,
        "memory_capacity_gib": {"value": 80, "source": "sheet"},
        "memory_bandwidth_gb_s": {"value": 3350, "source": "sheet"},
        "dense_tensor_tflops": {"bf16": {"value": 989.5, "source": "sheet"},
                                "fp8": {"value": 1979, "source": "sheet"}},
        "native_formats": ["fp8", "bf16"], "kv_fp8": true, "backends": ["vllm"],
        "runtime_overhead_gib": {"value": 3.5, "source": "AIC"}}]})");
}

std::vector<Format> formatsOf(const PlatformSpec& s)
{
    return s.nativeFormats;
}

} // namespace

class TestPlatformsFile : public QObject
{
    Q_OBJECT
private slots:
    void committedFileHasTheRequiredGpus();
    void committedFacts();
    void minimalParses();
    void badInput_data();
    void badInput();
    void specOnlyStacksWithoutTables();
    void gpusWithTablesKeepTheirMeasuredStacks();
};

void TestPlatformsFile::committedFileHasTheRequiredGpus()
{
    const PlatformsFile f = loadPlatformsFile(kFile);
    for (const char* id : {"rtx_a6000", "jetson_agx_thor", "l40s", "rtx_pro_6000_server",
                           "h100_sxm", "h200_sxm", "b200_sxm"})
        QVERIFY2(f.find(id), id);
    for (const PlatformSpec& s : f.platforms) {
        QVERIFY(s.platform.memBandwidth > 0);
        QVERIFY(s.platform.peakFlops(ComputeClass::Bf16) > 0);
        QVERIFY(s.platform.memCapacityBytes <= s.totalMemoryBytes);
        QVERIFY(!s.backends.empty());
        QVERIFY(std::is_sorted(s.nativeFormats.begin(), s.nativeFormats.end()));
    }
}

void TestPlatformsFile::committedFacts()
{
    const PlatformsFile f = loadPlatformsFile(kFile);
    const PlatformSpec& a6000 = *f.find("rtx_a6000");
    QCOMPARE(a6000.platform.memBandwidth, 768e9);
    QCOMPARE(a6000.platform.peakFlops(ComputeClass::Bf16), 154.8e12);
    QCOMPARE(a6000.platform.peakFlops(ComputeClass::Fp8), 0.0);
    QCOMPARE(a6000.platform.memCapacityBytes, 48 * kGiB);
    QVERIFY(formatsOf(a6000) ==
            (std::vector<Format>{Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16}));
    QVERIFY(!a6000.kvFp8);

    const PlatformSpec& thor = *f.find("jetson_agx_thor");
    QCOMPARE(thor.platform.memBandwidth, 273e9);
    QCOMPARE(thor.totalMemoryBytes, 128 * kGiB);
    QCOMPARE(thor.platform.memCapacityBytes, 112 * kGiB); // the stated assumption
    QVERIFY(!thor.memoryNote.empty());
    QCOMPARE(thor.platform.peakFlops(ComputeClass::Fp4), 1035e12);
    QVERIFY(formatsOf(thor) == (std::vector<Format>{Format::Nvfp4, Format::Fp8, Format::Bf16}));
    QVERIFY(thor.backends == (std::vector<std::string>{"vllm", "sglang"}));
    QCOMPARE(thor.platform.otherMemBytes, 3.5 * kGiB);
    QCOMPARE(thor.platform.memBwScaling, 0.8);
    QCOMPARE(thor.platform.memConstantLatencyS, 3e-6);
}

void TestPlatformsFile::minimalParses()
{
    const PlatformsFile f = parsePlatformsFile(minimal(), "p.json");
    QCOMPARE(f.platforms.size(), std::size_t(1));
    QCOMPARE(f.platforms[0].platform.peakFlops(ComputeClass::Fp8), 1979e12);
}

void TestPlatformsFile::badInput_data()
{
    QTest::addColumn<QString>("pointer"); // JSON pointer of the field to change
    QTest::addColumn<QString>("value");   // new JSON value; "DELETE" removes the field
    QTest::addColumn<QString>("where");   // expected LoadError::where()
    QTest::addColumn<QString>("message"); // part of the expected message
    QTest::newRow("missing source") << "/platforms/0/memory_bandwidth_gb_s/source"
                                    << "DELETE"
                                    << "/platforms/0/memory_bandwidth_gb_s/source"
                                    << "missing";
    QTest::newRow("empty source") << "/platforms/0/memory_bandwidth_gb_s/source"
                                  << "\"\""
                                  << "/platforms/0/memory_bandwidth_gb_s/source"
                                  << "source";
    QTest::newRow("negative bandwidth") << "/platforms/0/memory_bandwidth_gb_s/value"
                                        << "-5"
                                        << "/platforms/0/memory_bandwidth_gb_s/value"
                                        << "[1,";
    QTest::newRow("bandwidth as text") << "/platforms/0/memory_bandwidth_gb_s/value"
                                       << "\"fast\""
                                       << "/platforms/0/memory_bandwidth_gb_s/value"
                                       << "number";
    QTest::newRow("unknown format") << "/platforms/0/native_formats/0"
                                    << "\"fp6\""
                                    << "/platforms/0/native_formats/0"
                                    << "format name";
    QTest::newRow("nvfp4 without fp4") << "/platforms/0/native_formats/0"
                                       << "\"nvfp4\""
                                       << "/platforms/0/native_formats/0"
                                       << "tensor-core";
    QTest::newRow("duplicate format") << "/platforms/0/native_formats/0"
                                      << "\"bf16\""
                                      << "/platforms/0/native_formats/1"
                                      << "duplicate";
    QTest::newRow("unknown dtype") << "/platforms/0/dense_tensor_tflops/fp16"
                                   << "{\"value\": 1, \"source\": \"s\"}"
                                   << "/platforms/0/dense_tensor_tflops/fp16"
                                   << "unknown";
    QTest::newRow("no bf16") << "/platforms/0/dense_tensor_tflops/bf16"
                             << "DELETE"
                             << "/platforms/0/dense_tensor_tflops/bf16"
                             << "bf16";
    QTest::newRow("unknown backend") << "/platforms/0/backends/0"
                                     << "\"tgi\""
                                     << "/platforms/0/backends/0"
                                     << "backend";
    QTest::newRow("usable above total") << "/platforms/0/usable_memory_gib"
                                        << "{\"value\": 81, \"source\": \"s\"}"
                                        << "/platforms/0/usable_memory_gib"
                                        << "exceeds";
    QTest::newRow("kv fp8 without fp8") << "/platforms/0/dense_tensor_tflops/fp8"
                                        << "DELETE"
                                        << "/platforms/0/native_formats/0"
                                        << "tensor-core";
    QTest::newRow("newer schema") << "/schema_version"
                                  << "2"
                                  << "/schema_version"
                                  << "newer";
    QTest::newRow("wrong kind") << "/kind"
                                << "\"acsel-workspace\""
                                << "/kind"
                                << "acsel-platforms";
    QTest::newRow("no platforms") << "/platforms"
                                  << "[]"
                                  << "/platforms"
                                  << "at least one";
    QTest::newRow("id with slash") << "/platforms/0/id"
                                   << "\"a/b\""
                                   << "/platforms/0/id"
                                   << "'/'";
}

void TestPlatformsFile::badInput()
{
    QFETCH(QString, pointer);
    QFETCH(QString, value);
    QFETCH(QString, where);
    QFETCH(QString, message);
    Json j = minimal();
    const Json::json_pointer ptr(pointer.toStdString());
    if (value == "DELETE")
        j[ptr.parent_pointer()].erase(ptr.back());
    else
        j[ptr] = Json::parse(value.toStdString());
    try {
        parsePlatformsFile(j, "bad.json");
        QFAIL("expected a LoadError");
    } catch (const LoadError& e) {
        QCOMPARE(QString::fromStdString(e.file()), QString("bad.json"));
        QCOMPARE(QString::fromStdString(e.where()), where);
        QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
    }
}

void TestPlatformsFile::specOnlyStacksWithoutTables()
{
    Workspace ws;
    attachSpecOnlyStacks(ws, kFile);
    const PlatformsFile f = loadPlatformsFile(kFile);
    std::size_t expected = 0;
    for (const PlatformSpec& s : f.platforms)
        expected += s.backends.size();
    QCOMPARE(ws.platforms.size(), f.platforms.size());
    QCOMPARE(ws.stacks.size(), expected);
    const auto thor = ws.findStack("jetson_agx_thor/vllm");
    QVERIFY(thor);
    const Stack& s = ws.stacks[static_cast<std::size_t>(*thor)];
    QVERIFY(s.source == LatencySource::Empirical);
    QVERIFY(s.tableDir.empty());
    QVERIFY(s.formats == (std::vector<Format>{Format::Nvfp4, Format::Fp8, Format::Bf16}));
    QVERIFY(s.kvFp8);
    QCOMPARE(ws.platformOf(s).id, std::string("jetson_agx_thor"));
    QVERIFY(ws.findStack("rtx_a6000/trtllm"));
    QVERIFY(!ws.findStack("jetson_agx_thor/trtllm")); // Thor assumes vllm and sglang only
    const bool noted = std::any_of(ws.notes.begin(), ws.notes.end(), [](const std::string& n) {
        return n.find("Spec-only stacks") != std::string::npos &&
               n.find("jetson_agx_thor/vllm") != std::string::npos;
    });
    QVERIFY(noted);
}

void TestPlatformsFile::gpusWithTablesKeepTheirMeasuredStacks()
{
    Workspace ws;
    Platform l40s;
    l40s.id = "l40s";
    ws.platforms.push_back(l40s);
    Stack measured;
    measured.id = "l40s/vllm";
    measured.backend = "vllm";
    measured.source = LatencySource::Tables;
    ws.stacks.push_back(measured);
    attachSpecOnlyStacks(ws, kFile);
    QVERIFY(!ws.findStack("l40s/trtllm")); // the GPU has tables: no spec-only stacks for it
    QCOMPARE(std::count_if(ws.platforms.begin(), ws.platforms.end(),
                           [](const Platform& p) { return p.id == "l40s"; }),
             std::ptrdiff_t(1));
    QVERIFY(ws.findStack("rtx_a6000/vllm"));
    QVERIFY(ws.findStack("h100_sxm/vllm"));
}

ACSEL_TEST_APPLESS_MAIN(TestPlatformsFile)
#include "test_platformsfile.moc"
