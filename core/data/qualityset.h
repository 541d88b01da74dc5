// Quality measurement sets: measured RMQD per configuration (model, algorithm, exclusions,
// band recipe), with a training / held-out split. Two file forms, one schema:
//
// JSON (schema_version 1), written by the tool and by users:
//   {"schema_version": 1, "kind": "acsel-quality-set", "synthetic": false,
//    "provenance": "who measured what, how", "generator": {...} (synthetic sets only),
//    "rows": [{"model": "Qwen3-8B", "algorithm": "awq", "lm_head_quantized": false,
//              "kv": "bf16", "bands": "0-2:bf16;3-35:int4_wo/full", "rmqd": 0.0123,
//              "split": "train"}, ...]}
// CSV (for importing measurements), optional provenance lines (core/data/qualitysetcsv.h), then
// a header naming these columns in any order:
//   # synthetic: true
//   # provenance: who measured what, how
//   model,algorithm,lm_head_quantized,kv,bands,rmqd,split
//   lm_head_quantized is 0/1 or true/false; without "# synthetic: true" the set counts as
//   measured.
//
// bands: ';'-separated "first-last:format/scope" with inclusive layer numbers (a bf16 band may
// omit "/full"). Every row is checked against the workspace's models: known model, a well formed
// recipe for its layer count, an algorithm that fits every band, lm_head quantized only when the
// last band is quantized, rmqd finite and > 0 (nats), and no configuration (everything but
// rmqd and split) twice.
#pragma once

#include "core/data/jsonfields.h"
#include "core/model/bandrecipe.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"

#include <nlohmann/json.hpp> // QualitySet holds its generator by value
#include <string>
#include <vector>

namespace acsel
{

inline constexpr int kQualitySetSchemaVersion = 1;

enum class Split : std::uint8_t { Train, Heldout };
std::string_view toString(Split s);

struct QualityRow {
    int model = 0; // index into the models the set was checked against
    BandRecipe recipe;
    Algorithm algorithm = Algorithm::Max;
    bool lmHeadQuantized = false;
    KvFormat kv = KvFormat::Bf16;
    double rmqd = 0.0;
    Split split = Split::Train;
};

struct QualitySet {
    std::string file;
    bool synthetic = false;
    std::string provenance;
    Json generator; // how a synthetic set was made (command, seed, anchors); null otherwise
    std::vector<QualityRow> rows;
};

// "0-2:bf16;3-35:int4_wo/full"
std::string bandsToText(const BandRecipe& r);
// Empty string on success (recipe filled); otherwise what is wrong.
std::string bandsFromText(const std::string& text, int numLayers, BandRecipe& out);

// By extension: .csv reads CSV, anything else JSON.
QualitySet loadQualitySet(const std::string& path, const std::vector<ModelArch>& models);
QualitySet parseQualitySetJson(const Json& j, const std::string& file,
                               const std::vector<ModelArch>& models);
QualitySet parseQualitySetCsv(const std::string& text, const std::string& file,
                              const std::vector<ModelArch>& models);
Json qualitySetToJson(const QualitySet& set, const std::vector<ModelArch>& models);
// The CSV form, provenance lines first; throws LoadError (naming `file`) for what one CSV line
// cannot hold (a provenance with a line break, a model name with a comma).
std::string qualitySetToCsv(const QualitySet& set, const std::vector<ModelArch>& models,
                            const std::string& file);
// The file's text for `path`, by extension like loadQualitySet: .csv gives CSV, anything else
// (standard output '-' included) JSON.
std::string qualitySetText(const QualitySet& set, const std::vector<ModelArch>& models,
                           const std::string& path);
// qualitySetText written atomically (temporary file beside `path`, then rename).
void writeQualitySet(const QualitySet& set, const std::vector<ModelArch>& models,
                     const std::string& path);

} // namespace acsel
