// JSON text for files people read: indented like json.dump(2) down to a depth, and one line
// per value below it, so that a quant_cfg entry or a quantized layer stays on one line.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace acsel
{

// inlineDepth: values nested this deep (the root is 0) print on one line, with ", " and ": ".
std::string prettyJson(const nlohmann::ordered_json& j, int inlineDepth);

} // namespace acsel
