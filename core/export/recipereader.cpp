#include "core/export/recipereader.h"

#include "core/data/loaderror.h"
#include "core/export/fnmatch.h"
#include "core/export/modulenames.h"

#include <unordered_map>

namespace acsel
{
namespace
{

struct QuantizerState {
    bool enabled = true;    // ModelOpt's quantizers start enabled...
    bool defaultCfg = true; // ...with its default attributes (8-bit per tensor)
    Numerics cfg;
};

class States
{
public:
    explicit States(const ModelArch& arch) : names_(quantizerNames(arch))
    {
        states_.resize(names_.size());
        for (std::size_t i = 0; i < names_.size(); ++i)
            index_.emplace(names_[i], i);
    }

    void apply(const CfgEntry& e)
    {
        auto set = [&](QuantizerState& s) {
            if (e.cfg) {
                s.cfg = *e.cfg;
                s.defaultCfg = false;
                s.enabled = e.enable.value_or(true);
            } else if (e.enable) {
                s.enabled = *e.enable;
            }
        };
        if (!isGlob(e.pattern)) {
            if (auto it = index_.find(e.pattern); it != index_.end())
                set(states_[it->second]);
            return;
        }
        for (std::size_t i = 0; i < names_.size(); ++i)
            if (fnmatchCase(e.pattern, names_[i]))
                set(states_[i]);
    }

    const QuantizerState& at(const std::string& name) const { return states_[index_.at(name)]; }

private:
    std::vector<std::string> names_;
    std::vector<QuantizerState> states_;
    std::unordered_map<std::string, std::size_t> index_;
};

// The numerics of an enabled quantizer, nullopt for a disabled one.
std::optional<Numerics> active(const States& s, const std::string& name, const std::string& file)
{
    const QuantizerState& q = s.at(name);
    if (!q.enabled)
        return std::nullopt;
    if (q.defaultCfg)
        throw LoadError(file, name,
                        "enabled with ModelOpt's default attributes (no entry gave it a cfg); "
                        "start quant_cfg with {quantizer_name: '*', enable: false}");
    return q.cfg;
}

Format linearFormatOf(const States& s, const std::string& module, const std::string& file)
{
    if (active(s, module + ".output_quantizer", file))
        throw LoadError(file, module + ".output_quantizer",
                        "enabled; exported recipes never quantize a linear's output");
    const FormatNumerics n{active(s, module + ".weight_quantizer", file),
                           active(s, module + ".input_quantizer", file)};
    if (auto f = formatOfNumerics(n))
        return *f;
    throw LoadError(file, module,
                    std::string("its weight/input quantizers (") + (n.weight ? "on" : "off") + "/" +
                        (n.input ? "on" : "off") +
                        ") match no supported format's numerics (EXPORT.md's table)");
}

KvFormat kvFormatOf(const States& s, const ModelArch& arch, const std::string& file)
{
    std::optional<KvFormat> kv;
    std::string first;
    for (int i = 0; i < arch.layers; ++i) {
        const std::string attn = "model.layers." + std::to_string(i) + ".self_attn.";
        for (const char* q : {"q_bmm_quantizer", "softmax_quantizer"})
            if (active(s, attn + q, file))
                throw LoadError(file, attn + q, "enabled; only the KV cache (k/v bmm) is exported");
        for (const char* q : {"k_bmm_quantizer", "v_bmm_quantizer"}) {
            const std::string name = attn + q;
            const auto n = active(s, name, file);
            KvFormat k = KvFormat::Bf16;
            if (n) {
                // {num_bits: e4m3} per tensor is an fp8 KV cache, with or without axis: null.
                if (n->bits != NumBits::E4M3 || n->axis == Axis::Zero || n->blockLast != 0)
                    throw LoadError(file, name, "KV-cache numerics other than {num_bits: e4m3}");
                k = KvFormat::Fp8;
            }
            if (kv && *kv != k)
                throw LoadError(file, name,
                                "the KV cache is " + std::string(toString(*kv)) + " at " + first +
                                    " but " + std::string(toString(k)) +
                                    " here; ModelOpt exports one KV-cache format for the model");
            if (!kv) {
                kv = k;
                first = name;
            }
        }
    }
    return kv.value_or(KvFormat::Bf16);
}

} // namespace

QuantPlan planFromEntries(const std::vector<CfgEntry>& entries, Algorithm algorithm,
                          const ModelArch& arch, const std::string& file)
{
    States s(arch);
    for (const CfgEntry& e : entries) {
        if (!e.cfg && !e.enable)
            throw LoadError(file, e.where, "an entry needs cfg, enable or both");
        s.apply(e);
    }
    QuantPlan p;
    p.algorithm = algorithm;
    p.layers.resize(static_cast<std::size_t>(arch.layers));
    for (int i = 0; i < arch.layers; ++i) {
        for (Linear l : kAllLinears) {
            // Every module of the linear (each expert of an MoE layer) in one format.
            const std::vector<std::string> modules = linearModules(arch, i, l);
            const Format f = linearFormatOf(s, modules.front(), file);
            for (const std::string& m : modules)
                if (const Format g = linearFormatOf(s, m, file); g != f)
                    throw LoadError(file, m,
                                    "is " + std::string(toString(g)) + " but " + modules.front() +
                                        " is " + std::string(toString(f)) +
                                        "; a band gives every expert of a layer one format");
            p.layers[static_cast<std::size_t>(i)][static_cast<std::size_t>(l)] = f;
        }
        for (const std::string& gate : {routerModule(arch, i), sharedGateModule(arch, i)})
            for (const char* q : {".weight_quantizer", ".input_quantizer"})
                if (!gate.empty() && active(s, gate + q, file))
                    throw LoadError(file, gate + q,
                                    "enabled; the MoE router and the shared expert's gate are "
                                    "never quantized");
    }
    p.lmHead = linearFormatOf(s, std::string(kLmHead), file);
    p.kv = kvFormatOf(s, arch, file);
    return p;
}

Config configFromPlan(const QuantPlan& plan, const ModelArch& arch, int model, int batch,
                      const std::string& file)
{
    std::vector<std::string> problems;
    const auto recipe = recipeOfPlan(plan, problems);
    if (recipe)
        if (std::string why = recipe->validate(arch.layers); !why.empty())
            problems.push_back(why);
    if (!problems.empty()) {
        std::string all;
        for (const std::string& p : problems)
            all += (all.empty() ? "" : "; ") + p;
        throw LoadError(file, "quant_cfg", "not an exportable band recipe: " + all);
    }
    Config c;
    c.model = model;
    c.batch = batch;
    c.recipe = *recipe;
    c.algorithm = plan.algorithm;
    c.lmHeadQuantized = plan.lmHead != Format::Bf16;
    c.kv = plan.kv;
    return c;
}

} // namespace acsel
