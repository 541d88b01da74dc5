// Messages echo their input (a field, an argument, a parser's note), so control characters are
// spelled out: an error stays one line however broken the input is.
#pragma once

#include <string>
#include <string_view>

namespace acsel
{

// "\n" -> "\\n", "\r" -> "\\r", "\t" -> "\\t", other C0 controls and DEL -> "\\xNN".
std::string oneLine(std::string_view text);

} // namespace acsel
