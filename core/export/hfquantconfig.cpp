#include "core/export/hfquantconfig.h"

#include "core/export/jsonstyle.h"
#include "core/export/modulenames.h"
#include "core/export/quantplan.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

using Ordered = nlohmann::ordered_json;

// The per-layer entry, as ModelOpt's process_layer_quant_config writes it.
Ordered layerEntry(Format f)
{
    Ordered o;
    o["quant_algo"] = hfQuantAlgo(f);
    if (f == Format::Int4Wo) {
        o["group_size"] = 128;
        o["has_zero_point"] = false;
        o["pre_quant_scale"] = true;
    } else if (f == Format::Nvfp4) {
        o["group_size"] = 16;
    }
    return o;
}

} // namespace

std::string_view hfQuantAlgo(Format f)
{
    switch (f) {
    case Format::Fp8:
        return "FP8";
    case Format::Int8:
        return "W8A8_SQ_PER_CHANNEL";
    case Format::Int8Wo:
        return "W8A16";
    case Format::Int4Wo:
        return "W4A16_AWQ";
    case Format::Nvfp4:
        return "NVFP4";
    case Format::Fp8Block:
        return "FP8_PB_WO";
    case Format::Bf16:
        return "";
    }
    return "";
}

std::string hfQuantConfigPreview(const ExportInput& in)
{
    const QuantPlan plan = planOf(in.config, in.arch.layers);
    Ordered layers = Ordered::object();
    std::vector<std::string> excluded;
    std::vector<Format> formats;
    auto visit = [&](const std::string& module, Format f) {
        if (f == Format::Bf16) {
            excluded.push_back(module);
            return;
        }
        layers[module] = layerEntry(f);
        if (std::find(formats.begin(), formats.end(), f) == formats.end())
            formats.push_back(f);
    };
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        const int layer = static_cast<int>(i);
        for (Linear l : kAllLinears)
            for (const std::string& name : linearPatterns(in.arch, layer, l))
                visit(name, plan.layers[i][static_cast<std::size_t>(l)]);
        for (const std::string& gate :
             {routerModule(in.arch, layer), sharedGateModule(in.arch, layer)})
            if (!gate.empty())
                excluded.push_back(gate); // never quantized
    }
    visit(std::string(kLmHead), plan.lmHead);

    Ordered q;
    q["quant_algo"] = nullptr;
    q["kv_cache_quant_algo"] = plan.kv == KvFormat::Fp8 ? Ordered("FP8") : Ordered(nullptr);
    if (formats.size() == 1) {
        const Ordered entry = layerEntry(formats.front());
        for (auto it = entry.begin(); it != entry.end(); ++it)
            q[it.key()] = it.value();
        std::sort(excluded.begin(), excluded.end());
        q["exclude_modules"] = excluded;
    } else {
        if (formats.size() > 1)
            q["quant_algo"] = "MIXED_PRECISION";
        q["quantized_layers"] = layers;
    }
    Ordered j;
    j["preview_note"] = "What ModelOpt's HF export is expected to write as hf_quant_config.json "
                        "for this recipe (preview by acsel-studio " +
                        std::string(ACSEL_VERSION) + "); the real file comes from the export.";
    j["producer"] = {{"name", "modelopt"}, {"version", "set by the export"}};
    // Beside ModelOpt's own keys (the engines read "quantization"): where the predictions the
    // recipe was chosen on come from.
    if (!in.predictionNote.empty())
        j["acsel"] = {{"predictions", in.predictionNote}};
    j["quantization"] = q;
    return prettyJson(j, 3);
}

} // namespace acsel
