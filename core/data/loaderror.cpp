#include "core/data/loaderror.h"

namespace acsel
{
namespace
{

std::string compose(const std::string& file, const std::string& where, const std::string& msg)
{
    std::string out = file.empty() ? std::string("<input>") : file;
    if (!where.empty())
        out += ": " + where;
    return out + ": " + msg;
}

} // namespace

LoadError::LoadError(std::string file, std::string where, std::string message)
    : std::runtime_error(compose(file, where, message)), file_(std::move(file)),
      where_(std::move(where)), message_(std::move(message))
{
}

} // namespace acsel
