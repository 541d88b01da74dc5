// libFuzzer target: the .acsel-session file the studio opens and autosaves. An accepted
// session must also survive its own writer: write (absolute paths), parse again, get the same.
#include "core/session/sessionfile.h"
#include "tests/fuzz/fuzzcheck.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "fuzz.acsel-session";
    fuzz::loadOrLoadError(name, [&] {
        const SessionDocument doc =
            parseSessionJson(parseJsonText(fuzz::text(data, size), name), name);
        const std::string written = writeSessionJson(doc, name, SessionPaths::Absolute);
        bool again = false;
        try {
            again = parseSessionJson(parseJsonText(written, name), name) == doc;
        } catch (const LoadError&) {
            again = false;
        }
        fuzz::require(again, "an accepted session reads back equal after writeSessionJson");
    });
    return 0;
}
