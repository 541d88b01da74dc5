#include "core/data/qualitysetcsv.h"

#include "core/data/loaderror.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace acsel
{
namespace
{

constexpr std::string_view kBlank = " \t";

std::string_view trim(std::string_view s)
{
    const auto first = s.find_first_not_of(kBlank);
    if (first == std::string_view::npos)
        return {};
    return s.substr(first, s.find_last_not_of(kBlank) - first + 1);
}

// Invalid UTF-8 would make the set unwritable as JSON later (and unprintable in a banner).
bool validUtf8(const std::string& s)
{
    try {
        (void)Json(s).dump();
        return true;
    } catch (const Json::type_error&) {
        return false;
    }
}

// One "# key: value" line, line number `line`, checked and stored into `out`.
void readProvenanceLine(std::string_view body, int line, const std::string& file,
                        CsvProvenance& out, bool& sawSynthetic)
{
    const std::string where = "line " + std::to_string(line);
    const auto colon = body.find(':');
    if (colon == std::string_view::npos)
        throw LoadError(file, where,
                        "expected '# key: value' before the header (keys: synthetic, provenance, "
                        "generator), found '#" +
                            std::string(body) + "'");
    const std::string key(trim(body.substr(0, colon)));
    const std::string value(trim(body.substr(colon + 1)));
    auto once = [&](bool seen) {
        if (seen)
            throw LoadError(file, where, "'# " + key + "' given twice");
    };
    if (key == "synthetic") {
        once(sawSynthetic);
        sawSynthetic = true;
        if (value != "true" && value != "false")
            throw LoadError(file, where,
                            "'# synthetic': expected true or false, found '" + value + "'");
        out.synthetic = value == "true";
    } else if (key == "provenance") {
        once(!out.provenance.empty());
        if (value.empty())
            throw LoadError(file, where,
                            "'# provenance': expected who measured what and how, found nothing");
        if (value.find('\r') != std::string::npos || !validUtf8(value))
            throw LoadError(file, where, "'# provenance': expected one line of UTF-8 text");
        out.provenance = value;
    } else if (key == "generator") {
        once(!out.generator.is_null());
        try {
            out.generator = Json::parse(value);
        } catch (const Json::exception&) {
            out.generator = Json();
        }
        if (!out.generator.is_object())
            throw LoadError(file, where, "'# generator': expected a JSON object on one line");
        if (out.generator.contains("command") && !out.generator["command"].is_string())
            throw LoadError(file, where, "'# generator': expected \"command\" to be a string");
    } else {
        throw LoadError(file, where,
                        "unknown key '# " + key +
                            "' (expected synthetic, provenance or generator)");
    }
}

} // namespace

CsvProvenance splitCsvProvenance(const std::string& text, const std::string& file)
{
    CsvProvenance out;
    bool sawSynthetic = false, inHeader = true;
    int line = 0;
    std::size_t headerStart = text.size();
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t eol = std::min(text.find('\n', pos), text.size());
        std::string_view l(text.data() + pos, eol - pos);
        if (!l.empty() && l.back() == '\r')
            l.remove_suffix(1);
        ++line;
        if (!l.empty() && l.front() == '#') {
            if (!inHeader)
                throw LoadError(file, "line " + std::to_string(line),
                                "a '# key: value' line must come before the header");
            readProvenanceLine(l.substr(1), line, file, out, sawSynthetic);
        } else if (!l.empty() && inHeader) {
            inHeader = false;
            headerStart = pos;
        }
        pos = eol + 1;
    }
    // One newline per line before the header (provenance and blank lines alike).
    std::size_t linesBefore = 0;
    for (std::size_t i = 0; i < headerStart; ++i)
        linesBefore += text[i] == '\n';
    out.table.reserve(linesBefore + text.size() - headerStart);
    out.table.assign(linesBefore, '\n');
    out.table.append(text, headerStart);
    return out;
}

std::string csvProvenanceLines(bool synthetic, const std::string& provenance, const Json& generator,
                               const std::string& file)
{
    if (provenance.empty() || provenance.find_first_of("\r\n") != std::string::npos ||
        trim(provenance).size() != provenance.size() || !validUtf8(provenance))
        throw LoadError(file, "provenance",
                        "a CSV quality set keeps its provenance on one '# provenance:' line: "
                        "expected non-empty UTF-8 text without line breaks or white space at "
                        "either end (write the set as JSON instead)");
    std::string out = std::string("# synthetic: ") + (synthetic ? "true" : "false") + "\n";
    out += "# provenance: " + provenance + "\n";
    if (!generator.is_null())
        out += "# generator: " + generator.dump() + "\n";
    return out;
}

} // namespace acsel
