// acsel report quality: the paper's Table 3 on a quality measurement set (held-out MdAPE of
// the unconstrained vs the monotone ridge surrogate and of the engine's scope-aware one), the
// monotonicity check and the scope separation, as text or --json.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "app/common/paths.h"
#include "core/data/jsonfields.h"
#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "core/quality/qualityreport.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

namespace acsel::cli
{
namespace
{

constexpr const char* kName = "report quality";

double dropPercent(const SurrogateMonotonicity& m)
{
    return m.moves > 0 ? 100.0 * static_cast<double>(m.drops) / static_cast<double>(m.moves) : 0.0;
}

void printMonotonicity(std::ostream& out, const char* name, const SurrogateMonotonicity& m)
{
    out << "  " << std::left << std::setw(14) << name << std::right << std::setw(9) << m.drops
        << " of " << m.moves << " moves lower the prediction (" << std::setprecision(2)
        << dropPercent(m) << "%)\n";
}

void printScopes(std::ostream& out, const char* name, const ScopeSeparation& s)
{
    out << "  " << std::left << std::setw(14) << name << std::right << std::setw(9) << s.separated
        << " of " << s.spreads.size()
        << " (model, format) pairs separate the scopes (full above mlp and attn, mlp != attn)\n";
}

// The (model, format) pairs of the first model, to show what separation means in numbers.
void printScopeExamples(std::ostream& out, const ScopeSeparation& s)
{
    if (s.spreads.empty())
        return;
    const std::string& model = s.spreads.front().model;
    out << "  engine, " << model << " uniform recipes (predicted RMQD attn / mlp / full):\n";
    for (const ScopeSpread& p : s.spreads)
        if (p.model == model)
            out << "    " << std::left << std::setw(10) << toString(p.format) << std::setw(12)
                << toString(p.algorithm) << std::right << std::setprecision(5) << p.attn << " / "
                << p.mlp << " / " << p.full << "\n";
}

Json weightsJson(const RidgeSurrogate& s)
{
    Json w = Json::array();
    for (int k = 0; k < kFeatureCount; ++k)
        w.push_back({{"name", featureName(s.coding(), k)},
                     {"weight", s.weights()[static_cast<std::size_t>(k)]},
                     {"constrained_nonnegative", s.constrained(k)}});
    return w;
}

Json evaluationJson(const char* name, const char* bounds, const SurrogateEvaluation& e)
{
    Json scopes = Json::array();
    for (const ScopeSpread& p : e.scopes.spreads)
        scopes.push_back({{"model", p.model},
                          {"format", toString(p.format)},
                          {"algorithm", toString(p.algorithm)},
                          {"attn", p.attn},
                          {"mlp", p.mlp},
                          {"full", p.full},
                          {"separated", p.separated()}});
    const RidgeSurrogate& s = e.surrogate;
    return {{"name", name},
            {"feature_coding", toString(s.coding())},
            {"bounds", bounds},
            {"model_offsets", !s.modelOffsets().empty()},
            {"lambda", s.lambda()},
            {"train_mdape_percent", s.trainingMdape()},
            {"heldout_mdape_percent", e.heldoutMdape},
            {"bit_reducing_moves",
             {{"moves", e.monotonicity.moves},
              {"lower_prediction", e.monotonicity.drops},
              {"lower_prediction_percent", dropPercent(e.monotonicity)}}},
            {"scope_separation",
             {{"pairs", e.scopes.spreads.size()},
              {"separated", e.scopes.separated},
              {"all_separated", e.scopes.separated == static_cast<int>(e.scopes.spreads.size())},
              {"uniform_recipes", scopes}}},
            {"intercept", s.intercept()},
            {"weights", weightsJson(s)}};
}

Json reportJson(const QualityReport& rep, const QualitySet& set, const std::string& file)
{
    Json j{{"kind", "acsel-quality-report"},
           {"data", {{"file", file}, {"synthetic", set.synthetic}}},
           {"rows", {{"train", rep.trainRows}, {"heldout", rep.heldoutRows}}}};
    if (set.synthetic && set.generator.contains("command"))
        j["data"]["generator_command"] = set.generator["command"];
    j["surrogates"] =
        Json::array({evaluationJson("unconstrained", "none", rep.unconstrained),
                     evaluationJson("method_monotone", "bit_deficit", rep.constrained),
                     evaluationJson("engine", "every_quantization_feature", rep.engine),
                     evaluationJson("engine_method_features", "every_quantization_feature",
                                    rep.methodWithOffsets),
                     evaluationJson("engine_no_offsets", "every_quantization_feature",
                                    rep.engineWithoutOffsets)});
    if (rep.resplit.resplits > 0) {
        const ResplitStudy& r = rep.resplit;
        j["resplit"] = {{"resplits", r.resplits},
                        {"unconstrained_mdape_percent", r.unconstrainedMdape},
                        {"constrained_mdape_percent", r.constrainedMdape},
                        {"binding", r.binding},
                        {"non_monotone", r.nonMonotone},
                        {"bound_weights", r.boundWeights},
                        {"constrained_better", r.constrainedBetter},
                        {"constrained_worse", r.constrainedWorse}};
    }
    return j;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

void printResplits(std::ostream& out, const ResplitStudy& s, int trainRows)
{
    const auto [loU, hiU] =
        std::minmax_element(s.unconstrainedMdape.begin(), s.unconstrainedMdape.end());
    const auto [loC, hiC] =
        std::minmax_element(s.constrainedMdape.begin(), s.constrainedMdape.end());
    out << "\n"
        << s.resplits << " re-drawn splits (" << trainRows
        << " training rows each, seeded): held-out MdAPE median [min, max]\n"
        << std::fixed << std::setprecision(1) << "  unconstrained ridge     "
        << median(s.unconstrainedMdape) << " %  [" << *loU << ", " << *hiU << "]\n"
        << "  constrained (w_bit>=0)  " << median(s.constrainedMdape) << " %  [" << *loC << ", "
        << *hiC << "]\n"
        << "  the constraint binds in " << s.binding << " of " << s.resplits << " splits ("
        << s.boundWeights << " bit-deficit weights at 0 in all)\n"
        << "  the unconstrained fit is non-monotone in bits (a third slope < 0) in "
        << s.nonMonotone << " of " << s.resplits << "\n"
        << "  constrained held-out MdAPE lower in " << s.constrainedBetter << ", higher in "
        << s.constrainedWorse << "\n";
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    std::vector<app::OptionSpec> specs{workspaceOptions().front()}; // quality needs no tables
    specs.push_back(
        {"quality", "FILE", "quality measurement set, JSON or CSV (default: the workspace's)"});
    specs.push_back({"folds", "K", "cross-validation folds for lambda (default 5)"});
    specs.push_back({"seed", "N", "seed of the CV folds (default 1)"});
    specs.push_back(
        {"resplits", "N",
         "re-drawn train/held-out splits for the constraint study (default 20, 0 off)"});
    specs.push_back(
        {"save", "FILE", "also write the engine's surrogate (the one the search uses) as JSON"});
    specs.push_back({"force", "", "overwrite the --save file"});
    specs.push_back({"json", "", "print JSON instead of text"});
    const app::Args args("report quality", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    // Quality is hardware independent: the models are needed, the operator tables are not.
    const std::string wsPath = app::resolveWorkspacePath(args.valueOr("workspace", ""));
    if (wsPath.empty())
        throw app::UsageError("acsel " + std::string(kName) +
                              ": no workspace found: pass --workspace FILE");
    const Workspace ws = loadWorkspace(wsPath, "");
    const std::string file = args.valueOr("quality", ws.qualityFile);
    if (file.empty())
        throw app::UsageError(
            "acsel report quality: the workspace names no quality set: pass --quality FILE");
    const std::string save = args.valueOr("save", "");
    if (!save.empty() && std::filesystem::exists(save) && !args.flag("force"))
        throw app::UsageError("acsel report quality: --save " + save +
                              " exists; pass --force to overwrite it");
    const QualitySet set = loadQualitySet(file, ws.models);
    SurrogateOptions opt;
    opt.folds = args.integer("folds", 5, 2, 100);
    opt.seed = static_cast<std::uint64_t>(args.integer("seed", 1, 0, 2147483647));
    const int resplits = args.integer("resplits", 20, 0, 10000);
    QualityReport rep;
    try {
        rep = evaluateQualitySurrogates(set, ws.models, opt, resplits);
    } catch (const std::invalid_argument& e) {
        throw LoadError(file, "/rows", e.what());
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!save.empty())
        rep.engine.surrogate.save(save);
    if (args.flag("json")) {
        io.out << reportJson(rep, set, file).dump(2) << "\n";
        return 0;
    }

    std::ostream& out = io.out;
    out << "Quality surrogate: ridge on log(RMQD), " << kFeatureCount << " features, lambda by "
        << opt.folds << "-fold CV on the training split\n";
    out << "data: " << file
        << (set.synthetic ? "  [SYNTHETIC: generated, not measured]" : "  [measured]") << "\n";
    if (set.synthetic && set.generator.contains("command"))
        out << "      made by: " << set.generator["command"].get<std::string>() << "\n";
    out << "rows: " << rep.trainRows << " training, " << rep.heldoutRows << " held-out\n\n";
    out << "                           lambda   train MdAPE   held-out MdAPE   paper (Table 3)\n";
    auto row = [&](const char* name, const SurrogateEvaluation& e, const char* paper) {
        out << "  " << std::left << std::setw(22) << name << std::right << std::setw(9)
            << std::setprecision(3) << std::defaultfloat << e.surrogate.lambda() << std::fixed
            << std::setprecision(1) << std::setw(12) << e.surrogate.trainingMdape() << " %"
            << std::setw(15) << e.heldoutMdape << " %" << std::setw(15) << paper << "\n";
    };
    row("unconstrained ridge", rep.unconstrained, "3.3 %");
    row("constrained (w_bit>=0)", rep.constrained, "2.6 %");
    row("engine (+model offsets)", rep.engine, "-");
    out << "  ablations of the engine's fit:\n";
    row("  method features", rep.methodWithOffsets, "-");
    row("  no model offsets", rep.engineWithoutOffsets, "-");

    out << "\nmonotone constraint: the constrained fit has "
        << boundBitWeights(rep.constrained.surrogate)
        << " of 4 bit-deficit weights at the bound w = 0\n"
        << "  bit slope per third, w_mean/3 + w_third (a fit is monotone in bits iff all >= 0):\n";
    auto slopes = [&](const char* name, const RidgeSurrogate& s) {
        const std::array<double, 3> v = bitSlopesByThird(s);
        out << "    " << std::left << std::setw(22) << name << std::right << std::fixed
            << std::setprecision(4) << "early " << v[0] << "  middle " << v[1] << "  late " << v[2]
            << "\n";
    };
    slopes("unconstrained", rep.unconstrained.surrogate);
    slopes("constrained", rep.constrained.surrogate);
    out << "  the engine's surrogate, the one the search uses: scope-aware features (each tensor "
           "group's\n  share times the format's effective-bit deficit and noise power), every "
           "quantization\n  weight >= 0.01, and a log-space offset per model of the training data "
           "(log_params alone\n  cannot tell models of one size apart)\n";
    if (rep.resplit.resplits > 0)
        printResplits(out, rep.resplit, rep.trainRows);

    out << "\nweights (log RMQD per unit of feature; * = constrained >= 0 in the monotone fit):\n";
    out << "  " << std::left << std::setw(22) << "feature" << std::right << std::setw(15)
        << "unconstrained" << std::setw(14) << "constrained\n";
    out << std::setprecision(4);
    for (int k = 0; k < kFeatureCount; ++k)
        out << "  " << std::left << std::setw(22)
            << (std::string(featureName(FeatureCoding::Method, k)) +
                (isBitDeficitFeature(FeatureCoding::Method, k) ? " *" : ""))
            << std::right << std::setw(15)
            << rep.unconstrained.surrogate.weights()[static_cast<std::size_t>(k)] << std::setw(13)
            << rep.constrained.surrogate.weights()[static_cast<std::size_t>(k)] << "\n";
    out << "  " << std::left << std::setw(22) << "intercept" << std::right << std::setw(15)
        << rep.unconstrained.surrogate.intercept() << std::setw(13)
        << rep.constrained.surrogate.intercept() << "\n";

    out << "\nmonotonicity: one band moved to a format with fewer bits, every band interval, scope "
           "and\n"
           "format pair of every model (covers every recipe: a move's effect depends on its band "
           "only)\n";
    printMonotonicity(out, "unconstrained", rep.unconstrained.monotonicity);
    printMonotonicity(out, "constrained", rep.constrained.monotonicity);
    printMonotonicity(out, "engine", rep.engine.monotonicity);
    printMonotonicity(out, "  method feat.", rep.methodWithOffsets.monotonicity);
    out << "  constrained fit, by move (granularity code before -> after):\n";
    for (const MoveStats& p : rep.constrained.monotonicity.byPair) {
        if (p.drops == 0)
            continue;
        out << "    " << std::left << std::setw(20)
            << (std::string(toString(p.from)) + " -> " + std::string(toString(p.to))) << std::right
            << std::setw(8) << p.drops << " of " << std::setw(7) << p.moves << "  granularity "
            << std::setprecision(2) << facts(p.from).granularityCode << " -> "
            << facts(p.to).granularityCode << "  worst ratio " << std::setprecision(3)
            << p.worstRatio << "\n";
    }
    if (rep.constrained.monotonicity.drops == 0)
        out << "    none\n";

    out << "\nscope separation: uniform attn / mlp / full recipes of every quantized format and "
           "model\n";
    printScopes(out, "unconstrained", rep.unconstrained.scopes);
    printScopes(out, "constrained", rep.constrained.scopes);
    printScopes(out, "engine", rep.engine.scopes);
    printScopes(out, "  method feat.", rep.methodWithOffsets.scopes);
    printScopeExamples(out, rep.engine.scopes);

    out << "\nengine weights (log RMQD per unit of feature; all but log_params constrained >= "
           "0):\n";
    for (int k = 0; k < kFeatureCount; ++k)
        out << "  " << std::left << std::setw(22) << featureName(FeatureCoding::ScopeAware, k)
            << std::right << std::setw(15) << std::setprecision(4)
            << rep.engine.surrogate.weights()[static_cast<std::size_t>(k)] << "\n";
    if (!save.empty())
        out << "\nwrote the engine's surrogate to " << save << "\n";
    out << "\n(" << std::setprecision(0) << ms << " ms)\n";
    return 0;
}

const RegisterCommand reg("report quality",
                          "quality surrogate accuracy (paper Table 3) and monotonicity", &run);

} // namespace
} // namespace acsel::cli
