#include "core/data/loaderror.h"

#include "core/data/oneline.h"

namespace acsel
{
namespace
{

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
