#include "core/export/modeloptyaml.h"

#include "core/data/loaderror.h"
#include "core/export/numerics.h"
#include "core/export/quantcfg.h"
#include "core/export/recipereader.h"

#include <yaml-cpp/yaml.h>

namespace acsel
{
namespace
{

void emitNumBits(YAML::Emitter& e, NumBits b)
{
    if (b == NumBits::Int4 || b == NumBits::Int8)
        e << (b == NumBits::Int4 ? 4 : 8);
    else
        e << std::string(yamlName(b));
}

void emitNumerics(YAML::Emitter& e, const Numerics& n)
{
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "num_bits" << YAML::Value;
    emitNumBits(e, n.bits);
    if (n.axis != Axis::Absent) {
        e << YAML::Key << "axis" << YAML::Value;
        if (n.axis == Axis::Zero)
            e << 0;
        else
            e << YAML::Null;
    }
    if (n.blockLast != 0) {
        e << YAML::Key << "block_sizes" << YAML::Value << YAML::BeginMap;
        e << YAML::Key << -1 << YAML::Value << n.blockLast;
        if (n.blockSecond != 0)
            e << YAML::Key << -2 << YAML::Value << n.blockSecond;
        if (n.blockType != BlockType::Absent)
            e << YAML::Key << "type" << YAML::Value
              << (n.blockType == BlockType::Dynamic ? "dynamic" : "static");
        if (n.scaleBits) {
            e << YAML::Key << "scale_bits" << YAML::Value;
            emitNumBits(e, *n.scaleBits);
        }
        e << YAML::EndMap;
    }
    e << YAML::EndMap;
}

void emitAlgorithm(YAML::Emitter& e, Algorithm a)
{
    if (a == Algorithm::Awq)
        e << YAML::Flow << YAML::BeginMap << YAML::Key << "method" << YAML::Value
          << std::string(modelOptMethod(a)) << YAML::Key << "alpha_step" << YAML::Value << "0.1"
          << YAML::EndMap;
    else
        e << std::string(modelOptMethod(a));
}

std::string headerComment(const ExportInput& in)
{
    return "NVIDIA ModelOpt PTQ recipe (ModelOpt >= 0.44, list form), written by acsel-studio " +
           std::string(ACSEL_VERSION) + ".\nModel: " + in.arch.name + " (" + in.arch.hfId + "), " +
           std::to_string(in.arch.layers) +
           " layers. Bands: " + in.config.recipe.describe(in.arch.isMoe()) +
           ".\nApply: recipe = modelopt.recipe.load_recipe(\"<this file>\")\n"
           "       mtq.quantize(model, recipe.quantize.model_dump(), forward_loop)\n"
           "   or: python examples/llm_ptq/hf_ptq.py --pyt_ckpt_path " +
           in.arch.hfId + " --recipe <this file> --export_path " + exportFolder(in.arch) +
           (in.predictions && !in.predictionNote.empty() ? "\nNote: " + in.predictionNote
                                                         : std::string());
}

// ---- reading -------------------------------------------------------------------------------

class YamlRecipeReader
{
public:
    explicit YamlRecipeReader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const YAML::Node& n, const std::string& path,
                           const std::string& msg) const
    {
        const YAML::Mark m = n.Mark();
        const std::string where =
            m.is_null() ? path : "line " + std::to_string(m.line + 1) + " (" + path + ")";
        throw LoadError(file_, where, msg);
    }

    void onlyKeys(const YAML::Node& map, const std::string& path,
                  std::initializer_list<const char*> keys) const
    {
        if (!map.IsMap())
            fail(map, path, "expected a mapping");
        for (const auto& kv : map) {
            const std::string k = kv.first.as<std::string>();
            bool known = false;
            std::string list;
            for (const char* key : keys) {
                known = known || k == key;
                list += (list.empty() ? "" : ", ") + std::string(key);
            }
            if (!known)
                fail(kv.first, path + "." + k,
                     "unsupported key '" + k + "' (expected: " + list + ")");
        }
    }

    std::string scalar(const YAML::Node& n, const std::string& path) const
    {
        if (!n.IsScalar())
            fail(n, path, "expected a scalar");
        return n.Scalar();
    }

    NumBits numBits(const YAML::Node& n, const std::string& path) const
    {
        if (n.IsSequence() && n.size() == 2) { // (E, M) tuple form
            const std::string s = "e" + scalar(n[0], path) + "m" + scalar(n[1], path);
            if (auto b = parseYamlNumBits(s); b && (*b == NumBits::E4M3 || *b == NumBits::E2M1))
                return *b;
        } else if (auto b = parseYamlNumBits(scalar(n, path))) {
            return *b;
        }
        fail(n, path, "num_bits must be 4, 8, e4m3 or e2m1");
    }

    Numerics numerics(const YAML::Node& n, const std::string& path) const
    {
        onlyKeys(n, path, {"num_bits", "axis", "block_sizes"});
        Numerics out;
        if (!n["num_bits"])
            fail(n, path, "missing num_bits");
        out.bits = numBits(n["num_bits"], path + ".num_bits");
        if (const YAML::Node a = n["axis"]) {
            if (a.IsNull())
                out.axis = Axis::None;
            else if (a.IsScalar() && a.Scalar() == "0")
                out.axis = Axis::Zero;
            else
                fail(a, path + ".axis", "axis must be null (per tensor) or 0 (per channel)");
        }
        if (const YAML::Node b = n["block_sizes"]) {
            const std::string bp = path + ".block_sizes";
            onlyKeys(b, bp, {"-1", "-2", "type", "scale_bits"});
            auto size = [&](const char* key) {
                const YAML::Node v = b[key];
                if (!v)
                    return 0;
                const std::string s = scalar(v, bp + "." + key);
                if (s != "16" && s != "32" && s != "64" && s != "128")
                    fail(v, bp + "." + key, "block size must be 16, 32, 64 or 128");
                return std::stoi(s);
            };
            out.blockLast = size("-1");
            out.blockSecond = size("-2");
            if (out.blockLast == 0)
                fail(b, bp, "block_sizes needs a block size for axis -1");
            if (const YAML::Node t = b["type"]) {
                const std::string s = scalar(t, bp + ".type");
                if (s != "static" && s != "dynamic")
                    fail(t, bp + ".type", "type must be static or dynamic");
                out.blockType = s == "dynamic" ? BlockType::Dynamic : BlockType::Static;
            }
            if (const YAML::Node s = b["scale_bits"])
                out.scaleBits = numBits(s, bp + ".scale_bits");
        }
        return out;
    }

    Algorithm algorithm(const YAML::Node& n, const std::string& path) const
    {
        std::string method;
        if (n.IsMap()) {
            if (!n["method"])
                fail(n, path, "an algorithm mapping needs a method");
            method = scalar(n["method"], path + ".method");
        } else {
            method = scalar(n, path);
        }
        if (auto a = algorithmOfMethod(method))
            return *a;
        fail(n, path,
             "unsupported calibration algorithm '" + method +
                 "' (expected max, smoothquant, awq_lite or gptq)");
    }

    CfgEntry entry(const YAML::Node& n, const std::string& path) const
    {
        if (n.IsMap() && n["parent_class"])
            fail(n, path, "parent_class filters are not supported by this reader");
        onlyKeys(n, path, {"quantizer_name", "cfg", "enable"});
        CfgEntry e;
        if (!n["quantizer_name"])
            fail(n, path, "missing quantizer_name");
        e.pattern = scalar(n["quantizer_name"], path + ".quantizer_name");
        if (const YAML::Node c = n["cfg"])
            e.cfg = numerics(c, path + ".cfg");
        if (const YAML::Node en = n["enable"]) {
            const std::string s = scalar(en, path + ".enable");
            if (s != "true" && s != "false")
                fail(en, path + ".enable", "enable must be true or false");
            e.enable = s == "true";
        }
        const YAML::Mark m = n.Mark();
        e.where = "line " + std::to_string(m.line + 1) + " (" + path + ")";
        return e;
    }

private:
    std::string file_;
};

} // namespace

std::string modelOptRecipeYaml(const ExportInput& in)
{
    const QuantPlan plan = planOf(in.config, in.arch.layers);
    YAML::Emitter e;
    e.SetIndent(2);
    e.SetNullFormat(YAML::LowerNull);
    e << YAML::Comment(headerComment(in)) << YAML::Newline;
    e << YAML::BeginMap;
    e << YAML::Key << "metadata" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "recipe_type" << YAML::Value << "ptq";
    e << YAML::Key << "description" << YAML::Value << describeExport(in);
    e << YAML::EndMap;
    e << YAML::Key << "quantize" << YAML::Value << YAML::BeginMap;
    e << YAML::Key << "algorithm" << YAML::Value;
    emitAlgorithm(e, plan.algorithm);
    e << YAML::Key << "quant_cfg" << YAML::Value << YAML::BeginSeq;
    for (const CfgEntry& c : quantCfgEntries(plan, in.arch)) {
        e << YAML::BeginMap << YAML::Key << "quantizer_name" << YAML::Value << YAML::SingleQuoted
          << c.pattern;
        if (c.cfg) {
            e << YAML::Key << "cfg" << YAML::Value;
            emitNumerics(e, *c.cfg);
        }
        if (c.enable)
            e << YAML::Key << "enable" << YAML::Value << *c.enable;
        e << YAML::EndMap;
    }
    e << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
    if (!e.good())
        throw std::logic_error("yaml-cpp emitter: " + e.GetLastError());
    return std::string(e.c_str()) + "\n";
}

namespace
{
RecipeReadback readRoot(const YAML::Node& root, const ModelArch& arch, const std::string& file);
} // namespace

RecipeReadback readModelOptRecipeYaml(const std::string& text, const ModelArch& arch,
                                      const std::string& file)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& ex) {
        throw LoadError(file, "line " + std::to_string(ex.mark.line + 1),
                        "invalid YAML: " + ex.msg);
    }
    try {
        return readRoot(root, arch, file);
    } catch (const YAML::Exception& ex) { // e.g. a mapping where a scalar key was expected
        throw LoadError(file, "line " + std::to_string(ex.mark.line + 1),
                        "unexpected YAML: " + ex.msg);
    }
}

namespace
{

RecipeReadback readRoot(const YAML::Node& root, const ModelArch& arch, const std::string& file)
{
    const YamlRecipeReader r(file);
    r.onlyKeys(root, "recipe", {"metadata", "quantize"});
    RecipeReadback out;
    const YAML::Node meta = root["metadata"];
    if (!meta)
        r.fail(root, "recipe", "missing metadata (with recipe_type: ptq)");
    r.onlyKeys(meta, "metadata", {"recipe_type", "description"});
    if (!meta["recipe_type"] || r.scalar(meta["recipe_type"], "metadata.recipe_type") != "ptq")
        r.fail(meta, "metadata.recipe_type", "expected recipe_type: ptq");
    if (meta["description"])
        out.description = r.scalar(meta["description"], "metadata.description");
    const YAML::Node q = root["quantize"];
    if (!q)
        r.fail(root, "recipe", "missing quantize");
    r.onlyKeys(q, "quantize", {"algorithm", "quant_cfg"});
    // ModelOpt's QuantizeConfig defaults the algorithm to max.
    const Algorithm algorithm =
        q["algorithm"] ? r.algorithm(q["algorithm"], "quantize.algorithm") : Algorithm::Max;
    const YAML::Node list = q["quant_cfg"];
    if (!list || !list.IsSequence())
        r.fail(q, "quantize.quant_cfg", "expected quant_cfg as a list of entries");
    std::vector<CfgEntry> entries;
    for (std::size_t i = 0; i < list.size(); ++i)
        entries.push_back(r.entry(list[i], "quantize.quant_cfg[" + std::to_string(i) + "]"));
    out.plan = planFromEntries(entries, algorithm, arch, file);
    return out;
}

} // namespace
} // namespace acsel
