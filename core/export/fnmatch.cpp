#include "core/export/fnmatch.h"

namespace acsel
{
namespace
{

// The character set starting at pattern[open] == '['. Returns the index just past its ']', or
// 0 when the set is unterminated (then '[' is a literal, as in Python's fnmatch.translate).
std::size_t setEnd(std::string_view p, std::size_t open)
{
    std::size_t j = open + 1;
    if (j < p.size() && p[j] == '!')
        ++j;
    if (j < p.size() && p[j] == ']') // a leading ']' is a member, not the end
        ++j;
    while (j < p.size() && p[j] != ']')
        ++j;
    return j < p.size() ? j + 1 : 0;
}

bool inSet(std::string_view p, std::size_t open, std::size_t end, char c)
{
    std::size_t i = open + 1;
    const std::size_t last = end - 1; // index of the closing ']'
    bool negate = false;
    if (p[i] == '!') {
        negate = true;
        ++i;
    }
    bool hit = false;
    while (i < last) {
        if (i + 2 < last && p[i + 1] == '-') {
            // A range; an empty one (z-a) matches nothing, as in Python.
            if (p[i] <= c && c <= p[i + 2])
                hit = true;
            i += 3;
        } else {
            if (p[i] == c)
                hit = true;
            ++i;
        }
    }
    return hit != negate;
}

// Matches one non-star pattern token at p[pi] against c; advances pi past the token.
bool matchOne(std::string_view p, std::size_t& pi, char c)
{
    if (p[pi] == '?') {
        ++pi;
        return true;
    }
    if (p[pi] == '[') {
        if (const std::size_t end = setEnd(p, pi); end != 0) {
            const bool ok = inSet(p, pi, end, c);
            pi = end;
            return ok;
        }
    }
    return p[pi++] == c;
}

} // namespace

bool fnmatchCase(std::string_view p, std::string_view s)
{
    // Greedy matching with one backtrack point (the last '*'): every other token consumes
    // exactly one character, so retrying from the last star is complete.
    std::size_t pi = 0, si = 0;
    std::size_t starP = std::string_view::npos, starS = 0;
    while (si < s.size()) {
        if (pi < p.size() && p[pi] == '*') {
            starP = ++pi;
            starS = si;
            continue;
        }
        if (pi < p.size()) {
            std::size_t next = pi;
            if (matchOne(p, next, s[si])) {
                pi = next;
                ++si;
                continue;
            }
        }
        if (starP == std::string_view::npos)
            return false;
        pi = starP;
        si = ++starS;
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

bool isGlob(std::string_view pattern)
{
    return pattern.find_first_of("*?[") != std::string_view::npos;
}

} // namespace acsel
