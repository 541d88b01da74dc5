// libFuzzer target: the project's workspace JSON (without a tables directory, so the input
// alone decides the outcome).
#include "core/data/workspacefile.h"
#include "tests/fuzz/fuzzcheck.h"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "workspace.json";
    fuzz::loadOrLoadError(name, [&] {
        const Workspace ws = parseWorkspace(parseJsonText(fuzz::text(data, size), name), name, "");
        fuzz::require(!ws.models.empty(), "an accepted workspace has a model");
        fuzz::require(ws.schemaVersion >= 1 && ws.schemaVersion <= kWorkspaceSchemaVersion,
                      "an accepted workspace has a schema this build reads");
        for (std::size_t i = 0; i < ws.models.size(); ++i) {
            fuzz::require(ws.models[i].paramCount() > 0, "every accepted model has parameters");
            fuzz::require(ws.models[i].name.find_first_not_of(" \t") != std::string::npos &&
                              !ws.models[i].hfId.empty(),
                          "every accepted model has a name and a Hugging Face id");
            for (std::size_t k = 0; k < i; ++k)
                fuzz::require(ws.models[k].name != ws.models[i].name, "model names are unique");
        }
    });
    return 0;
}
