// acsel plan quality: the training design of a model's RMQD campaign (the paper measures ~226
// configurations per family once): every uniform configuration, a few with lm_head / KV
// quantized, and seeded band recipes stratified over formats, scopes and boundary depths;
// each exported as the ModelOpt recipe YAML `acsel export` writes, plus the manifest the
// measurement companion (tools/measure_rmqd) reads. docs/QUALITY.md 9.
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "app/cli/workspaceargs.h"
#include "core/data/loaderror.h"
#include "core/data/qualityset.h"
#include "core/export/exportability.h"
#include "core/export/exporter.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

constexpr const char* kName = "plan quality";

// splitmix64: a small seeded generator whose sequence is the same on every platform (the
// standard distributions are not), so a seed names one design everywhere.
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next()
    {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) // uniform in [0, n), by rejection (no modulo bias)
    {
        const auto un = static_cast<std::uint64_t>(n);
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % un;
        std::uint64_t x = next();
        while (x >= limit)
            x = next();
        return static_cast<int>(x % un);
    }

private:
    std::uint64_t state_;
};

struct Candidate {
    Config config;
    std::string stratum; // uniform, exclusions, bands
    Split split = Split::Train;
};

std::uint8_t recipeMask(const BandRecipe& r)
{
    std::uint8_t m = 0xff;
    for (const Band& b : r)
        m &= algorithmMask(b.format);
    return m;
}

bool contains(const std::vector<Candidate>& cs, const Config& c)
{
    for (const Candidate& x : cs)
        if (x.config == c)
            return true;
    return false;
}

// The least-used option (by count), ties broken by the generator: balances the draws of a
// stratified design.
template <typename T>
T leastUsed(const std::vector<T>& options, const std::vector<int>& counts, Rng& rng)
{
    int best = INT32_MAX;
    std::vector<T> ties;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const int c = counts[static_cast<std::size_t>(options[i])];
        if (c < best) {
            best = c;
            ties.clear();
        }
        if (c == best)
            ties.push_back(options[i]);
    }
    return ties[static_cast<std::size_t>(rng.below(static_cast<int>(ties.size())))];
}

struct Design {
    std::vector<Candidate> candidates;
    std::vector<Format> formats; // quantized formats the model can export (on the stack)
    int bandDraws = 0;           // band recipes asked for
};

Design makeDesign(const ModelArch& arch, int model, const Stack* stack, int bandRecipes,
                  double heldoutShare, std::uint64_t seed)
{
    Design d;
    d.bandDraws = bandRecipes;
    auto add = [&](Config c, const char* stratum) {
        c.model = model;
        if (isExportable(arch, c, stack) && !contains(d.candidates, c))
            d.candidates.push_back({c, stratum, Split::Train});
    };
    for (Format f : kAllFormats) {
        for (Scope s : kAllScopes) {
            if (f == Format::Bf16 && s != Scope::Full)
                continue;
            for (Algorithm a : kAllAlgorithms) {
                if (!algorithmFits(a, f) || (f == Format::Bf16 && a != Algorithm::Max))
                    continue;
                Config c;
                c.recipe = BandRecipe::uniform(arch.layers, f, s);
                c.algorithm = a;
                const std::size_t before = d.candidates.size();
                add(c, "uniform");
                if (f != Format::Bf16 && s == Scope::Full && d.candidates.size() > before &&
                    (d.formats.empty() || d.formats.back() != f))
                    d.formats.push_back(f);
            }
        }
    }
    // The exclusions (docs/METHOD.md's lm_head and KV features) on a few uniform configurations:
    // KV alone, then with the 8-bit and 4-bit formats the stack runs.
    const auto first8 = std::find_if(d.formats.begin(), d.formats.end(),
                                     [](Format f) { return facts(f).bits == 8; });
    const auto first4 = std::find_if(d.formats.begin(), d.formats.end(),
                                     [](Format f) { return facts(f).bits == 4; });
    auto exclusion = [&](Format f, bool lmHead, KvFormat kv) {
        Config c;
        c.recipe = BandRecipe::uniform(arch.layers, f);
        c.algorithm = uniformAlgorithm(f);
        c.lmHeadQuantized = lmHead;
        c.kv = kv;
        add(c, "exclusions");
    };
    exclusion(Format::Bf16, false, KvFormat::Fp8);
    for (auto it : {first8, first4})
        if (it != d.formats.end()) {
            exclusion(*it, false, KvFormat::Fp8);
            exclusion(*it, true, KvFormat::Bf16);
        }

    // Band recipes. Pools: every exportable quantized format plus bf16 (a protected band).
    std::vector<Format> pool = d.formats;
    pool.push_back(Format::Bf16);
    if (arch.layers < 2 || d.formats.empty())
        return d;
    Rng rng(seed);
    std::vector<int> formatUse(kFormatCount, 0), scopeUse(kScopeCount, 0), depthUse(4, 0);
    const std::vector<Scope> scopes(kAllScopes.begin(), kAllScopes.end());
    const std::vector<int> depths{0, 1, 2, 3};
    std::vector<std::size_t> bandIdx;
    int attempts = 0;
    for (int k = 0; k < bandRecipes && attempts < 200 * bandRecipes; ++attempts) {
        const int bands = arch.layers >= 3 && rng.below(2) == 1 ? 3 : 2;
        // First boundary in the least-used depth quarter of the cut positions 1..L-1.
        const int positions = arch.layers - 1;
        const int quarter = leastUsed(depths, depthUse, rng);
        const int lo = 1 + positions * quarter / 4;
        const int hi = std::max(lo, positions * (quarter + 1) / 4); // inclusive
        std::vector<int> cuts{lo + rng.below(hi - lo + 1)};
        if (bands == 3) {
            if (cuts[0] >= arch.layers - 1)
                continue;
            cuts.push_back(cuts[0] + 1 + rng.below(arch.layers - 1 - cuts[0]));
        }
        Config c;
        c.model = model;
        std::uint8_t mask = 0xff;
        int begin = 0;
        // Counts of this draw included, so that its own bands spread over the options too.
        std::vector<int> formatTry = formatUse, scopeTry = scopeUse;
        for (int b = 0; b < bands; ++b) {
            const int end = b + 1 < bands ? cuts[static_cast<std::size_t>(b)] : arch.layers;
            const Band* prev = b > 0 ? &c.recipe[b - 1] : nullptr;
            std::vector<Format> fits;
            for (Format f : pool)
                if ((algorithmMask(f) & mask) != 0 &&
                    !(prev && prev->format == Format::Bf16 && f == Format::Bf16))
                    fits.push_back(f);
            if (fits.empty()) // cannot happen (band 0's format always fits); stay safe
                break;
            const Format f = leastUsed(fits, formatTry, rng);
            std::vector<Scope> scopeFits; // neighbours differ: same format needs another scope
            for (Scope s : scopes)
                if (!(prev && prev->format == f && prev->scope == s))
                    scopeFits.push_back(s);
            const Scope s = f == Format::Bf16 ? Scope::Full : leastUsed(scopeFits, scopeTry, rng);
            c.recipe.push({begin, end, f, s});
            ++formatTry[static_cast<std::size_t>(f)];
            if (f != Format::Bf16)
                ++scopeTry[static_cast<std::size_t>(s)];
            mask &= algorithmMask(f);
            begin = end;
        }
        if (c.recipe.validate(arch.layers) != "")
            continue;
        bool quantized = false;
        for (const Band& b : c.recipe)
            quantized = quantized || b.format != Format::Bf16;
        if (!quantized)
            continue;
        std::vector<Algorithm> algs;
        for (Algorithm a : kAllAlgorithms)
            if ((static_cast<unsigned>(recipeMask(c.recipe)) >> static_cast<unsigned>(a)) & 1u)
                algs.push_back(a);
        c.algorithm = algs[static_cast<std::size_t>(rng.below(static_cast<int>(algs.size())))];
        const bool lastQuantized = c.recipe[c.recipe.size() - 1].format != Format::Bf16;
        c.lmHeadQuantized = lastQuantized && !arch.tiedEmbeddings && rng.below(6) == 0;
        c.kv = rng.below(6) == 0 ? KvFormat::Fp8 : KvFormat::Bf16;
        if (!isExportable(arch, c, stack) || contains(d.candidates, c))
            continue;
        formatUse = formatTry;
        scopeUse = scopeTry;
        ++depthUse[static_cast<std::size_t>(quarter)];
        bandIdx.push_back(d.candidates.size());
        d.candidates.push_back({c, "bands", Split::Train});
        ++k;
    }
    // A seeded share of the band recipes is held out (the uniform ones all train: the
    // surrogate needs each format's level).
    for (std::size_t i = bandIdx.size(); i > 1; --i)
        std::swap(bandIdx[i - 1],
                  bandIdx[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
    const auto heldout =
        static_cast<std::size_t>(heldoutShare * static_cast<double>(bandIdx.size()) + 0.5);
    for (std::size_t i = 0; i < heldout; ++i)
        d.candidates[bandIdx[i]].split = Split::Heldout;
    return d;
}

std::string candidateId(std::size_t i)
{
    std::ostringstream s;
    s << "c" << std::setw(3) << std::setfill('0') << i;
    return s.str();
}

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(argvIn);
    auto specs = workspaceOptions();
    specs.push_back({"model", "NAME", "workspace model (name or HF id)"});
    specs.push_back({"output", "DIR",
                     "folder to write the recipes and manifest.json into "
                     "(also -o; created if missing)"});
    specs.push_back({"stack", "ID", "only formats (and fp8 KV) this stack runs (default: all)"});
    specs.push_back({"seed", "N", "seed of the band recipes and the split (default 1)"});
    specs.push_back({"band-recipes", "N", "seeded 2-3 band recipes (default 40)"});
    specs.push_back({"heldout", "SHARE", "share of the band recipes held out (default 0.25)"});
    specs.push_back({"force", "", "overwrite the files of an existing plan"});
    const app::Args args(kName, argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string modelName = args.require("model");
    const std::string dir = args.require("output");
    const bool force = args.flag("force");
    const int seed = args.integer("seed", 1, 0, 2147483647);
    const int bandRecipes = args.integer("band-recipes", 40, 0, 100000);
    const double heldout = args.number("heldout", 0.25, 0.0, 1.0);
    const Workspace ws = loadWorkspaceFromArgs(args);
    const auto model = ws.findModel(modelName);
    if (!model) {
        std::string known;
        for (const ModelArch& m : ws.models)
            known += (known.empty() ? "" : ", ") + m.name;
        throw app::UsageError("acsel plan quality: --model " + modelName +
                              ": not a workspace model (the workspace has: " + known + ")");
    }
    const Stack* stack = nullptr;
    if (const auto id = args.value("stack")) {
        const auto s = ws.findStack(*id);
        if (!s)
            throw app::UsageError("acsel plan quality: --stack " + *id +
                                  ": no such stack (acsel info lists them)");
        stack = &ws.stacks[static_cast<std::size_t>(*s)];
    }
    const ModelArch& arch = ws.models[static_cast<std::size_t>(*model)];
    namespace fs = std::filesystem;
    if (fs::exists(dir) && !fs::is_directory(dir))
        throw app::UsageError("acsel plan quality: " + dir + " exists and is not a folder");
    std::error_code ec;
    fs::create_directory(dir, ec);
    if (ec)
        throw app::UsageError("acsel plan quality: cannot create " + dir + ": " + ec.message());
    const std::string manifestPath = (fs::path(dir) / "manifest.json").string();
    checkOutputPath(kName, manifestPath, force);

    const Design d =
        makeDesign(arch, *model, stack, bandRecipes, heldout, static_cast<std::uint64_t>(seed));
    std::string command = "acsel plan quality --model " + arch.name + " --seed " +
                          std::to_string(seed) + " --band-recipes " + std::to_string(bandRecipes);
    if (stack)
        command += " --stack " + stack->id;
    nlohmann::ordered_json manifest{
        {"schema_version", 1},
        {"kind", "acsel-quality-plan"},
        {"command", command},
        {"model", {{"name", arch.name}, {"hf_id", arch.hfId}, {"layers", arch.layers}}},
        {"stack", stack ? nlohmann::ordered_json(stack->id) : nlohmann::ordered_json()},
        {"seed", seed},
        {"measure", "python3 tools/measure_rmqd/measure_rmqd.py --checkpoint <folder of " +
                        arch.hfId + "> --plan " + manifestPath +
                        " --text <calibration text> --output <rows.csv>"},
        {"candidates", nlohmann::ordered_json::array()}};
    Request request;
    request.stack = stack ? stack->id : "any stack (RMQD measurement plan)";
    int counts[2] = {0, 0};
    std::array<int, kFormatCount> bandFormats{};
    for (std::size_t i = 0; i < d.candidates.size(); ++i) {
        const Candidate& c = d.candidates[i];
        const std::string id = candidateId(i);
        const std::string yaml = id + ".yaml";
        const ExportInput in{arch, c.config, request, std::nullopt, {}};
        writeOutput(kName, (fs::path(dir) / yaml).string(),
                    exportText(ExportFormat::ModelOptYaml, in, stack), true, io);
        manifest["candidates"].push_back({{"id", id},
                                          {"recipe", yaml},
                                          {"stratum", c.stratum},
                                          {"bands", bandsToText(c.config.recipe)},
                                          {"algorithm", toString(c.config.algorithm)},
                                          {"lm_head_quantized", c.config.lmHeadQuantized},
                                          {"kv", toString(c.config.kv)},
                                          {"split", toString(c.split)}});
        ++counts[c.split == Split::Train ? 0 : 1];
        if (c.stratum == "bands")
            for (const Band& b : c.config.recipe)
                ++bandFormats[static_cast<std::size_t>(b.format)];
    }
    writeOutput(kName, manifestPath, manifest.dump(2) + "\n", force, io);

    int uniform = 0, exclusions = 0, bands = 0;
    for (const Candidate& c : d.candidates)
        (c.stratum == "uniform" ? uniform : c.stratum == "exclusions" ? exclusions : bands) += 1;
    io.out << "planned " << d.candidates.size() << " configurations of " << arch.name << " ("
           << counts[0] << " training, " << counts[1] << " held-out): " << uniform << " uniform, "
           << exclusions << " with lm_head/KV quantized, " << bands << " band recipes";
    if (bands < bandRecipes)
        io.out << " (" << bandRecipes << " asked: the model has too few distinct legal ones)";
    io.out << "\n  formats" << (stack ? " on " + stack->id : std::string()) << ":";
    for (Format f : d.formats)
        io.out << " " << toString(f);
    io.out << "\n  bands per format in the band recipes:";
    for (Format f : kAllFormats)
        io.out << " " << toString(f) << " " << bandFormats[static_cast<std::size_t>(f)];
    io.out << "\nwrote " << d.candidates.size() << " recipes and " << manifestPath
           << "\nmeasure: " << manifest["measure"].get<std::string>() << "\n";
    return 0;
}

const RegisterCommand reg(kName,
                          "plan a model's RMQD measurement campaign: recipes and a manifest "
                          "for tools/measure_rmqd",
                          &run);

} // namespace
} // namespace acsel::cli
