#include "core/quality/ridgesurrogate.h"

#include "core/data/atomicfile.h"
#include "core/data/loaderror.h"
#include "core/quality/ridge.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace acsel
{

double predictRecipe(const SurrogateTerms& t, const BandRecipe& r)
{
    return std::exp(predictRecipeLog(t, r));
}

double mdapePercent(const std::vector<double>& predicted, const std::vector<double>& measured)
{
    if (predicted.size() != measured.size() || predicted.empty())
        throw std::invalid_argument("mdapePercent: need equally many, at least one, values");
    std::vector<double> ape;
    for (std::size_t i = 0; i < predicted.size(); ++i)
        ape.push_back(100.0 * std::abs(predicted[i] - measured[i]) / std::abs(measured[i]));
    const std::size_t mid = ape.size() / 2;
    std::nth_element(ape.begin(), ape.begin() + static_cast<std::ptrdiff_t>(mid), ape.end());
    if (ape.size() % 2 == 1)
        return ape[mid];
    const double upper = ape[mid];
    return 0.5 *
           (upper + *std::max_element(ape.begin(), ape.begin() + static_cast<std::ptrdiff_t>(mid)));
}

RidgeSurrogate RidgeSurrogate::fit(const std::vector<FeatureVector>& X,
                                   const std::vector<double>& rmqd, const SurrogateOptions& options,
                                   const std::vector<int>& rowModels,
                                   const std::vector<std::string>& modelNames)
{
    if (X.size() != rmqd.size() || X.size() < 2)
        throw std::invalid_argument(
            "RidgeSurrogate::fit: need at least two rows, one RMQD per row");
    if (options.modelOffsets && rowModels.size() != X.size())
        throw std::invalid_argument("RidgeSurrogate::fit: model offsets need a model per row");
    const auto n = static_cast<Eigen::Index>(X.size());
    const int offsets = options.modelOffsets ? static_cast<int>(modelNames.size()) : 0;
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, kFeatureCount + offsets);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const double v = rmqd[static_cast<std::size_t>(i)];
        if (!(v > 0.0) || !std::isfinite(v))
            throw std::invalid_argument("RidgeSurrogate::fit: RMQD must be finite and > 0");
        y(i) = std::log(v);
        for (int j = 0; j < kFeatureCount; ++j)
            A(i, j) = X[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        if (offsets > 0) {
            const int m = rowModels[static_cast<std::size_t>(i)];
            if (m < 0 || m >= offsets)
                throw std::invalid_argument("RidgeSurrogate::fit: row model out of range");
            A(i, kFeatureCount + m) = 1.0;
        }
    }
    std::vector<bool> bounded(static_cast<std::size_t>(kFeatureCount + offsets), false);
    if (options.monotone)
        for (int j = 0; j < kFeatureCount; ++j)
            bounded[static_cast<std::size_t>(j)] =
                isBitDeficitFeature(options.coding, j) ||
                (options.quantizationNeverHelps && isQuantizationFeature(j));
    // The floor: fit v_j = w_j - floor_j >= 0 on y minus what the floors alone predict.
    std::vector<double> floor(static_cast<std::size_t>(kFeatureCount), 0.0);
    if (options.monotone && options.quantizationNeverHelps)
        for (int j = 0; j < kFeatureCount; ++j)
            if (bounded[static_cast<std::size_t>(j)]) {
                floor[static_cast<std::size_t>(j)] = options.weightFloor;
                y -= options.weightFloor * A.col(j);
            }
    const LambdaChoice choice =
        chooseLambda(A, y, bounded, options.lambdas,
                     std::min<int>(options.folds, static_cast<int>(n)), options.seed);
    const RidgeFit fit = fitRidge(A, y, choice.lambda, bounded);

    RidgeSurrogate s;
    s.coding_ = options.coding;
    s.monotone_ = options.monotone;
    for (int j = 0; j < kFeatureCount; ++j)
        s.constrained_[static_cast<std::size_t>(j)] = bounded[static_cast<std::size_t>(j)];
    s.lambda_ = choice.lambda;
    s.intercept_ = fit.b;
    for (int j = 0; j < kFeatureCount; ++j)
        s.weights_[static_cast<std::size_t>(j)] = fit.w(j) + floor[static_cast<std::size_t>(j)];
    std::vector<bool> seen(static_cast<std::size_t>(offsets), false);
    for (int m : rowModels)
        if (offsets > 0)
            seen[static_cast<std::size_t>(m)] = true;
    for (int m = 0; m < offsets; ++m) {
        if (!seen[static_cast<std::size_t>(m)])
            continue;
        const std::string& name = modelNames[static_cast<std::size_t>(m)];
        if (s.findOffset(name))
            throw std::invalid_argument("RidgeSurrogate::fit: two models are named '" + name + "'");
        s.offsets_.emplace_back(name, fit.w(kFeatureCount + m));
    }
    if (options.monotone) // the solver's bound is exact; rounding must not show as -0.0 noise
        for (int j = 0; j < kFeatureCount; ++j)
            if (s.constrained_[static_cast<std::size_t>(j)])
                s.weights_[static_cast<std::size_t>(j)] = std::max(
                    floor[static_cast<std::size_t>(j)], s.weights_[static_cast<std::size_t>(j)]);
    s.trainingRows_ = static_cast<int>(n);
    s.cv_ = choice.curve;
    std::vector<double> pred;
    for (std::size_t i = 0; i < X.size(); ++i)
        pred.push_back(offsets > 0
                           ? s.predict(X[i], modelNames[static_cast<std::size_t>(rowModels[i])])
                           : s.predict(X[i]));
    s.trainingMdape_ = mdapePercent(pred, rmqd);
    return s;
}

double RidgeSurrogate::predictLog(const FeatureVector& phi) const
{
    double v = intercept_;
    for (std::size_t j = 0; j < phi.size(); ++j)
        v += weights_[j] * phi[j];
    return v;
}

double RidgeSurrogate::predict(const FeatureVector& phi) const
{
    return std::exp(predictLog(phi));
}

double RidgeSurrogate::predict(const FeatureVector& phi, const std::string& model) const
{
    return std::exp(predictLog(phi) + modelOffset(model));
}

const std::pair<std::string, double>* RidgeSurrogate::findOffset(const std::string& model) const
{
    for (const auto& entry : offsets_)
        if (entry.first == model)
            return &entry;
    return nullptr;
}

double RidgeSurrogate::modelOffset(const std::string& model) const
{
    const auto* entry = findOffset(model);
    return entry ? entry->second : 0.0;
}

bool RidgeSurrogate::extrapolatesModel(const std::string& model) const
{
    return !offsets_.empty() && !findOffset(model);
}

FeatureVector RidgeSurrogate::features(const ModelArch& model, const BandRecipe& recipe,
                                       Algorithm algorithm, bool lmHeadQuantized, KvFormat kv) const
{
    return qualityFeatures(coding_, model, recipe, algorithm, lmHeadQuantized, kv);
}

double RidgeSurrogate::predict(const ModelArch& model, const BandRecipe& recipe,
                               Algorithm algorithm, bool lmHeadQuantized, KvFormat kv) const
{
    return predict(features(model, recipe, algorithm, lmHeadQuantized, kv), model.name);
}

SurrogateTerms RidgeSurrogate::terms(const ModelArch& model, Algorithm algorithm,
                                     bool lmHeadQuantized, KvFormat kv) const
{
    SurrogateTerms t;
    const int L = model.layers;
    t.layers = L;
    // The constant: every feature that does not depend on the layers; each layer's term is the
    // weighted sum of what it adds to phi (its algorithm share and layer codes).
    const BandRecipe none;
    t.constant =
        predictLog(features(model, none, algorithm, lmHeadQuantized, kv)) + modelOffset(model.name);
    t.prefix.assign(static_cast<std::size_t>(kFormatCount * kScopeCount * (L + 1)), 0.0);
    for (Format f : kAllFormats)
        for (Scope s : kAllScopes) {
            const std::size_t base =
                (static_cast<std::size_t>(f) * kScopeCount + static_cast<std::size_t>(s)) *
                static_cast<std::size_t>(L + 1);
            for (int l = 0; l < L; ++l) {
                FeatureVector phi{};
                addLayerFeatures(coding_, model, l, f, s, algorithm, phi);
                double term = 0.0;
                for (std::size_t k = 0; k < phi.size(); ++k)
                    term += weights_[k] * phi[k];
                t.prefix[base + static_cast<std::size_t>(l) + 1] =
                    t.prefix[base + static_cast<std::size_t>(l)] + term;
            }
        }
    return t;
}

nlohmann::json RidgeSurrogate::toJson() const
{
    nlohmann::json j;
    j["schema_version"] = kSurrogateSchemaVersion;
    j["kind"] = "acsel-quality-surrogate";
    j["target"] = "log_rmqd";
    j["feature_coding"] = toString(coding_);
    j["monotone"] = monotone_;
    j["lambda"] = lambda_;
    j["intercept"] = intercept_;
    j["features"] = nlohmann::json::array();
    for (int k = 0; k < kFeatureCount; ++k)
        j["features"].push_back({{"name", featureName(coding_, k)},
                                 {"weight", weights_[static_cast<std::size_t>(k)]},
                                 {"constrained_nonnegative", constrained(k)}});
    j["model_offsets"] = nlohmann::json::array();
    for (const auto& [name, offset] : offsets_)
        j["model_offsets"].push_back({{"model", name}, {"offset", offset}});
    j["training_rows"] = trainingRows_;
    j["training_data"] = {{"file", trainingData_.file}, {"synthetic", trainingData_.synthetic}};
    j["fit_error"] = {{"training_mdape_percent", trainingMdape_}};
    j["cv"] = nlohmann::json::array();
    for (const CvPoint& p : cv_)
        j["cv"].push_back({{"lambda", p.lambda}, {"mse_log", p.mse}});
    return j;
}

RidgeSurrogate RidgeSurrogate::fromJson(const nlohmann::json& j, const std::string& file)
{
    const JsonFields f(file);
    const int version = f.schemaVersion(j, 2, kSurrogateSchemaVersion,
                                        "an older surrogate: its algorithm features differ; "
                                        "refit it with `acsel report quality --save`");
    if (f.string(j, "kind", "") != "acsel-quality-surrogate")
        f.fail("/kind", "expected \"acsel-quality-surrogate\"");
    if (f.string(j, "target", "") != "log_rmqd")
        f.fail("/target", "expected \"log_rmqd\"");
    RidgeSurrogate s;
    if (version >= 4) {
        const std::string coding = f.string(j, "feature_coding", "");
        const auto parsed = parseFeatureCoding(coding);
        if (!parsed)
            f.fail("/feature_coding",
                   "expected \"method\" or \"scope_aware\", found \"" + coding + "\"");
        s.coding_ = *parsed;
    }
    s.monotone_ = f.boolean(j, "monotone", "");
    s.lambda_ = f.number(j, "lambda", "", 0.0, 1e12);
    s.intercept_ = f.number(j, "intercept", "", -1e6, 1e6);
    const Json& feats = f.array(j, "features", "");
    if (feats.size() != static_cast<std::size_t>(kFeatureCount))
        f.fail("/features", "expected " + std::to_string(kFeatureCount) + " features, found " +
                                std::to_string(feats.size()));
    for (int k = 0; k < kFeatureCount; ++k) {
        const std::string ptr = "/features/" + std::to_string(k);
        const Json& e = feats[static_cast<std::size_t>(k)];
        if (f.string(e, "name", ptr) != featureName(s.coding_, k))
            f.fail(ptr + "/name",
                   "expected feature '" + std::string(featureName(s.coding_, k)) + "' here");
        const double w = f.number(e, "weight", ptr, -1e6, 1e6);
        const bool bounded = f.booleanOr(e, "constrained_nonnegative", ptr, false);
        if (s.monotone_ && isBitDeficitFeature(s.coding_, k) && !bounded)
            f.fail(ptr + "/constrained_nonnegative",
                   "a monotone surrogate bounds every bit-deficit weight");
        if (bounded && w < 0.0)
            f.fail(ptr + "/weight", "a weight constrained to be non-negative is negative");
        s.constrained_[static_cast<std::size_t>(k)] = bounded;
        s.weights_[static_cast<std::size_t>(k)] = w;
    }
    if (version >= 3)
        for (std::size_t k = 0; k < f.array(j, "model_offsets", "").size(); ++k) {
            const std::string ptr = "/model_offsets/" + std::to_string(k);
            const Json& e = j["model_offsets"][k];
            const std::string model = f.string(e, "model", ptr);
            if (s.findOffset(model))
                f.fail(ptr + "/model", "model '" + model + "' has a second offset");
            s.offsets_.emplace_back(model, f.number(e, "offset", ptr, -1e6, 1e6));
        }
    // The log prediction is linear in the features, each in [0, 1] but log_params, taken in
    // [0, 40] (models up to e^40 parameters), plus one model offset or none: its extremes
    // over that box bound every recipe's. Outside [-690, 690] some RMQD would be 0 or beyond
    // the quality sets' 1e300 (an intercept of 800 predicted inf).
    constexpr double kMaxLog = 690.0, kMaxLogParams = 40.0;
    double hi = s.intercept_, lo = s.intercept_;
    for (int k = 0; k < kFeatureCount; ++k) {
        const double top = s.weights_[static_cast<std::size_t>(k)] * (k == 0 ? kMaxLogParams : 1.0);
        hi += std::max(0.0, top);
        lo += std::min(0.0, top);
    }
    double offsetHi = 0.0, offsetLo = 0.0;
    for (const auto& [model, offset] : s.offsets_) {
        offsetHi = std::max(offsetHi, offset);
        offsetLo = std::min(offsetLo, offset);
    }
    const auto text = [](double v) { // std::to_string follows the C locale
        char buf[32];
        return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    };
    if (hi + offsetHi > kMaxLog || lo + offsetLo < -kMaxLog)
        f.fail(
            std::abs(s.intercept_) > kMaxLog ? "/intercept" : "/features",
            "intercept, weights and offsets give log RMQD up to " + text(hi + offsetHi) +
                " and down to " + text(lo + offsetLo) +
                " over the feature range: expected within [-690, 690] (RMQD in [1e-300, 1e300])");
    s.trainingRows_ = f.integer(j, "training_rows", "", 0, 100'000'000);
    const Json& data = f.object(j, "training_data", "");
    s.trainingData_ = {f.string(data, "file", "/training_data"),
                       f.boolean(data, "synthetic", "/training_data")};
    s.trainingMdape_ =
        f.number(f.object(j, "fit_error", ""), "training_mdape_percent", "/fit_error", 0.0, 1e12);
    for (std::size_t k = 0; k < f.array(j, "cv", "").size(); ++k) {
        const std::string ptr = "/cv/" + std::to_string(k);
        const Json& e = j["cv"][k];
        s.cv_.push_back(
            {f.number(e, "lambda", ptr, 0.0, 1e12), f.number(e, "mse_log", ptr, 0.0, 1e12)});
    }
    return s;
}

void RidgeSurrogate::save(const std::string& path) const
{
    writeFileAtomically(path, toJson().dump(2) + "\n");
}

RidgeSurrogate RidgeSurrogate::load(const std::string& path)
{
    return fromJson(parseJsonFile(path), path);
}

} // namespace acsel
