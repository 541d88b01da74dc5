// "a, b or c": the names of a list of choices as usage lines and error messages spell them.
#pragma once

#include <cstddef>
#include <string>

namespace acsel
{

// name(item) gives each item's name; items in their order.
template <class Range, class Name> std::string choiceList(const Range& items, Name name)
{
    const std::size_t n = std::size(items);
    std::string out;
    std::size_t i = 0;
    for (const auto& item : items) {
        out += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(name(item));
        ++i;
    }
    return out;
}

} // namespace acsel
