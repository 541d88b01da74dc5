#include "core/export/jsonstyle.h"

#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

using Ordered = nlohmann::ordered_json;

void write(std::string& out, const Ordered& j, int depth, int inlineDepth)
{
    if (!j.is_structured() || j.empty()) {
        out += j.dump();
        return;
    }
    const bool oneLine = depth >= inlineDepth;
    const std::string pad(static_cast<std::size_t>(2 * (depth + 1)), ' ');
    const std::string closePad(static_cast<std::size_t>(2 * depth), ' ');
    out += j.is_object() ? "{" : "[";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
        out += first ? "" : ",";
        out += oneLine ? (first ? "" : " ") : "\n" + pad;
        first = false;
        if (j.is_object())
            out += Ordered(it.key()).dump() + ": ";
        write(out, it.value(), depth + 1, inlineDepth);
    }
    out += oneLine ? "" : "\n" + closePad;
    out += j.is_object() ? "}" : "]";
}

} // namespace

std::string prettyJson(const nlohmann::ordered_json& j, int inlineDepth)
{
    std::string out;
    write(out, j, 0, inlineDepth);
    return out + "\n";
}

} // namespace acsel
