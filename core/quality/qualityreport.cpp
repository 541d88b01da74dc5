#include "core/quality/qualityreport.h"

#include <stdexcept>

namespace acsel
{

FeatureVector qualityFeatures(const ModelArch& model, const QualityRow& row)
{
    return qualityFeatures(model, row.recipe, row.algorithm, row.lmHeadQuantized, row.kv);
}

QualityReport evaluateQualitySurrogates(const QualitySet& set, const std::vector<ModelArch>& models,
                                        SurrogateOptions options)
{
    std::vector<FeatureVector> trainX, testX;
    std::vector<double> trainY, testY;
    for (const QualityRow& r : set.rows) {
        const FeatureVector phi = qualityFeatures(models[static_cast<std::size_t>(r.model)], r);
        (r.split == Split::Train ? trainX : testX).push_back(phi);
        (r.split == Split::Train ? trainY : testY).push_back(r.rmqd);
    }
    if (trainX.size() < 2 || testX.empty())
        throw std::invalid_argument(
            "the quality set needs at least two training rows and one held-out row (it has " +
            std::to_string(trainX.size()) + " and " + std::to_string(testX.size()) + ")");
    QualityReport rep;
    rep.trainRows = static_cast<int>(trainX.size());
    rep.heldoutRows = static_cast<int>(testX.size());
    auto evaluate = [&](bool monotone) {
        options.monotone = monotone;
        SurrogateEvaluation e{RidgeSurrogate::fit(trainX, trainY, options), 0.0, {}};
        std::vector<double> pred;
        for (const FeatureVector& phi : testX)
            pred.push_back(e.surrogate.predict(phi));
        e.heldoutMdape = mdapePercent(pred, testY);
        e.monotonicity = checkMonotonicity(e.surrogate, models);
        return e;
    };
    rep.unconstrained = evaluate(false);
    rep.constrained = evaluate(true);
    return rep;
}

} // namespace acsel
