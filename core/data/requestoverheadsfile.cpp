#include "core/data/requestoverheadsfile.h"

#include "core/data/jsonfields.h"

#include <nlohmann/json.hpp>

namespace acsel
{

std::vector<RequestOverhead> loadRequestOverheads(const std::string& path)
{
    const Json j = parseJsonFile(path);
    const JsonFields f(path);
    const Json& entries = f.entryTable(j, kRequestOverheadsSchemaVersion);
    std::vector<RequestOverhead> out;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string ptr = "/entries/" + std::to_string(i);
        const Json& e = entries[i];
        if (!e.is_object())
            f.fail(ptr, "expected an object");
        f.onlyKeys(e, ptr, {"stack", "release", "overhead_ms", "fitted"});
        RequestOverhead o;
        o.stack = f.string(e, "stack", ptr);
        const std::size_t slash = o.stack.find('/');
        if (slash == 0 || slash == std::string::npos || slash + 1 == o.stack.size() ||
            o.stack.find('/', slash + 1) != std::string::npos)
            f.fail(ptr + "/stack",
                   "expected a stack id system/backend such as h100_sxm/trtllm, not '" + o.stack +
                       "'");
        o.release = f.string(e, "release", ptr);
        if (o.release.find_first_not_of(" \t") == std::string::npos)
            f.fail(ptr + "/release", "expected the measured engine release such as 1.0.0rc3");
        // An overhead beyond 10 s is not the frontend's: a queue or a failed fit.
        o.ms = f.number(e, "overhead_ms", ptr, 0.0, 10000.0);
        if (f.string(e, "fitted", ptr).find_first_not_of(" \t") == std::string::npos)
            f.fail(ptr + "/fitted", "expected how the value was fitted (rows, command, figures)");
        for (const RequestOverhead& prior : out)
            if (prior.stack == o.stack && prior.release == o.release)
                f.fail(ptr + "/release", "a second entry for " + o.stack + " " + o.release);
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace acsel
