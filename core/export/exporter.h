// One entry point for the three export formats, used by `acsel export` and the export dialog:
// it refuses a configuration that is not exportable (with every reason), writes the text, and
// says how to apply it.
#pragma once

#include "core/export/exportinput.h"
#include "core/model/platform.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

enum class ExportFormat : std::uint8_t { ModelOptYaml, ModelOptJson, HfQuantConfig };
inline constexpr std::array<ExportFormat, 3> kAllExportFormats = {
    ExportFormat::ModelOptYaml, ExportFormat::ModelOptJson, ExportFormat::HfQuantConfig};

std::string_view toString(ExportFormat f); // "modelopt-yaml", "modelopt-json", "hf-quant-config"
std::optional<ExportFormat> parseExportFormat(std::string_view name);
std::string_view title(ExportFormat f);           // "ModelOpt PTQ recipe (YAML, ModelOpt >= 0.44)"
std::string_view defaultFileName(ExportFormat f); // "acsel_recipe.yaml", ...

// The configuration cannot be exported; problems() has one message per violated rule.
class ExportError : public std::runtime_error
{
public:
    explicit ExportError(std::vector<std::string> problems);
    const std::vector<std::string>& problems() const { return problems_; }

private:
    std::vector<std::string> problems_;
};

// Throws ExportError with exportProblems (against the stack when given): what `export`,
// `launch` and the results folder refuse alike.
void requireExportable(const ExportInput& in, const Stack* stack);

// Checks requireExportable and writes the format's text.
std::string exportText(ExportFormat f, const ExportInput& in, const Stack* stack = nullptr);

// A short snippet telling how to use the file (Python for ModelOpt, or what reads the preview).
std::string howToApply(ExportFormat f, std::string_view fileName, const ModelArch& arch);

} // namespace acsel
