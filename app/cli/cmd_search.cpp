// acsel search: one searcher on one request (a request file, flags, or both: flags win).
#include "app/cli/engineargs.h"
#include "app/cli/searchcommand.h"
#include "app/cli/workspaceargs.h"
#include "core/model/requestcheck.h"
#include "core/model/tensorparallel.h"
#include "core/search/fracmixtable.h"
#include "core/search/searchalgorithm.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <sstream>

namespace acsel::cli
{
namespace
{

std::vector<std::string> commaList(const std::string& s)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = std::min(s.find(',', start), s.size());
        out.push_back(s.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

// The whole number v is, if it is one within [lo, hi].
std::optional<int> wholeNumber(const std::string& v, int lo, int hi)
{
    int x = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || end != v.data() + v.size() || x < lo || x > hi)
        return std::nullopt;
    return x;
}

// --NAME a,b,c read with `parse` (nullopt: not a name of `what`); empty when not given.
template <class T, class Parse>
std::vector<T> listOption(const app::Args& args, const std::string& name, const std::string& what,
                          Parse&& parse)
{
    std::vector<T> out;
    if (const auto v = args.value(name))
        for (const std::string& item : commaList(*v)) {
            const std::optional<T> x = parse(item);
            if (!x)
                throw app::UsageError("acsel search: --" + name + " '" + item + "' is not a " +
                                      what);
            out.push_back(*x);
        }
    return out;
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    specs.push_back({"request", "FILE", "request JSON {schema_version, stack, request, models?}"});
    specs.push_back({"algo", "NAME",
                     searchAlgorithmChoices() +
                         " (default: " + std::string(kDefaultSearchAlgorithmName) + ")"});
    specs.push_back({"stack", "ID", "stack (overrides the request file)"});
    // Without a request file the request starts from the Request defaults: say which.
    const Request d;
    const auto dflt = [](const auto& v) {
        std::ostringstream o;
        o << " (default: the request file's, else " << v << ")";
        return o.str();
    };
    specs.push_back({"isl", "N", "input tokens per request" + dflt(d.isl)});
    specs.push_back({"osl", "N", "output tokens per request" + dflt(d.osl)});
    specs.push_back({"concurrency", "N",
                     "concurrent requests; the batch is at least this" + dflt(d.concurrency)});
    specs.push_back({"ttft", "MS", "TTFT budget" + dflt(d.ttftBudgetMs)});
    specs.push_back({"tpot", "MS", "TPOT budget" + dflt(d.tpotBudgetMs)});
    specs.push_back({"memory", "GIB", "memory budget per GPU" + dflt(d.memBudgetGiB)});
    specs.push_back({"gpus", "N",
                     "GPUs of one node available, 1 to " + std::to_string(kMaxGpus) +
                         ": the search also splits the model over 2, 4 or 8 of them (tensor "
                         "parallel)" +
                         dflt(d.gpus)});
    specs.push_back({"tp", "LIST",
                     "only these tensor-parallel degrees, e.g. 2,4 (default every one up to "
                     "--gpus)"});
    specs.push_back(
        {"mode", "MODE", "static or continuous serving" + dflt(std::string(toString(d.mode)))});
    specs.push_back({"model", "NAME", "only this model (repeatable as a comma list)"});
    specs.push_back({"formats", "LIST", "only these band formats, e.g. fp8,nvfp4 (bf16 stays)"});
    specs.push_back({"scopes", "LIST", "only these scopes: full, mlp, attn"});
    specs.push_back(
        {"batch", "LIST", "candidate batch sizes (default 1,4,8,16,32 >= concurrency)"});
    specs.push_back({"kv", "LIST", "KV cache formats: bf16, fp8 (default both the stack has)"});
    specs.push_back(
        {"top", "N", "also print the N best distinct alternatives (default 0; 4 with --save-dir)"});
    specs.push_back({"frontier", "", "also print the admitted frontier of RMQD and latency"});
    specs.push_back({"seed", "N", "seed of rand and hc (default 1)"});
    specs.push_back({"evaluations", "N", "full gates of rand and hc (default 2000)"});
    specs.push_back({"json", "", "print the configuration JSON that acsel export reads"});
    addSizingOption(specs);
    addMarginOption(specs);
    addResultsFolderOptions(specs);
    const app::Args args("search", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage()
               << "exit codes: 0 answer, 2 bad input, 3 no configuration passes the gate\n";
        return 0;
    }
    const auto engine = loadEngineFromArgs(args);
    const Workspace& ws = engine->workspace();
    std::optional<ServingMode> mode;
    if (const auto name = args.value("mode")) {
        mode = parseServingMode(*name);
        if (!mode)
            throw app::UsageError("acsel search: --mode '" + *name +
                                  "': expected static or continuous");
    }
    SearchRun r;
    if (const auto file = args.value("request"))
        readRequestFile(*file, ws, r, mode);
    else if (!args.value("stack"))
        throw app::UsageError("acsel search: give --request FILE or at least --stack ID");
    Request& q = r.request;
    q.stack = args.valueOr("stack", q.stack);
    if (!ws.findStack(q.stack))
        throw app::UsageError("acsel search: --stack: unknown stack '" + q.stack +
                              "' (expected one of the stacks acsel info lists)");
    // The ranges the window's request panel checks too (core/model/requestcheck.h).
    const auto whole = [&](const char* flag, int v, RequestField f) {
        return args.integer(flag, v, static_cast<int>(limitsOf(f).min),
                            static_cast<int>(limitsOf(f).max));
    };
    const auto real = [&](const char* flag, double v, RequestField f) {
        return args.number(flag, v, limitsOf(f).min, limitsOf(f).max);
    };
    q.isl = whole("isl", q.isl, RequestField::Isl);
    q.osl = whole("osl", q.osl, RequestField::Osl);
    q.concurrency = whole("concurrency", q.concurrency, RequestField::Concurrency);
    q.ttftBudgetMs = real("ttft", q.ttftBudgetMs, RequestField::TtftBudget);
    q.tpotBudgetMs = real("tpot", q.tpotBudgetMs, RequestField::TpotBudget);
    q.memBudgetGiB = real("memory", q.memBudgetGiB, RequestField::MemoryBudget);
    q.gpus = whole("gpus", q.gpus, RequestField::Gpus);
    if (mode)
        q.mode = *mode;
    if (const auto models = args.value("model")) {
        r.options.models.clear();
        for (const std::string& name : commaList(*models)) {
            const auto m = ws.findModel(name);
            if (!m)
                throw app::UsageError("acsel search: --model: unknown model '" + name +
                                      "' (expected one of: " + modelNames(ws) + ")");
            r.options.models.push_back(*m);
        }
    }
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))];
    if (q.gpus > 1 && !engine->supportsTp(q, 2))
        throw app::UsageError("acsel search: gpus " + std::to_string(q.gpus) + ": stack '" +
                              q.stack +
                              "' cannot cost an all-reduce (no all-reduce tables, and no "
                              "interconnect for its GPU in the platforms file), so a model split "
                              "over several GPUs cannot be predicted (expected --gpus 1)");
    applyConfidence(args, *engine, q);
    r.options.formats =
        listOption<Format>(args, "formats", "format (" + formatChoices() + ")", parseFormat);
    for (Format f : r.options.formats)
        if (!stack.hasFormat(f)) {
            std::string has;
            for (Format g : stack.formats)
                has += (has.empty() ? "" : ", ") + std::string(toString(g));
            throw app::UsageError("acsel search: --formats: stack '" + q.stack + "' cannot run " +
                                  std::string(toString(f)) + " (its formats: " + has + ")");
        }
    if (args.value("scopes"))
        r.options.scopes =
            listOption<Scope>(args, "scopes", "scope (" + scopeChoices() + ")", parseScope);
    r.options.kvFormats =
        listOption<KvFormat>(args, "kv", "KV format (" + kvFormatChoices() + ")", parseKvFormat);
    if (searchKvFormats(stack, r.options).empty())
        throw app::UsageError("acsel search: --kv: stack '" + q.stack +
                              "' has none of these KV formats (acsel info lists them)");
    r.options.batches =
        listOption<int>(args, "batch", "batch size (1 to 4096)",
                        [](const std::string& v) { return wholeNumber(v, 1, 4096); });
    for (int b : r.options.batches)
        if (b < q.concurrency)
            throw app::UsageError("acsel search: --batch " + std::to_string(b) +
                                  " is below the request's concurrency " +
                                  std::to_string(q.concurrency) +
                                  " (a batch holds every concurrent request)");
    r.options.tps =
        listOption<int>(args, "tp", "tensor-parallel degree (1, 2, 4 or 8)",
                        [](const std::string& v) -> std::optional<int> {
                            const std::optional<int> t = wholeNumber(v, 1, kMaxGpus);
                            return t && (*t & (*t - 1)) == 0 ? t : std::nullopt; // a power of two
                        });
    for (int t : r.options.tps)
        if (t > q.gpus)
            throw app::UsageError("acsel search: --tp " + std::to_string(t) + " needs " +
                                  std::to_string(t) + " GPUs; the request has " +
                                  std::to_string(q.gpus) + " (--gpus)");
    readMarginOption(args, r);
    readResultsFolderOptions(args, r);
    r.byGpus = args.flag("by-gpus");
    r.frontier = args.flag("frontier");
    r.algorithm = args.valueOr("algo", "");
    r.options.seed = static_cast<std::uint64_t>(args.integer("seed", 1, 0, 1 << 30));
    r.options.maxEvaluations = args.integer("evaluations", 2000, 1, 1 << 30);
    r.json = args.flag("json");
    return runSearchAndPrint(*engine, r, io);
}

const RegisterCommand
    reg("search", "recommend a configuration for a request (BandPareto, Exact, HC, Rand)", &run);

} // namespace
} // namespace acsel::cli
