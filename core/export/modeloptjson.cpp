#include "core/export/modeloptjson.h"

#include "core/data/jsonfields.h"
#include "core/data/loaderror.h"
#include "core/export/jsonstyle.h"
#include "core/export/numerics.h"
#include "core/export/quantcfg.h"
#include "core/export/recipereader.h"

#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

using Ordered = nlohmann::ordered_json;

// JSON has no tuples: (E, M) float formats are written as [E, M], integers as integers.
Ordered numBits(NumBits b)
{
    switch (b) {
    case NumBits::Int4:
        return 4;
    case NumBits::Int8:
        return 8;
    case NumBits::E4M3:
        return Ordered::array({4, 3});
    case NumBits::E2M1:
        return Ordered::array({2, 1});
    }
    return nullptr;
}

Ordered numerics(const Numerics& n)
{
    Ordered o;
    o["num_bits"] = numBits(n.bits);
    if (n.axis == Axis::None)
        o["axis"] = nullptr;
    else if (n.axis == Axis::Zero)
        o["axis"] = 0;
    if (n.blockLast != 0) {
        // JSON object keys are strings: see docs/EXPORT.md for turning "-1" back into -1.
        Ordered b;
        b["-1"] = n.blockLast;
        if (n.blockSecond != 0)
            b["-2"] = n.blockSecond;
        if (n.blockType != BlockType::Absent)
            b["type"] = n.blockType == BlockType::Dynamic ? "dynamic" : "static";
        if (n.scaleBits)
            b["scale_bits"] = numBits(*n.scaleBits);
        o["block_sizes"] = b;
    }
    return o;
}

class JsonRecipeReader
{
public:
    explicit JsonRecipeReader(std::string file) : file_(std::move(file)) {}
    [[noreturn]] void fail(const std::string& ptr, const std::string& msg) const
    {
        throw LoadError(file_, ptr, msg);
    }

    NumBits numBits(const Ordered& v, const std::string& ptr) const
    {
        if (v == 4)
            return NumBits::Int4;
        if (v == 8)
            return NumBits::Int8;
        if (v == Ordered::array({4, 3}))
            return NumBits::E4M3;
        if (v == Ordered::array({2, 1}))
            return NumBits::E2M1;
        if (v.is_string())
            if (auto b = parseYamlNumBits(v.get<std::string>()))
                return *b;
        fail(ptr, "num_bits must be 4, 8, [4, 3] or [2, 1]");
    }

    int blockSize(const Ordered& v, const std::string& ptr) const
    {
        if (!v.is_number_integer() || (v != 16 && v != 32 && v != 64 && v != 128))
            fail(ptr, "block size must be 16, 32, 64 or 128");
        return v.get<int>();
    }

    Numerics numerics(const Ordered& o, const std::string& ptr) const
    {
        Numerics n;
        if (!o.contains("num_bits"))
            fail(ptr, "missing num_bits");
        for (auto it = o.begin(); it != o.end(); ++it) {
            const std::string p = ptr + "/" + it.key();
            const Ordered& v = it.value();
            if (it.key() == "num_bits") {
                n.bits = numBits(v, p);
            } else if (it.key() == "axis") {
                if (v.is_null())
                    n.axis = Axis::None;
                else if (v == 0)
                    n.axis = Axis::Zero;
                else
                    fail(p, "axis must be null (per tensor) or 0 (per channel)");
            } else if (it.key() == "block_sizes") {
                if (!v.is_object())
                    fail(p, "expected an object");
                for (auto b = v.begin(); b != v.end(); ++b) {
                    const std::string bp = p + "/" + b.key();
                    if (b.key() == "-1")
                        n.blockLast = blockSize(b.value(), bp);
                    else if (b.key() == "-2")
                        n.blockSecond = blockSize(b.value(), bp);
                    else if (b.key() == "type" && (b.value() == "static" || b.value() == "dynamic"))
                        n.blockType =
                            b.value() == "dynamic" ? BlockType::Dynamic : BlockType::Static;
                    else if (b.key() == "scale_bits")
                        n.scaleBits = numBits(b.value(), bp);
                    else
                        fail(bp, "unsupported block_sizes entry (expected -1, -2, type static or "
                                 "dynamic, scale_bits)");
                }
                if (n.blockLast == 0)
                    fail(p, "block_sizes needs a block size for axis -1");
            } else {
                fail(p, "unsupported quantizer attribute '" + it.key() + "'");
            }
        }
        return n;
    }

private:
    std::string file_;
};

} // namespace

std::string modelOptQuantCfgJson(const ExportInput& in)
{
    const QuantPlan plan = planOf(in.config, in.arch.layers);
    Ordered cfg = Ordered::object();
    for (const CfgEntry& e : quantCfgEntries(plan, in.arch)) {
        Ordered v = e.cfg ? numerics(*e.cfg) : Ordered::object();
        if (e.enable)
            v["enable"] = *e.enable;
        // The legacy form's catch-all key; ModelOpt maps "default" to "*".
        cfg[e.pattern == kDisableAll ? "default" : e.pattern] = v;
    }
    Ordered j;
    // What wrote the file and where its predictions come from; ModelOpt takes only quant_cfg
    // and algorithm, so howToApply drops this key before mtq.quantize.
    j["acsel"] = {{"version", ACSEL_VERSION}};
    if (!in.predictionNote.empty())
        j["acsel"]["predictions"] = in.predictionNote;
    j["quant_cfg"] = cfg;
    if (plan.algorithm == Algorithm::Awq)
        j["algorithm"] = {{"method", modelOptMethod(plan.algorithm)}, {"alpha_step", 0.1}};
    else
        j["algorithm"] = modelOptMethod(plan.algorithm);
    return prettyJson(j, 2);
}

QuantPlan readModelOptQuantCfgJson(const std::string& text, const ModelArch& arch,
                                   const std::string& file)
{
    Ordered j;
    try {
        j = Ordered::parse(text);
    } catch (const Ordered::parse_error& e) {
        throw LoadError(file, jsonLineAndColumn(text, e.byte), "invalid JSON");
    } catch (const Ordered::out_of_range&) {
        // A number beyond a double (1e999) is reported as out_of_range, not parse_error; it
        // escaped as an internal error (fuzz_recipe).
        throw LoadError(file, "", "invalid JSON: a number is beyond a double's range");
    }
    const JsonRecipeReader r(file);
    if (!j.is_object())
        r.fail("/", "expected {\"quant_cfg\": {...}, \"algorithm\": ...}");
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "quant_cfg" && it.key() != "algorithm" && it.key() != "acsel")
            r.fail("/" + it.key(), "unsupported key (expected quant_cfg, algorithm, acsel)");
    if (!j.contains("quant_cfg") || !j["quant_cfg"].is_object())
        r.fail("/quant_cfg", "expected an object of quantizer patterns");
    Algorithm algorithm = Algorithm::Max; // ModelOpt's default
    if (j.contains("algorithm")) {
        const Ordered& a = j["algorithm"];
        const Ordered& m = a.is_object() && a.contains("method") ? a["method"] : a;
        const auto parsed = m.is_string() ? algorithmOfMethod(m.get<std::string>()) : std::nullopt;
        if (!parsed)
            r.fail("/algorithm",
                   "expected max, smoothquant, gptq or {\"method\": \"awq_lite\", ...}");
        algorithm = *parsed;
    }
    std::vector<CfgEntry> entries;
    for (auto it = j["quant_cfg"].begin(); it != j["quant_cfg"].end(); ++it) {
        const std::string ptr = "/quant_cfg/" + it.key();
        if (!it.value().is_object())
            r.fail(ptr, "expected an object of quantizer attributes");
        Ordered attrs = it.value();
        CfgEntry e;
        e.pattern = it.key() == "default" ? std::string(kDisableAll) : it.key();
        e.where = ptr;
        if (attrs.contains("enable")) {
            if (!attrs["enable"].is_boolean())
                r.fail(ptr + "/enable", "expected true or false");
            e.enable = attrs["enable"].get<bool>();
            attrs.erase("enable");
        }
        if (!attrs.empty())
            e.cfg = r.numerics(attrs, ptr);
        entries.push_back(std::move(e));
    }
    return planFromEntries(entries, algorithm, arch, file);
}

} // namespace acsel
