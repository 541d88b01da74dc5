// Strict access to JSON fields: every failure is a LoadError naming the file and the JSON
// pointer of the field, and what was expected there.
#pragma once

#include "core/data/loaderror.h"

#include <initializer_list>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace acsel
{

using Json = nlohmann::json;

// Parses a file (or text); a syntax error names the line and column.
Json parseJsonFile(const std::string& path);
Json parseJsonText(const std::string& text, const std::string& name);

// A JSON parser's position (nlohmann's 1-based byte of the character it stopped at) as
// "line L, column C", the way an editor counts them; past the end it is the end of the text.
std::string jsonLineAndColumn(const std::string& text, std::size_t byte);

class JsonFields
{
public:
    JsonFields(std::string file) : file_(std::move(file)) {}
    const std::string& file() const { return file_; }

    const Json& object(const Json& parent, const std::string& key, const std::string& ptr) const;
    const Json& array(const Json& parent, const std::string& key, const std::string& ptr) const;
    std::string string(const Json& parent, const std::string& key, const std::string& ptr) const;
    std::string stringOr(const Json& parent, const std::string& key, const std::string& ptr,
                         const std::string& fallback) const;
    double number(const Json& parent, const std::string& key, const std::string& ptr, double min,
                  double max) const;
    int integer(const Json& parent, const std::string& key, const std::string& ptr, int min,
                int max) const;
    bool boolean(const Json& parent, const std::string& key, const std::string& ptr) const;
    bool booleanOr(const Json& parent, const std::string& key, const std::string& ptr,
                   bool fallback) const;
    // The root's schema_version, refused outside [oldest, newest] with one wording for every
    // file: a newer file may hold fields this build does not know, an older one fields it no
    // longer reads. `renew` follows the refusal of an older file: how to make a current one.
    int schemaVersion(const Json& root, int oldest, int newest,
                      const std::string& renew = "") const;
    // A table file's root (datasets/engine_loaders.json, request_overheads.json): an object of
    // schema_version 1 to `newest`, a provenance and an entries array, which it returns.
    const Json& entryTable(const Json& root, int newest) const;
    // Refuses keys of obj (at ptr) outside `keys`: a misspelt optional field would otherwise
    // be silently ignored.
    void onlyKeys(const Json& obj, const std::string& ptr,
                  std::initializer_list<const char*> keys) const;
    [[noreturn]] void fail(const std::string& ptr, const std::string& message) const;

private:
    const Json& require(const Json& parent, const std::string& key, const std::string& ptr) const;
    std::string file_;
};

} // namespace acsel
