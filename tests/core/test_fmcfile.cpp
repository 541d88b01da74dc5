// The FMC file's per-concurrency spreads: written and read back unchanged, absent from version 1
// files (read with no load spreads), refused with the field named when malformed, and a newer
// schema version refused.
#include "core/data/loaderror.h"
#include "core/latency/fmcfile.h"
#include "testmain.h"

#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

FmcSet sample()
{
    FmcSet set;
    FmcEntry e;
    e.stack = "h100_sxm/trtllm";
    e.ttft = {1.0, 0.4};
    e.ttftInfo.form = FmcForm::Offset;
    e.ttftInfo.spread = {40, 39, 0.45};
    e.ttftInfo.loads = {{"c8", 0.6, {6, 5, 0.3}}, {"c64|tp2", -0.1, {9, 8, 0.2}}};
    e.tpotInfo.form = FmcForm::Identity;
    e.rowsUsed = {"r1"};
    set.entries.push_back(e);
    return set;
}

std::string failure(const Json& j)
{
    try {
        fmcFromJson(j, "f.json");
    } catch (const LoadError& e) {
        return e.where() + ": " + e.message();
    }
    return "";
}

} // namespace

class TestFmcFile : public QObject
{
    Q_OBJECT
private slots:
    void loadSpreadsRoundTrip();
    void versionOneFilesHaveNone();
    void badLoadSpreadsAreRefused();
};

void TestFmcFile::loadSpreadsRoundTrip()
{
    const Json j = fmcToJson(sample());
    QCOMPARE(j["schema_version"].get<int>(), 2);
    const FmcSet back = fmcFromJson(j, "f.json");
    const FmcFitInfo& info = back.entries.at(0).ttftInfo;
    QCOMPARE(info.loads.size(), std::size_t{2});
    QCOMPARE(info.loads[1].load, std::string("c64|tp2"));
    QCOMPARE(info.loads[1].centre, -0.1);
    QCOMPARE(info.loads[1].spread.profiles, 9);
    QCOMPARE(info.loads[1].spread.dof, 8);
    QCOMPARE(info.loads[1].spread.scale, 0.2);
    QCOMPARE(info.row("c8").centre, 0.6);
    QCOMPARE(info.row("c16").spread.scale, 0.45); // no spread of its own: the stack's
    QVERIFY(back.entries.at(0).tpotInfo.loads.empty());
}

void TestFmcFile::versionOneFilesHaveNone()
{
    Json j = fmcToJson(sample());
    j["schema_version"] = 1;
    j["stacks"][0]["ttft"].erase("load_spreads");
    const FmcSet back = fmcFromJson(j, "f.json");
    QVERIFY(back.entries.at(0).ttftInfo.loads.empty());
    QCOMPARE(back.entries.at(0).ttftInfo.row("c8").spread.scale, 0.45);
    j["schema_version"] = 3;
    QCOMPARE(failure(j), std::string("/schema_version: written by a newer ACSeL Studio (schema "
                                     "3, this build reads up to 2)"));
}

void TestFmcFile::badLoadSpreadsAreRefused()
{
    Json j = fmcToJson(sample());
    j["stacks"][0]["ttft"]["load_spreads"][1]["log_scale"] = -1;
    QVERIFY(failure(j).starts_with("/stacks/0/ttft/load_spreads/1/log_scale"));
    j = fmcToJson(sample());
    j["stacks"][0]["ttft"]["load_spreads"][0].erase("load");
    QVERIFY(failure(j).starts_with("/stacks/0/ttft/load_spreads/0/load"));
    j = fmcToJson(sample());
    // A load's dof may reach the stack's profiles (the prior's dof add to its own), not more.
    j["stacks"][0]["ttft"]["load_spreads"][0]["dof"] = 40;
    QCOMPARE(fmcFromJson(j, "f.json").entries.at(0).ttftInfo.loads[0].spread.dof, 40);
    j["stacks"][0]["ttft"]["load_spreads"][0]["dof"] = 41; // more than the stack's 40 profiles
    QVERIFY(failure(j).starts_with("/stacks/0/ttft/load_spreads/0/dof"));
}

ACSEL_TEST_APPLESS_MAIN(TestFmcFile)
#include "test_fmcfile.moc"
