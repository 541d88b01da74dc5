// libFuzzer target: the request file `acsel search --request` reads (parseRequestJson). Its
// top level differs from a configuration document's (a "models" list, no "config"), so
// fuzz_configjson does not reach it.
#include "core/data/configjson.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "request.json";
    fuzz::loadOrLoadError(name, [&] {
        const Request q = parseRequestJson(parseJsonText(fuzz::text(data, size), name), name);
        fuzz::require(!q.stack.empty(), "an accepted request names its stack");
        fuzz::require(q.isl > 0 && q.osl > 0 && q.concurrency > 0,
                      "an accepted request has positive lengths and concurrency");
        for (double budget : {q.ttftBudgetMs, q.tpotBudgetMs, q.memBudgetGiB})
            fuzz::require(!std::isnan(budget), "an accepted budget is a number");
    });
    return 0;
}
