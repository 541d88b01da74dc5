#include "core/export/quantcfg.h"

#include "core/export/modulenames.h"

namespace acsel
{
namespace
{

void addLinear(std::vector<CfgEntry>& out, const std::string& module, Format f)
{
    const FormatNumerics n = numericsOf(f);
    out.push_back({module + ".weight_quantizer", n.weight, std::nullopt, {}});
    if (n.input)
        out.push_back({module + ".input_quantizer", n.input, std::nullopt, {}});
    else // weight-only: say so explicitly, as EXPORT.md's table does
        out.push_back({module + ".input_quantizer", std::nullopt, false, {}});
}

} // namespace

std::vector<CfgEntry> quantCfgEntries(const QuantPlan& plan, const ModelArch& arch)
{
    std::vector<CfgEntry> out;
    out.push_back({std::string(kDisableAll), std::nullopt, false, {}});
    for (std::size_t i = 0; i < plan.layers.size(); ++i)
        for (Linear l : kAllLinears)
            if (const Format f = plan.layers[i][static_cast<std::size_t>(l)]; f != Format::Bf16)
                for (const std::string& name : linearPatterns(arch, static_cast<int>(i), l))
                    addLinear(out, name, f);
    if (plan.kv == KvFormat::Fp8)
        out.push_back({std::string(kKvPattern), kvFp8Numerics(), std::nullopt, {}});
    if (plan.lmHead != Format::Bf16)
        addLinear(out, std::string(kLmHead), plan.lmHead);
    else
        out.push_back({std::string(kLmHeadPattern), std::nullopt, false, {}});
    return out;
}

} // namespace acsel
