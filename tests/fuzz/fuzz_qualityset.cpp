// libFuzzer target: quality measurement sets (core/data/qualityset), both file forms: every
// input is read as the JSON set and as the CSV import, checked against two models (a real
// architecture and a small synthetic one). An accepted set must survive its own writers: JSON
// always, CSV whenever the CSV writer takes it (always for a set read from CSV), provenance
// lines included; and it has each configuration once (core/quality/qualitymerge's test).
#include "core/data/qualityset.h"
#include "core/quality/qualitymerge.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace
{

using namespace acsel;

std::vector<ModelArch> fuzzModels()
{
    // Qwen3-8B's published dimensions (config.json), and a 4-layer synthetic model.
    ModelArch qwen{"Qwen3-8B", "Qwen/Qwen3-8B", "qwen3", 36,   4096,           32, 8, 128,
                   12288,      151936,          false,   true, AttnBias::None, {}};
    ModelArch tiny{"tiny-4L", "acsel-test/tiny-4L", "llama", 4, 256, 4, 2, 64, 512, 1000, false,
                   false,     AttnBias::None,       {}};
    return {qwen, tiny};
}

bool sameRows(const QualitySet& a, const QualitySet& b)
{
    if (a.rows.size() != b.rows.size())
        return false;
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
        const QualityRow& x = a.rows[i];
        const QualityRow& y = b.rows[i];
        if (x.model != y.model || !(x.recipe == y.recipe) || x.algorithm != y.algorithm ||
            x.lmHeadQuantized != y.lmHeadQuantized || x.kv != y.kv || x.rmqd != y.rmqd ||
            x.split != y.split)
            return false;
    }
    return true;
}

bool sameSet(const QualitySet& a, const QualitySet& b)
{
    return sameRows(a, b) && a.synthetic == b.synthetic && a.provenance == b.provenance &&
           a.generator == b.generator;
}

void checkAccepted(const QualitySet& set, const std::vector<ModelArch>& models, bool fromCsv)
{
    fuzz::require(!set.rows.empty(), "an accepted set has rows");
    for (const QualityRow& r : set.rows) {
        fuzz::require(r.model >= 0 && r.model < static_cast<int>(models.size()),
                      "an accepted row names a known model");
        const int layers = models[static_cast<std::size_t>(r.model)].layers;
        fuzz::require(r.recipe.validate(layers).empty(), "an accepted recipe is well formed");
        fuzz::require(std::isfinite(r.rmqd) && r.rmqd > 0, "an accepted RMQD is finite, > 0");
    }
    for (std::size_t i = 0; i < set.rows.size(); ++i)
        for (std::size_t j = i + 1; j < set.rows.size(); ++j)
            fuzz::require(!sameConfiguration(set.rows[i], set.rows[j]),
                          "an accepted set has each configuration once");
    bool again = false;
    try {
        const std::string written = qualitySetToJson(set, models).dump();
        const QualitySet back =
            parseQualitySetJson(parseJsonText(written, "rewritten.json"), "rewritten.json", models);
        again = sameSet(back, set);
    } catch (const LoadError&) {
        again = false;
    }
    fuzz::require(again, "an accepted quality set reads back equal after qualitySetToJson");
    std::string csv;
    try {
        csv = qualitySetToCsv(set, models, "rewritten.csv");
    } catch (const LoadError& e) {
        fuzz::require(!fromCsv, "a set read from CSV can be written as CSV");
        fuzz::require(e.file() == "rewritten.csv", "the CSV writer's LoadError names its file");
        return;
    }
    again = false;
    try {
        again = sameSet(parseQualitySetCsv(csv, "rewritten.csv", models), set);
    } catch (const LoadError&) {
        again = false;
    }
    fuzz::require(again, "an accepted quality set reads back equal after qualitySetToCsv");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const std::vector<ModelArch> models = fuzzModels();
    const std::string text = fuzz::text(data, size);
    const std::string json = "quality.json";
    fuzz::loadOrLoadError(json, [&] {
        checkAccepted(parseQualitySetJson(parseJsonText(text, json), json, models), models, false);
    });
    const std::string csv = "quality.csv";
    fuzz::loadOrLoadError(
        csv, [&] { checkAccepted(parseQualitySetCsv(text, csv, models), models, true); });
    return 0;
}
