// A configuration the gate rejected, exported from the window on request: its file's header
// (the ModelOpt recipe) says it was rejected and why, ahead of where the predictions come from; an
// admitted one keeps the plain note.
#include "../core/test_export_fixtures.h"
#include "core/export/exporter.h"
#include "testmain.h"
#include "viewmodel/exportnote.h"

using namespace exporttest;

class TestExportNote : public QObject
{
    Q_OBJECT
private slots:
    void rejectionWrittenIntoTheHeader();
};

void TestExportNote::rejectionWrittenIntoTheHeader()
{
    acsel::gui::PredictionView p;
    p.admitted = true;
    p.verdict = "admitted";
    QCOMPARE(acsel::gui::exportNote(p, "latency from tables"), std::string("latency from tables"));
    p.admitted = false;
    p.verdict = "memory 76.2 GiB exceeds the budget 75.0 GiB";
    const std::string note = acsel::gui::exportNote(p, "latency from tables");
    QCOMPARE(note, std::string("REJECTED by the gate (memory 76.2 GiB exceeds the budget 75.0 "
                               "GiB), exported on request; latency from tables"));
    ExportInput in = acceptanceInput();
    in.predictionNote = note;
    // The recipe's header comment and its description field (the JSON formats have no header).
    const std::string text = exportText(ExportFormat::ModelOptYaml, in);
    const std::string header = text.substr(0, text.find("\nquantize:"));
    QVERIFY2(header.find("# Note: REJECTED by the gate (memory 76.2 GiB exceeds the budget 75.0 "
                         "GiB), exported on request") != std::string::npos,
             header.c_str());
    QVERIFY(text.find("description: ") != std::string::npos);
}

ACSEL_TEST_APPLESS_MAIN(TestExportNote)
#include "test_exportnote.moc"
