// The simulated campaign's "measured" RMQD comes from the demo generator behind the quality set:
// rebuilt from the recorded seed only when it reproduces every row, refused with the reason
// otherwise (a measured set, no seed, an edited row, another seed).
#include "bundled.h"
#include "core/data/workspacefile.h"
#include "core/eval/measuredquality.h"
#include "testmain.h"

using namespace acsel;

namespace
{

bool mentions(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestMeasuredQuality : public QObject
{
    Q_OBJECT
private slots:
    void committedDemoSetRebuildsItsGenerator();
    void generatedSetReproducesEveryRow();
    void refusesWhatTheGeneratorDidNotMake();
};

void TestMeasuredQuality::committedDemoSetRebuildsItsGenerator()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const DemoGenerator g = rebuildDemoGenerator(set, ws.models);
    QVERIFY2(g.model.has_value(), g.reason.c_str());
    QCOMPARE(g.seed, std::uint64_t{2611}); // the committed file's recorded command
    const QualityRow& r = set.rows.back();
    QCOMPARE(g.model->rmqd(r.model, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv), r.rmqd);
}

void TestMeasuredQuality::generatedSetReproducesEveryRow()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    DemoQualityOptions opt;
    opt.seed = 77;
    opt.bandConfigsPerModel = 4;
    opt.trainRows = 100;
    const QualitySet set = generateDemoQualitySet(ws.models, opt, "test");
    const DemoGenerator g = rebuildDemoGenerator(set, ws.models);
    QVERIFY2(g.model.has_value(), g.reason.c_str());
    QCOMPARE(g.seed, std::uint64_t{77});
    const DemoQualityModel direct(ws.models, 77);
    for (const QualityRow& r : set.rows)
        QCOMPARE(g.model->rmqd(r.model, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv),
                 direct.rmqd(r.model, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv));
}

void TestMeasuredQuality::refusesWhatTheGeneratorDidNotMake()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    DemoQualityOptions opt;
    opt.bandConfigsPerModel = 2;
    opt.trainRows = 100;
    const QualitySet made = generateDemoQualitySet(ws.models, opt, "test");

    QualitySet measured = made;
    measured.synthetic = false;
    measured.file = "lab.json";
    DemoGenerator g = rebuildDemoGenerator(measured, ws.models);
    QVERIFY(!g.model && mentions(g.reason, "lab.json holds measured RMQD"));

    QualitySet noSeed = made;
    noSeed.generator.erase("seed");
    g = rebuildDemoGenerator(noSeed, ws.models);
    QVERIFY(!g.model && mentions(g.reason, "/generator/seed"));

    QualitySet edited = made;
    edited.rows[5].rmqd *= 1.001;
    g = rebuildDemoGenerator(edited, ws.models);
    QVERIFY(!g.model && mentions(g.reason, "/rows/5"));

    QualitySet otherSeed = made;
    otherSeed.generator["seed"] = opt.seed + 1;
    g = rebuildDemoGenerator(otherSeed, ws.models);
    QVERIFY(!g.model && mentions(g.reason, "/rows/0"));
}

ACSEL_TEST_APPLESS_MAIN(TestMeasuredQuality)
#include "test_measuredquality.moc"
