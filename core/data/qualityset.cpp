#include "core/data/qualityset.h"

#include "core/data/atomicfile.h"
#include "core/data/csvreader.h"
#include "core/data/inputfile.h"
#include "core/data/loaderror.h"
#include "core/data/qualitysetcsv.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <locale>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace acsel
{
namespace
{

// One bound for both file forms, so that a set read from one reads back from the other.
constexpr double kMaxRmqd = 1e300;

bool parseInt(std::string_view s, int& out)
{
    const char* end = s.data() + s.size();
    const auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

std::string modelNames(const std::vector<ModelArch>& models)
{
    std::string out;
    for (const ModelArch& m : models)
        out += (out.empty() ? "" : ", ") + m.name;
    return out;
}

// The raw text of one row, in either file form; `where(field)` names the field for errors.
struct RawRow {
    std::string model, algorithm, lmHead, kv, bands, rmqd, split;
};

template <class Where>
QualityRow checkRow(const RawRow& raw, const std::string& file,
                    const std::vector<ModelArch>& models, Where where)
{
    QualityRow row;
    int found = -1;
    for (std::size_t i = 0; i < models.size(); ++i)
        if (models[i].name == raw.model || models[i].hfId == raw.model)
            found = static_cast<int>(i);
    if (found < 0)
        throw LoadError(file, where("model"),
                        "unknown model '" + raw.model + "' (the workspace has " +
                            modelNames(models) + ")");
    row.model = found;
    const ModelArch& m = models[static_cast<std::size_t>(found)];
    const auto algo = parseAlgorithm(raw.algorithm);
    if (!algo)
        throw LoadError(file, where("algorithm"),
                        "unknown algorithm '" + raw.algorithm +
                            "' (expected max, smoothquant, awq or gptq)");
    row.algorithm = *algo;
    if (raw.lmHead == "true" || raw.lmHead == "1")
        row.lmHeadQuantized = true;
    else if (raw.lmHead != "false" && raw.lmHead != "0")
        throw LoadError(file, where("lm_head_quantized"),
                        "expected true/false or 1/0, found '" + raw.lmHead + "'");
    const auto kv = parseKvFormat(raw.kv);
    if (!kv)
        throw LoadError(file, where("kv"),
                        "unknown KV format '" + raw.kv + "' (expected bf16 or fp8)");
    row.kv = *kv;
    const std::string bandError = bandsFromText(raw.bands, m.layers, row.recipe);
    if (!bandError.empty())
        throw LoadError(file, where("bands"),
                        bandError + " (model " + m.name + " has " + std::to_string(m.layers) +
                            " layers)");
    for (const Band& b : row.recipe)
        if (!algorithmFits(row.algorithm, b.format))
            throw LoadError(file, where("algorithm"),
                            "algorithm " + raw.algorithm + " cannot calibrate a " +
                                std::string(toString(b.format)) + " band");
    if (row.lmHeadQuantized && row.recipe[row.recipe.size() - 1].format == Format::Bf16)
        throw LoadError(
            file, where("lm_head_quantized"),
            "lm_head runs at the last band's format, which is bf16: it cannot be quantized");
    // from_chars, not strtod: strtod follows the C locale, which the GUI sets from the
    // environment (a decimal comma under de_DE refused every row of the default set).
    const char* const rmqdEnd = raw.rmqd.data() + raw.rmqd.size();
    const auto [rmqdStop, rmqdError] = std::from_chars(raw.rmqd.data(), rmqdEnd, row.rmqd);
    if (raw.rmqd.empty() || rmqdError != std::errc() || rmqdStop != rmqdEnd || !(row.rmqd > 0.0) ||
        row.rmqd > kMaxRmqd)
        throw LoadError(file, where("rmqd"),
                        "expected an RMQD in (0, 1e300] (nats), found '" + raw.rmqd + "'");
    if (raw.split == "train")
        row.split = Split::Train;
    else if (raw.split == "heldout")
        row.split = Split::Heldout;
    else
        throw LoadError(file, where("split"),
                        "expected train or heldout, found '" + raw.split + "'");
    return row;
}

// One measurement per configuration (everything but the RMQD and the split): a configuration
// measured twice would weigh twice in every fit, and could sit in both splits.
class ConfigurationIndex
{
public:
    ConfigurationIndex(const std::string& file, const std::vector<ModelArch>& models)
        : file_(file), models_(models)
    {
    }
    // `where`: the row ("line 7" or "/rows/6"); throws LoadError if the row repeats an earlier one.
    void add(const QualityRow& r, const std::string& where)
    {
        const std::string configuration = models_[static_cast<std::size_t>(r.model)].name + " " +
                                          std::string(toString(r.algorithm)) + " kv " +
                                          std::string(toString(r.kv)) + " lm_head " +
                                          (r.lmHeadQuantized ? "quantized" : "bf16") + " bands " +
                                          bandsToText(r.recipe);
        if (const auto [it, fresh] = first_.emplace(configuration, where); !fresh)
            throw LoadError(file_, where,
                            "duplicate configuration " + configuration + " (first at " +
                                it->second + "); keep one measurement per configuration");
    }

private:
    const std::string& file_;
    const std::vector<ModelArch>& models_;
    std::map<std::string, std::string> first_; // configuration -> the row that has it
};

} // namespace

std::string_view toString(Split s)
{
    return s == Split::Train ? "train" : "heldout";
}

std::string bandsToText(const BandRecipe& r)
{
    std::string out;
    for (const Band& b : r) {
        if (!out.empty())
            out += ";";
        out += std::to_string(b.begin) + "-" + std::to_string(b.end - 1) + ":" +
               std::string(toString(b.format));
        if (b.format != Format::Bf16)
            out += "/" + std::string(toString(b.scope));
    }
    return out;
}

std::string bandsFromText(const std::string& text, int numLayers, BandRecipe& out)
{
    out = BandRecipe{};
    std::stringstream ss(text);
    std::string item;
    int index = 0;
    while (std::getline(ss, item, ';')) {
        ++index;
        const std::string which = "band " + std::to_string(index) + " '" + item + "'";
        const auto colon = item.find(':');
        const auto dash = item.find('-');
        if (colon == std::string::npos || dash == std::string::npos || dash > colon)
            return which + ": expected first-last:format/scope, e.g. 0-9:fp8/full";
        int first = 0, last = 0;
        if (!parseInt(std::string_view(item).substr(0, dash), first) ||
            !parseInt(std::string_view(item).substr(dash + 1, colon - dash - 1), last))
            return which + ": layer numbers must be integers";
        std::string fmt = item.substr(colon + 1), scope = "full";
        if (const auto slash = fmt.find('/'); slash != std::string::npos) {
            scope = fmt.substr(slash + 1);
            fmt.resize(slash);
        }
        const auto f = parseFormat(fmt);
        if (!f)
            return which + ": unknown format '" + fmt + "' (expected " + formatChoices() + ")";
        const auto s = parseScope(scope);
        if (!s)
            return which + ": unknown scope '" + scope + "' (expected " + scopeChoices() + ")";
        if (out.size() == BandRecipe::kMaxBands)
            return "more than 3 bands";
        // Checked before last + 1, which overflowed an int for last = 2147483647.
        if (last >= numLayers)
            return which + ": last layer " + std::to_string(last) +
                   " is beyond the model's last layer " + std::to_string(numLayers - 1);
        out.push({first, last + 1, *f, *s});
    }
    if (out.size() == 0)
        return "no bands: expected e.g. 0-9:fp8/full;10-35:bf16";
    return out.validate(numLayers);
}

QualitySet parseQualitySetJson(const Json& j, const std::string& file,
                               const std::vector<ModelArch>& models)
{
    const JsonFields f(file);
    f.schemaVersion(j, kQualitySetSchemaVersion, kQualitySetSchemaVersion);
    if (f.string(j, "kind", "") != "acsel-quality-set")
        f.fail("/kind", "expected \"acsel-quality-set\"");
    QualitySet set;
    set.file = file;
    set.synthetic = f.boolean(j, "synthetic", "");
    set.provenance = f.string(j, "provenance", "");
    if (j.contains("generator")) {
        set.generator = f.object(j, "generator", "");
        if (set.generator.contains("command")) // shown as "made by" beside the banner
            (void)f.string(set.generator, "command", "/generator");
    }
    const Json& rows = f.array(j, "rows", "");
    if (rows.empty())
        f.fail("/rows", "expected at least one measurement row");
    ConfigurationIndex configurations(file, models);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string ptr = "/rows/" + std::to_string(i);
        const Json& r = rows[i];
        RawRow raw;
        raw.model = f.string(r, "model", ptr);
        raw.algorithm = f.string(r, "algorithm", ptr);
        raw.lmHead = f.boolean(r, "lm_head_quantized", ptr) ? "true" : "false";
        raw.kv = f.string(r, "kv", ptr);
        raw.bands = f.string(r, "bands", ptr);
        const double v = f.number(r, "rmqd", ptr, -kMaxRmqd, kMaxRmqd); // the sign: checkRow
        std::ostringstream num;
        num.imbue(std::locale::classic()); // read back by from_chars in checkRow
        num.precision(17);
        num << v;
        raw.rmqd = num.str();
        raw.split = f.string(r, "split", ptr);
        set.rows.push_back(checkRow(raw, file, models,
                                    [&](const std::string& field) { return ptr + "/" + field; }));
        configurations.add(set.rows.back(), ptr);
    }
    return set;
}

QualitySet parseQualitySetCsv(const std::string& text, const std::string& file,
                              const std::vector<ModelArch>& models)
{
    CsvProvenance meta = splitCsvProvenance(text, file);
    CsvReader csv = CsvReader::fromString(std::move(meta.table), file);
    const int cModel = csv.requireColumn("model"), cAlgo = csv.requireColumn("algorithm"),
              cLm = csv.requireColumn("lm_head_quantized"), cKv = csv.requireColumn("kv"),
              cBands = csv.requireColumn("bands"), cRmqd = csv.requireColumn("rmqd"),
              cSplit = csv.requireColumn("split");
    QualitySet set;
    set.file = file;
    set.synthetic = meta.synthetic;
    set.provenance =
        meta.provenance.empty() ? "imported from CSV " + file : std::move(meta.provenance);
    set.generator = std::move(meta.generator);
    ConfigurationIndex configurations(file, models);
    while (csv.next()) {
        const RawRow raw{std::string(csv.field(cModel)), std::string(csv.field(cAlgo)),
                         std::string(csv.field(cLm)),    std::string(csv.field(cKv)),
                         std::string(csv.field(cBands)), std::string(csv.field(cRmqd)),
                         std::string(csv.field(cSplit))};
        const std::map<std::string, int> cols{
            {"model", cModel}, {"algorithm", cAlgo}, {"lm_head_quantized", cLm}, {"kv", cKv},
            {"bands", cBands}, {"rmqd", cRmqd},      {"split", cSplit}};
        set.rows.push_back(checkRow(raw, file, models, [&](const std::string& field) {
            return csv.where(cols.at(field));
        }));
        configurations.add(set.rows.back(), "line " + std::to_string(csv.lineNumber()));
    }
    if (set.rows.empty())
        throw LoadError(file, "", "no measurement rows after the header");
    return set;
}

QualitySet loadQualitySet(const std::string& path, const std::vector<ModelArch>& models)
{
    if (std::filesystem::path(path).extension() != ".csv")
        return parseQualitySetJson(parseJsonFile(path), path, models);
    return parseQualitySetCsv(readInputFile(path, kCsvLimit), path, models);
}

Json qualitySetToJson(const QualitySet& set, const std::vector<ModelArch>& models)
{
    Json j;
    j["schema_version"] = kQualitySetSchemaVersion;
    j["kind"] = "acsel-quality-set";
    j["synthetic"] = set.synthetic;
    j["provenance"] = set.provenance;
    if (!set.generator.is_null())
        j["generator"] = set.generator;
    j["rows"] = Json::array();
    for (const QualityRow& r : set.rows)
        j["rows"].push_back({{"model", models[static_cast<std::size_t>(r.model)].name},
                             {"algorithm", toString(r.algorithm)},
                             {"lm_head_quantized", r.lmHeadQuantized},
                             {"kv", toString(r.kv)},
                             {"bands", bandsToText(r.recipe)},
                             {"rmqd", r.rmqd},
                             {"split", toString(r.split)}});
    return j;
}

std::string qualitySetToCsv(const QualitySet& set, const std::vector<ModelArch>& models,
                            const std::string& file)
{
    std::string out = csvProvenanceLines(set.synthetic, set.provenance, set.generator, file);
    out += "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n";
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        const QualityRow& r = set.rows[i];
        const std::string& model = models[static_cast<std::size_t>(r.model)].name;
        if (model.find_first_of(",\r\n") != std::string::npos)
            throw LoadError(file, "row " + std::to_string(i + 1) + ", column 'model'",
                            "model name '" + model +
                                "' has a comma or line break, which CSV cannot hold (write the "
                                "set as JSON instead)");
        char rmqd[32];
        const auto end = std::to_chars(rmqd, rmqd + sizeof rmqd, r.rmqd).ptr; // shortest exact
        out += model + "," + std::string(toString(r.algorithm)) + "," +
               (r.lmHeadQuantized ? "true" : "false") + "," + std::string(toString(r.kv)) + "," +
               bandsToText(r.recipe) + "," + std::string(rmqd, end) + "," +
               std::string(toString(r.split)) + "\n";
    }
    return out;
}

namespace
{

// One row per line keeps a JSON file small and its diffs readable.
std::string qualitySetJsonText(const QualitySet& set, const std::vector<ModelArch>& models)
{
    const Json j = qualitySetToJson(set, models);
    std::string out = "{\n";
    bool firstKey = true;
    for (const auto& [key, value] : j.items()) {
        if (key == "rows")
            continue;
        out += (firstKey ? "" : ",\n") + std::string("  ") + Json(key).dump() + ": " + value.dump();
        firstKey = false;
    }
    out += ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < j["rows"].size(); ++i)
        out += "    " + j["rows"][i].dump() + (i + 1 < j["rows"].size() ? ",\n" : "\n");
    out += "  ]\n}\n";
    return out;
}

} // namespace

std::string qualitySetText(const QualitySet& set, const std::vector<ModelArch>& models,
                           const std::string& path)
{
    return std::filesystem::path(path).extension() == ".csv" ? qualitySetToCsv(set, models, path)
                                                             : qualitySetJsonText(set, models);
}

void writeQualitySet(const QualitySet& set, const std::vector<ModelArch>& models,
                     const std::string& path)
{
    // Composed before the temporary file exists, so a set CSV cannot hold leaves nothing behind.
    writeFileAtomically(path, qualitySetText(set, models, path));
}

} // namespace acsel
