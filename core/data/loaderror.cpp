#include "core/data/loaderror.h"

namespace acsel
{
namespace
{

// Messages echo the input (a field, a string, a parser's note), so control characters are
// spelled out: the error stays one line however broken the file is.
std::string oneLine(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (u < 0x20 || u == 0x7f) {
            constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 0xf];
        } else
            out += c;
    }
    return out;
}

std::string compose(const std::string& file, const std::string& where, const std::string& msg)
{
    std::string out = file.empty() ? std::string("<input>") : oneLine(file);
    if (!where.empty())
        out += ": " + oneLine(where);
    return out + ": " + oneLine(msg);
}

} // namespace

LoadError::LoadError(std::string file, std::string where, std::string message)
    : std::runtime_error(compose(file, where, message)), file_(std::move(file)),
      where_(std::move(where)), message_(std::move(message))
{
}

} // namespace acsel
