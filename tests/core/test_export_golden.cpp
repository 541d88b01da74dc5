// Golden files: one recipe per format family (Blackwell fp8/nvfp4, Ampere int4 AWQ, Ampere
// int8 SmoothQuant with lm_head, Hopper int8_wo + fp8_block), each in the three export formats,
// compared byte for byte with tests/data/export/. To regenerate deliberately after a reviewed
// change: ACSEL_REGENERATE_GOLDEN=1 build/release/tests/core_tests test_export_golden, then git
// diff.
#include "core/export/exporter.h"
#include "test_export_fixtures.h"
#include "testmain.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace acsel;
using namespace exporttest;

namespace
{

const std::string kGoldenDir = ACSEL_TEST_DATA "/export/";

ExportInput family(int which)
{
    if (which == 0)
        return acceptanceInput();
    ExportInput in;
    in.arch = tinyArch();
    in.predictions =
        Prediction{.ttftMs = 95.5, .tpotMs = 8.25, .memoryBytes = 1.5 * kGiB, .rmqd = 0.031};
    in.predictionNote = "hand-written test values";
    switch (which) {
    case 1:
        in.config = makeConfig(4, {3}, {{Format::Int4Wo, Scope::Full}, {Format::Bf16, Scope::Full}},
                               Algorithm::Awq, KvFormat::Bf16, false, 4);
        in.request = makeRequest("a100_sxm/vllm");
        break;
    case 2:
        in.config = makeConfig(4, {2}, {{Format::Int8, Scope::Mlp}, {Format::Int8, Scope::Full}},
                               Algorithm::SmoothQuant, KvFormat::Bf16, true);
        in.request = makeRequest("l40s/trtllm");
        in.predictions.reset();
        break;
    case 3:
        in.config =
            makeConfig(4, {2}, {{Format::Int8Wo, Scope::Attn}, {Format::Fp8Block, Scope::Full}},
                       Algorithm::Max, KvFormat::Fp8, false, 16);
        in.request = makeRequest("h100_sxm/sglang");
        in.request.mode = ServingMode::Continuous;
        break;
    }
    in.request.concurrency = std::min(in.request.concurrency, in.config.batch);
    return in;
}

const char* const kFamilies[] = {"qwen3_8b_fp8_nvfp4_bf16", "tiny_int4_awq", "tiny_int8_sq_lmhead",
                                 "tiny_int8wo_fp8block"};

std::string extension(ExportFormat f)
{
    switch (f) {
    case ExportFormat::ModelOptYaml:
        return ".modelopt.yaml";
    case ExportFormat::ModelOptJson:
        return ".modelopt.json";
    case ExportFormat::HfQuantConfig:
        return ".hf_quant_config.json";
    }
    return {};
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestExportGolden : public QObject
{
    Q_OBJECT
private slots:
    void matchesGoldenFile_data();
    void matchesGoldenFile();
};

void TestExportGolden::matchesGoldenFile_data()
{
    QTest::addColumn<int>("family");
    QTest::addColumn<int>("format");
    for (int i = 0; i < 4; ++i)
        for (ExportFormat f : kAllExportFormats)
            QTest::addRow("%s%s", kFamilies[i], extension(f).c_str()) << i << static_cast<int>(f);
}

void TestExportGolden::matchesGoldenFile()
{
    QFETCH(int, family);
    QFETCH(int, format);
    const auto f = static_cast<ExportFormat>(format);
    const std::string path = kGoldenDir + kFamilies[family] + extension(f);
    const std::string text = exportText(f, ::family(family));
    if (std::getenv("ACSEL_REGENERATE_GOLDEN")) {
        std::ofstream(path, std::ios::binary) << text;
        QSKIP("golden file regenerated");
    }
    const std::string golden = readAll(path);
    QVERIFY2(!golden.empty(), qPrintable(QString::fromStdString("missing golden file " + path)));
    if (text != golden) {
        std::size_t at = 0;
        while (at < text.size() && at < golden.size() && text[at] == golden[at])
            ++at;
        const auto line =
            std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1;
        QFAIL(qPrintable(QString::fromStdString(path + " differs from the export at line " +
                                                std::to_string(line))));
    }
}

ACSEL_TEST_APPLESS_MAIN(TestExportGolden)
#include "test_export_golden.moc"
