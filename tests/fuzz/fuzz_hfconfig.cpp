// libFuzzer target: a Hugging Face config.json read into a ModelArch.
#include "core/data/hfconfig.h"
#include "tests/fuzz/fuzzcheck.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "config.json";
    fuzz::loadOrLoadError(name, [&] {
        const ModelArch m = parseHfConfig(parseJsonText(fuzz::text(data, size), name), name);
        fuzz::require(m.layers >= 1 && m.hidden >= 1 && m.heads >= 1 && m.kvHeads >= 1 &&
                          m.headDim >= 1 && m.intermediate >= 1 && m.vocab >= 1,
                      "an accepted config has positive dimensions");
        fuzz::require(m.heads % m.kvHeads == 0, "kv heads divide attention heads");
        // The parameter count of the largest accepted config must not overflow (UBSan).
        fuzz::require(m.paramCount() > 0, "an accepted config has parameters");
    });
    return 0;
}
