// The configuration JSON (schema_version 1): one chosen configuration with the model, the
// request it was chosen for and, optionally, its predictions. `acsel search --json` prints it
// and `acsel export --config` reads it; docs/EXPORT.md documents the schema.
#pragma once

#include "core/data/jsonfields.h"
#include "core/model/config.h"
#include "core/model/prediction.h"
#include "core/model/workspace.h"

#include <optional>
#include <string>

namespace acsel
{

inline constexpr int kConfigJsonSchemaVersion = 1;

struct ConfigDocument {
    std::string modelName;                 // workspace short name, "Qwen3-8B"
    std::string modelHfId;                 // "Qwen/Qwen3-8B"
    Request request;                       // request.stack is the document's "stack"
    Config config;                         // config.model is meaningful once resolveModel() ran
    std::optional<Prediction> predictions; // written without the raw latencies
    std::string predictionNote; // e.g. "RMQD from synthetic quality data"; empty: nothing to say
    std::string toolName = "acsel-studio";
    std::string toolVersion = ACSEL_VERSION;
    // The model has experts, so the MLP scope is written "experts" (set from the workspace by
    // makeConfigDocument and resolveModel; either name reads back as the same scope).
    bool moeModel = false;
    bool operator==(const ConfigDocument&) const = default;
};

// Fills the model fields from the workspace's model config.model.
ConfigDocument makeConfigDocument(const Workspace& ws, const Config& c, const Request& q,
                                  std::optional<Prediction> predictions = std::nullopt,
                                  std::string predictionNote = "");

// Strict parse: every field checked, unknown keys refused; errors are LoadErrors with the
// JSON pointer of the field. The bands must be contiguous from layer 0 (BandRecipe rules).
ConfigDocument parseConfigJson(const Json& j, const std::string& file);
ConfigDocument loadConfigJson(const std::string& path);

// A request file, the same fields as a configuration document's: {"schema_version": 1,
// "stack": "...", "request": {...}, "models": ["Qwen3-8B", ...] (optional: models to consider)}.
// The models list is read by the caller (acsel search). `mode` (a --mode flag) replaces the
// file's request.mode, which may then be absent.
Request parseRequestJson(const Json& j, const std::string& file,
                         std::optional<ServingMode> mode = std::nullopt);

// Resolves the document's model in the workspace by name into config.model and checks that
// its hf_id is the workspace's and the bands cover exactly its layers. Throws LoadError naming
// /model, /model/name (a name the workspace does not have for an hf_id it has), /model/hf_id
// or /config/bands.
void resolveModel(ConfigDocument& doc, const Workspace& ws, const std::string& file);

// Pretty-printed JSON (two-space indent, fields in schema order, trailing newline).
std::string writeConfigJson(const ConfigDocument& doc);
// The same document as JSON (for files that embed configurations, e.g. sessions).
nlohmann::ordered_json configDocumentJson(const ConfigDocument& doc);
// Sets the "stack" and "request" fields of a configuration, request or session file.
void writeRequestFields(nlohmann::ordered_json& j, const Request& q);

} // namespace acsel
