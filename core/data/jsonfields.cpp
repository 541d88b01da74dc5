#include "core/data/jsonfields.h"

#include "core/data/inputfile.h"

#include <algorithm>
#include <cmath>
#include <locale>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

namespace acsel
{

namespace
{

// The JSON pointer token of a key (RFC 6901: '~' and '/' escaped).
std::string pointerToken(const std::string& key)
{
    std::string out;
    for (const char c : key)
        out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
    return out;
}

// Follows the parser through nested objects and arrays, so that a repeated key (which
// nlohmann would silently let the last copy win) is refused with its JSON pointer.
class DuplicateKeyCheck
{
public:
    explicit DuplicateKeyCheck(const std::string& name) : name_(name) {}

    bool operator()(int depth, Json::parse_event_t event, Json& parsed)
    {
        (void)depth;
        switch (event) {
        case Json::parse_event_t::object_start:
        case Json::parse_event_t::array_start:
            frames_.push_back({event == Json::parse_event_t::object_start, {}, {}, 0});
            break;
        case Json::parse_event_t::key: {
            Frame& f = frames_.back();
            f.key = parsed.get<std::string>();
            if (!f.keys.insert(f.key).second)
                throw LoadError(name_, pointer(),
                                "duplicate key '" + f.key +
                                    "' (expected each key once per object)");
            break;
        }
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            frames_.pop_back();
            elementDone();
            break;
        case Json::parse_event_t::value:
            elementDone();
            break;
        }
        return true;
    }

private:
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;
        std::size_t index;
    };

    void elementDone()
    {
        if (!frames_.empty() && !frames_.back().object)
            ++frames_.back().index;
    }

    std::string pointer() const
    {
        std::string out;
        for (const Frame& f : frames_)
            out += "/" + (f.object ? pointerToken(f.key) : std::to_string(f.index));
        return out;
    }

    const std::string& name_;
    std::vector<Frame> frames_;
};

} // namespace

std::string jsonLineAndColumn(const std::string& text, std::size_t byte)
{
    const std::size_t at = byte == 0 ? 0 : std::min(byte - 1, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < at; ++i)
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return "line " + std::to_string(line) + ", column " + std::to_string(at - lineStart + 1);
}

Json parseJsonText(const std::string& text, const std::string& name)
{
    try {
        return Json::parse(text, DuplicateKeyCheck(name));
    } catch (const Json::parse_error& e) {
        const bool atEnd = e.byte > text.size();
        throw LoadError(name, jsonLineAndColumn(text, e.byte),
                        atEnd ? "invalid JSON: the document ends early (truncated?)"
                              : "invalid JSON: expected a well-formed document");
    } catch (const Json::out_of_range& e) {
        // A number literal beyond a double (1e400): well-formed text, but not readable.
        std::string what = e.what();
        what.erase(0, what.find(']') + 1);
        throw LoadError(name, "",
                        "invalid JSON:" + what + " (expected numbers within a double's range)");
    }
}

Json parseJsonFile(const std::string& path)
{
    const std::string text = readInputFile(path, kJsonLimit);
    if (text.empty())
        throw LoadError(path, "", "file is empty: expected a JSON document");
    return parseJsonText(text, path);
}

void JsonFields::fail(const std::string& ptr, const std::string& message) const
{
    throw LoadError(file_, ptr.empty() ? "/" : ptr, message);
}

const Json& JsonFields::require(const Json& parent, const std::string& key,
                                const std::string& ptr) const
{
    if (!parent.is_object())
        fail(ptr, "expected an object");
    auto it = parent.find(key);
    if (it == parent.end())
        fail(ptr + "/" + key, "missing field '" + key + "'");
    return *it;
}

const Json& JsonFields::object(const Json& parent, const std::string& key,
                               const std::string& ptr) const
{
    const Json& v = require(parent, key, ptr);
    if (!v.is_object())
        fail(ptr + "/" + key, "expected an object");
    return v;
}

const Json& JsonFields::array(const Json& parent, const std::string& key,
                              const std::string& ptr) const
{
    const Json& v = require(parent, key, ptr);
    if (!v.is_array())
        fail(ptr + "/" + key, "expected an array");
    return v;
}

std::string JsonFields::string(const Json& parent, const std::string& key,
                               const std::string& ptr) const
{
    const Json& v = require(parent, key, ptr);
    if (!v.is_string())
        fail(ptr + "/" + key, "expected a string");
    return v.get<std::string>();
}

std::string JsonFields::stringOr(const Json& parent, const std::string& key, const std::string& ptr,
                                 const std::string& fallback) const
{
    if (!parent.is_object() || !parent.contains(key) || parent.at(key).is_null())
        return fallback;
    return string(parent, key, ptr);
}

double JsonFields::number(const Json& parent, const std::string& key, const std::string& ptr,
                          double min, double max) const
{
    const Json& v = require(parent, key, ptr);
    if (!v.is_number())
        fail(ptr + "/" + key, "expected a number");
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < min || d > max) {
        std::ostringstream msg;
        msg.imbue(std::locale::classic());
        msg << "expected a number in [" << min << ", " << max << "], found " << d;
        fail(ptr + "/" + key, msg.str());
    }
    return d;
}

int JsonFields::integer(const Json& parent, const std::string& key, const std::string& ptr, int min,
                        int max) const
{
    const Json& v = require(parent, key, ptr);
    if (!v.is_number_integer())
        fail(ptr + "/" + key, "expected an integer");
    const auto i = v.get<std::int64_t>();
    if (i < min || i > max)
        fail(ptr + "/" + key, "expected an integer in [" + std::to_string(min) + ", " +
                                  std::to_string(max) + "], found " + std::to_string(i));
    return static_cast<int>(i);
}

int JsonFields::schemaVersion(const Json& root, int oldest, int newest,
                              const std::string& renew) const
{
    const int version = integer(root, "schema_version", "", 1, 1 << 20);
    if (version > newest)
        fail("/schema_version", "written by a newer ACSeL Studio (schema " +
                                    std::to_string(version) + ", this build reads up to " +
                                    std::to_string(newest) + ")");
    if (version < oldest)
        fail("/schema_version", "schema " + std::to_string(version) +
                                    " is no longer read (this build reads " +
                                    std::to_string(oldest) + " to " + std::to_string(newest) + ")" +
                                    (renew.empty() ? "" : "; " + renew));
    return version;
}

const Json& JsonFields::entryTable(const Json& root, int newest) const
{
    if (!root.is_object())
        fail("", "expected a JSON object with schema_version and entries");
    onlyKeys(root, "", {"schema_version", "provenance", "entries"});
    schemaVersion(root, 1, newest);
    return array(root, "entries", "");
}

bool JsonFields::boolean(const Json& parent, const std::string& key, const std::string& ptr) const
{
    const Json& v = require(parent, key, ptr);
    if (!v.is_boolean())
        fail(ptr + "/" + key, "expected true or false");
    return v.get<bool>();
}

bool JsonFields::booleanOr(const Json& parent, const std::string& key, const std::string& ptr,
                           bool fallback) const
{
    if (!parent.is_object() || !parent.contains(key) || parent.at(key).is_null())
        return fallback;
    return boolean(parent, key, ptr);
}

void JsonFields::onlyKeys(const Json& obj, const std::string& ptr,
                          std::initializer_list<const char*> keys) const
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool known = false;
        std::string list;
        for (const char* k : keys) {
            known = known || it.key() == k;
            list += (list.empty() ? "" : ", ") + std::string(k);
        }
        if (!known)
            fail(ptr + "/" + it.key(), "unknown field '" + it.key() + "' (expected: " + list + ")");
    }
}

} // namespace acsel
