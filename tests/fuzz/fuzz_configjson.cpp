// libFuzzer target: the configuration JSON that `acsel export --config` reads. An accepted
// document must also survive its own writer: write, parse again, get the same document.
#include "core/data/configjson.h"
#include "tests/fuzz/fuzzcheck.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "config.json";
    fuzz::loadOrLoadError(name, [&] {
        const ConfigDocument doc =
            parseConfigJson(parseJsonText(fuzz::text(data, size), name), name);
        const std::string written = writeConfigJson(doc);
        bool again = false;
        try {
            again =
                parseConfigJson(parseJsonText(written, "rewritten.json"), "rewritten.json") == doc;
        } catch (const LoadError&) {
            again = false;
        }
        fuzz::require(again, "an accepted config JSON reads back equal after writeConfigJson");
    });
    return 0;
}
