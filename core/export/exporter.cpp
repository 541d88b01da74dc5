#include "core/export/exporter.h"

#include "core/export/exportability.h"
#include "core/export/hfquantconfig.h"
#include "core/export/modeloptjson.h"
#include "core/export/modeloptyaml.h"

namespace acsel
{
namespace
{

std::string joined(const std::vector<std::string>& problems)
{
    std::string s = "not exportable for ModelOpt:";
    for (const std::string& p : problems)
        s += "\n  - " + p;
    return s;
}

} // namespace

std::string_view toString(ExportFormat f)
{
    switch (f) {
    case ExportFormat::ModelOptYaml:
        return "modelopt-yaml";
    case ExportFormat::ModelOptJson:
        return "modelopt-json";
    case ExportFormat::HfQuantConfig:
        return "hf-quant-config";
    }
    return "?";
}

std::optional<ExportFormat> parseExportFormat(std::string_view name)
{
    for (ExportFormat f : kAllExportFormats)
        if (toString(f) == name)
            return f;
    return std::nullopt;
}

std::string_view title(ExportFormat f)
{
    switch (f) {
    case ExportFormat::ModelOptYaml:
        return "ModelOpt PTQ recipe (YAML, ModelOpt >= 0.44)";
    case ExportFormat::ModelOptJson:
        return "ModelOpt quant_cfg (JSON dict, older ModelOpt)";
    case ExportFormat::HfQuantConfig:
        return "hf_quant_config.json preview (what engines read)";
    }
    return "?";
}

std::string_view defaultFileName(ExportFormat f)
{
    switch (f) {
    case ExportFormat::ModelOptYaml:
        return "acsel_recipe.yaml";
    case ExportFormat::ModelOptJson:
        return "acsel_quant_cfg.json";
    case ExportFormat::HfQuantConfig:
        return "hf_quant_config.preview.json";
    }
    return "export.txt";
}

ExportError::ExportError(std::vector<std::string> problems)
    : std::runtime_error(joined(problems)), problems_(std::move(problems))
{
}

void requireExportable(const ExportInput& in, const Stack* stack)
{
    if (auto problems = exportProblems(in.arch, in.config, stack); !problems.empty())
        throw ExportError(std::move(problems));
}

std::string exportText(ExportFormat f, const ExportInput& in, const Stack* stack)
{
    requireExportable(in, stack);
    switch (f) {
    case ExportFormat::ModelOptYaml:
        return modelOptRecipeYaml(in);
    case ExportFormat::ModelOptJson:
        return modelOptQuantCfgJson(in);
    case ExportFormat::HfQuantConfig:
        return hfQuantConfigPreview(in);
    }
    return {};
}

std::string howToApply(ExportFormat f, std::string_view fileName, const ModelArch& arch)
{
    const std::string file(fileName);
    switch (f) {
    case ExportFormat::ModelOptYaml:
        return "import modelopt.torch.quantization as mtq\n"
               "from modelopt.recipe import load_recipe\n\n"
               "recipe = load_recipe(\"" +
               file +
               "\")\n"
               "model = mtq.quantize(model, recipe.quantize.model_dump(), forward_loop)\n\n"
               "# or, with ModelOpt's example script (calibrates and exports the checkpoint):\n"
               "# python examples/llm_ptq/hf_ptq.py --pyt_ckpt_path " +
               arch.hfId + " \\\n#     --recipe " + file + " --export_path " + exportFolder(arch) +
               "\n";
    case ExportFormat::ModelOptJson:
        return "import json\nimport modelopt.torch.quantization as mtq\n\n"
               "# JSON keys are strings: turn block_sizes keys such as \"-1\" back into ints.\n"
               "def _keys(d):\n"
               "    return {int(k) if k.lstrip(\"-\").isdigit() else k: v for k, v in "
               "d.items()}\n\n"
               "with open(\"" +
               file +
               "\") as f:\n"
               "    config = json.load(f, object_hook=_keys)\n"
               "config.pop(\"acsel\", None)  # what wrote the file: not a ModelOpt key\n"
               "model = mtq.quantize(model, config, forward_loop)\n";
    case ExportFormat::HfQuantConfig:
        return "# A preview, not a checkpoint file: ModelOpt's HF export writes the real\n"
               "# hf_quant_config.json next to the quantized weights. Serve the exported\n"
               "# checkpoint with, for example:\n"
               "#   vllm serve <export_dir> --quantization modelopt\n"
               "#   trtllm-serve <export_dir>\n"
               "# Check that quant_algo, quantized_layers / exclude_modules and\n"
               "# kv_cache_quant_algo match this preview (" +
               file + ").\n";
    }
    return {};
}

} // namespace acsel
