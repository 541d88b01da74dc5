// Validation of meaning, not only syntax: files whose values are in a number's range but would
// make the engine predict impossible things are refused on load, naming the field: a
// utilisation beyond what a kernel can reach, a surrogate whose predictions leave the finite
// RMQD range. (The GPU spec's ranges are in test_systemyaml.)
#include "core/data/jsonfields.h"
#include "core/data/loaderror.h"
#include "core/latency/utilisationmodel.h"
#include "core/quality/ridgesurrogate.h"
#include "loaderrors.h"
#include "testmain.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

const std::string kSurrogate = ACSEL_TEST_DATA "/../fuzz/corpus/surrogate/engine_schema3.json";

} // namespace

class TestSemanticValidation : public QObject
{
    Q_OBJECT
private slots:
    void utilisationBeyondSpeedOfLightIsRefused();
    void surrogateWithInfiniteRmqdIsRefused();
};

void TestSemanticValidation::utilisationBeyondSpeedOfLightIsRefused()
{
    const Json j = parseJsonFile(ACSEL_DATASETS "/utilisation.json");
    QVERIFY(!parseUtilisation(j, "u.json").grids.empty());
    const Json& first = j["grids"][0]["log_utilisation"];
    std::size_t node = 0;
    while (first[node].is_null())
        ++node;
    const std::string where = "u.json: /grids/0/log_utilisation/" + std::to_string(node) + ": ";
    for (const double bad : {20.0, 3.01, -10.5}) {
        Json edited = j;
        edited["grids"][0]["log_utilisation"][node] = bad;
        QCOMPARE(errorOf([&] { parseUtilisation(edited, "u.json"); }),
                 where + "expected a log-utilisation in [-10, 3] or null");
    }
    for (const double edge : {3.0, -10.0}) { // the bounds themselves are accepted
        Json edited = j;
        edited["grids"][0]["log_utilisation"][node] = edge;
        QCOMPARE(parseUtilisation(edited, "u.json").grids[0].logU[node], edge);
    }
}

void TestSemanticValidation::surrogateWithInfiniteRmqdIsRefused()
{
    const Json j = parseJsonFile(kSurrogate);
    const RidgeSurrogate ok = RidgeSurrogate::fromJson(j, "s.json");
    QVERIFY(ok.intercept() > 0);
    // An intercept of 800 alone predicts exp(800) = inf. The bound the loader reports, worked
    // out here from the file: 800 + every positive weight at its feature's top (40 for
    // log_params, else 1) + the largest positive offset.
    Json intercept = j;
    intercept["intercept"] = 800.0;
    double hi = 800.0, largestOffset = 0.0;
    for (std::size_t k = 0; k < j["features"].size(); ++k)
        hi += std::max(0.0, j["features"][k]["weight"].get<double>() * (k == 0 ? 40.0 : 1.0));
    for (const Json& o : j["model_offsets"])
        largestOffset = std::max(largestOffset, o["offset"].get<double>());
    const std::string what = errorOf([&] { RidgeSurrogate::fromJson(intercept, "s.json"); });
    const std::string prefix =
        "s.json: /intercept: intercept, weights and offsets give log RMQD up to ";
    QVERIFY2(what.rfind(prefix, 0) == 0, what.c_str());
    QVERIFY(std::abs(std::stod(what.substr(prefix.size())) - (hi + largestOffset)) < 1e-9);
    // A log_params weight of 20 reaches 20 x 40 = 800 over the models' range.
    Json weight = j;
    weight["features"][0]["weight"] = 20.0;
    QVERIFY(errorOf([&] {
                RidgeSurrogate::fromJson(weight, "s.json");
            }).rfind("s.json: /features: intercept, weights and offsets give log RMQD up to", 0) ==
            0);
    // A large negative model offset can drive an RMQD to 0.
    Json offset = j;
    offset["model_offsets"][0]["offset"] = -800.0;
    QVERIFY(errorOf([&] { RidgeSurrogate::fromJson(offset, "s.json"); }).find("and down to") !=
            std::string::npos);
}

ACSEL_TEST_APPLESS_MAIN(TestSemanticValidation)
#include "test_semanticvalidation.moc"
