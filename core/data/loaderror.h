// The one error type of every loader: which file, where in it, and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace acsel
{

class LoadError : public std::runtime_error
{
public:
    // where: "line 12, column 'latency'" or a JSON pointer "/models/3/layers"; may be empty.
    LoadError(std::string file, std::string where, std::string message);

    const std::string& file() const { return file_; }
    const std::string& where() const { return where_; }
    const std::string& message() const { return message_; }

private:
    std::string file_, where_, message_;
};

} // namespace acsel
