// Python fnmatch.fnmatchcase semantics, which ModelOpt uses to match quant_cfg quantizer_name
// globs against quantizer module names: '*' matches any run of characters (dots included),
// '?' one character, '[seq]' / '[!seq]' a character (not) in the set with a-z ranges; a '['
// without a closing ']' is a literal. Case-sensitive, no escapes.
#pragma once

#include <string_view>

namespace acsel
{

bool fnmatchCase(std::string_view pattern, std::string_view name);
// Whether the pattern has any glob metacharacter ('*', '?', '['): else it is an exact name.
bool isGlob(std::string_view pattern);

} // namespace acsel
