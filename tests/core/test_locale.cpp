// Every number reader is locale-independent: under a decimal-comma locale (de_DE.UTF-8, as
// QCoreApplication sets the C locale from LANG, and as a program may set the global C++
// locale) the default workspace and each of its files read to exactly the values they read
// to under "C". packaging/setup.sh generates the locale.
#include "core/data/aictables.h"
#include "core/data/qualityset.h"
#include "core/data/systemyaml.h"
#include "core/data/workspacefile.h"
#include "core/latency/utilisationmodel.h"
#include "testmain.h"

#include <clocale>
#include <locale>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

constexpr const char* kDecimalComma = "de_DE.UTF-8";

// Everything the readers made of the default workspace, as text that compares exactly
// (nlohmann's dump prints doubles shortest round-trip, independent of the locale).
std::string snapshot()
{
    const Workspace ws = loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
    Json out;
    for (const Platform& p : ws.platforms)
        out["platforms"].push_back({p.id, p.memCapacityBytes, p.memBandwidth, p.memBwScaling,
                                    p.memConstantLatencyS, p.otherMemBytes, p.tensorFlops});
    for (const QualityRow& r : loadQualitySet(ws.qualityFile, ws.models).rows)
        out["quality"].push_back({r.model, bandsToText(r.recipe), r.rmqd});
    for (const RequestOverhead& o : ws.requestOverheads)
        out["request_overheads"].push_back({o.stack, o.release, o.ms});
    out["utilisation"] = utilisationToJson(loadUtilisationFile(ws.utilisationFile));
    const std::string yaml = "gpu:\n  mem_bw: 3.35e12\n  mem_capacity: 85899345920\n"
                             "  mem_bw_empirical_scaling_factor: 0.75\n"
                             "  mem_empirical_constant_latency: 0.000003\n"
                             "  bfloat16_tc_flops: 989.5e12\n";
    const Platform y = parseSystemYaml(yaml, "system.yaml", "gpu");
    out["yaml"] = {y.memBandwidth, y.memBwScaling, y.memConstantLatencyS, y.tensorFlops};
    for (const GemmRow& g : loadGemmTable(ACSEL_TEST_DATA "/latency/gemm_perf.csv").rows)
        out["gemm"].push_back({g.m, g.n, g.k, g.ms});
    return out.dump();
}

} // namespace

class TestLocale : public QObject
{
    Q_OBJECT
private slots:
    void decimalCommaReadsTheSameValues();
    void cleanup();
};

void TestLocale::decimalCommaReadsTheSameValues()
{
    const std::string inC = snapshot();
    QVERIFY(inC.find("0.75") != std::string::npos); // the yaml's fraction, read as written
    if (!std::setlocale(LC_ALL, kDecimalComma))
        QFAIL("locale de_DE.UTF-8 is not installed (bash packaging/setup.sh generates it)");
    std::locale::global(std::locale(kDecimalComma));
    QCOMPARE(std::string(std::localeconv()->decimal_point), std::string(","));
    QCOMPARE(std::use_facet<std::numpunct<char>>(std::locale()).decimal_point(), ',');
    QCOMPARE(snapshot(), inC);
}

void TestLocale::cleanup()
{
    std::locale::global(std::locale::classic());
    std::setlocale(LC_ALL, "C");
}

ACSEL_TEST_GUILESS_MAIN(TestLocale)
#include "test_locale.moc"
