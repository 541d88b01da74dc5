#include "core/quality/qualityreport.h"

#include "core/quality/rng.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace acsel
{
namespace
{

struct SplitData {
    std::vector<FeatureVector> trainX, testX;
    std::vector<double> trainY, testY;
};

SplitData splitRows(const std::vector<FeatureVector>& phi, const QualitySet& set,
                    const std::vector<bool>& isTrain)
{
    SplitData d;
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        (isTrain[i] ? d.trainX : d.testX).push_back(phi[i]);
        (isTrain[i] ? d.trainY : d.testY).push_back(set.rows[i].rmqd);
    }
    return d;
}

double heldoutMdape(const RidgeSurrogate& s, const SplitData& d)
{
    std::vector<double> pred;
    for (const FeatureVector& x : d.testX)
        pred.push_back(s.predict(x));
    return mdapePercent(pred, d.testY);
}

// The unconstrained ridge on the features plus one indicator column per model.
double perModelInterceptMdape(const std::vector<FeatureVector>& phi, const QualitySet& set,
                              int numModels, const SurrogateOptions& options)
{
    std::vector<bool> trained(static_cast<std::size_t>(numModels), false);
    std::vector<Eigen::Index> train, test;
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        const bool t = set.rows[i].split == Split::Train;
        (t ? train : test).push_back(static_cast<Eigen::Index>(i));
        if (t)
            trained[static_cast<std::size_t>(set.rows[i].model)] = true;
    }
    for (Eigen::Index i : test)
        if (!trained[static_cast<std::size_t>(set.rows[static_cast<std::size_t>(i)].model)])
            return -1.0;
    const auto n = static_cast<Eigen::Index>(set.rows.size());
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n, kFeatureCount + numModels);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const QualityRow& r = set.rows[static_cast<std::size_t>(i)];
        for (int j = 0; j < kFeatureCount; ++j)
            X(i, j) = phi[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        X(i, kFeatureCount + r.model) = 1.0;
        y(i) = std::log(r.rmqd);
    }
    const Eigen::MatrixXd Xt = X(train, Eigen::all);
    const Eigen::VectorXd yt = y(train);
    const std::vector<bool> unbounded(static_cast<std::size_t>(X.cols()), false);
    const int folds = std::min<int>(options.folds, static_cast<int>(train.size()));
    const RidgeFit fit = fitRidge(
        Xt, yt, chooseLambda(Xt, yt, unbounded, options.lambdas, folds, options.seed).lambda,
        unbounded);
    std::vector<double> pred, measured;
    for (Eigen::Index i : test) {
        pred.push_back(std::exp(fit.predict(X.row(i))));
        measured.push_back(set.rows[static_cast<std::size_t>(i)].rmqd);
    }
    return mdapePercent(pred, measured);
}

ResplitStudy resplitStudy(const std::vector<FeatureVector>& phi, const QualitySet& set,
                          int trainRows, int resplits, SurrogateOptions options)
{
    ResplitStudy study;
    study.resplits = resplits;
    const std::size_t n = set.rows.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    SplitMix64 rng(options.seed ^ 0x5eed5eedULL);
    for (int r = 0; r < resplits; ++r) {
        for (std::size_t i = n - 1; i > 0; --i)
            std::swap(order[i],
                      order[static_cast<std::size_t>(rng.below(static_cast<int>(i) + 1))]);
        std::vector<bool> isTrain(n, false);
        for (int i = 0; i < trainRows; ++i)
            isTrain[order[static_cast<std::size_t>(i)]] = true;
        const SplitData d = splitRows(phi, set, isTrain);
        options.monotone = false;
        const RidgeSurrogate unconstrained = RidgeSurrogate::fit(d.trainX, d.trainY, options);
        const double plain = heldoutMdape(unconstrained, d);
        const std::array<double, 3> slopes = bitSlopesByThird(unconstrained);
        study.nonMonotone += *std::min_element(slopes.begin(), slopes.end()) < 0.0 ? 1 : 0;
        options.monotone = true;
        const RidgeSurrogate mono = RidgeSurrogate::fit(d.trainX, d.trainY, options);
        const double constrained = heldoutMdape(mono, d);
        study.unconstrainedMdape.push_back(plain);
        study.constrainedMdape.push_back(constrained);
        const int bound = boundBitWeights(mono);
        study.boundWeights += bound;
        study.binding += bound > 0 ? 1 : 0;
        study.constrainedBetter += constrained < plain ? 1 : 0;
        study.constrainedWorse += constrained > plain ? 1 : 0;
    }
    return study;
}

} // namespace

int boundBitWeights(const RidgeSurrogate& constrained)
{
    int bound = 0;
    for (int k = 0; k < kFeatureCount; ++k)
        if (isBitDeficitFeature(k) && constrained.weights()[static_cast<std::size_t>(k)] == 0.0)
            ++bound;
    return bound;
}

std::array<double, 3> bitSlopesByThird(const RidgeSurrogate& s)
{
    const auto w = [&](int a) {
        return s.weights()[static_cast<std::size_t>(layerFeatureIndex(LayerCode::BitDeficit, a))];
    };
    return {w(0) / 3.0 + w(1), w(0) / 3.0 + w(2), w(0) / 3.0 + w(3)};
}

FeatureVector qualityFeatures(const ModelArch& model, const QualityRow& row)
{
    return qualityFeatures(model, row.recipe, row.algorithm, row.lmHeadQuantized, row.kv);
}

QualityReport evaluateQualitySurrogates(const QualitySet& set, const std::vector<ModelArch>& models,
                                        SurrogateOptions options, int resplits)
{
    std::vector<FeatureVector> phi;
    std::vector<bool> isTrain;
    for (const QualityRow& r : set.rows) {
        phi.push_back(qualityFeatures(models[static_cast<std::size_t>(r.model)], r));
        isTrain.push_back(r.split == Split::Train);
    }
    const SplitData d = splitRows(phi, set, isTrain);
    if (d.trainX.size() < 2 || d.testX.empty())
        throw std::invalid_argument(
            "the quality set needs at least two training rows and one held-out row (it has " +
            std::to_string(d.trainX.size()) + " and " + std::to_string(d.testX.size()) + ")");
    QualityReport rep;
    rep.trainRows = static_cast<int>(d.trainX.size());
    rep.heldoutRows = static_cast<int>(d.testX.size());
    auto evaluate = [&](bool monotone) {
        options.monotone = monotone;
        SurrogateEvaluation e{RidgeSurrogate::fit(d.trainX, d.trainY, options), 0.0, {}};
        e.surrogate.setTrainingData({set.file, set.synthetic});
        e.heldoutMdape = heldoutMdape(e.surrogate, d);
        e.monotonicity = checkMonotonicity(e.surrogate, models);
        return e;
    };
    rep.unconstrained = evaluate(false);
    rep.constrained = evaluate(true);
    rep.perModelInterceptMdape =
        perModelInterceptMdape(phi, set, static_cast<int>(models.size()), options);
    if (resplits > 0)
        rep.resplit = resplitStudy(phi, set, rep.trainRows, resplits, options);
    return rep;
}

} // namespace acsel
