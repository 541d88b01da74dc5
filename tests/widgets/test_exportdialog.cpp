// The export dialog: the preview is exactly the core export for the chosen format, switching
// formats re-renders it and the how-to snippet, Copy puts the text on the clipboard, saving
// writes it atomically, and an unexportable configuration shows why and offers no export.
#include "../core/test_export_fixtures.h"
#include "testmain.h"
#include "widgets/exportdialog.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace acsel;
using namespace exporttest;

namespace
{

Stack blackwell()
{
    Stack s;
    s.id = "b200_sxm/trtllm";
    s.formats = {Format::Nvfp4, Format::Fp8, Format::Fp8Block, Format::Bf16};
    s.kvFp8 = true;
    return s;
}

QString fileText(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

} // namespace

class TestExportDialog : public QObject
{
    Q_OBJECT
private slots:
    void previewIsTheCoreExport();
    void switchingFormatsWithTheKeyboard();
    void copyPutsTheTextOnTheClipboard();
    void savesAtomicallyAndNamesTheFileInTheSnippet();
    void unexportableShowsWhyAndOffersNothing();
    void loadWarningLine();
};

void TestExportDialog::previewIsTheCoreExport()
{
    const ExportInput in = acceptanceInput();
    const Stack stack = blackwell();
    ExportDialog d(in, stack);
    QVERIFY(d.format() == ExportFormat::ModelOptYaml);
    QVERIFY(d.isExportable());
    QCOMPARE(d.previewText().toStdString(), exportText(ExportFormat::ModelOptYaml, in, &stack));
    QVERIFY(d.howToApplyText().contains("load_recipe(\"acsel_recipe.yaml\")"));
    QVERIFY(d.statusText().contains("lines"));
    QVERIFY(!d.statusText().contains("not checked"));
    for (ExportFormat f : kAllExportFormats) {
        d.setFormat(f);
        QVERIFY(d.format() == f);
        QCOMPARE(d.previewText().toStdString(), exportText(f, in, &stack));
    }
    QVERIFY(d.statusText().contains("preview")); // the hf_quant_config view says what it is
    // Without a stack the dialog still exports, and says what it did not check.
    ExportDialog noStack(in);
    QVERIFY(noStack.statusText().contains("not checked against a stack"));
}

void TestExportDialog::switchingFormatsWithTheKeyboard()
{
    ExportDialog d(acceptanceInput(), blackwell());
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    auto* box = d.findChild<QComboBox*>("format");
    QVERIFY(box);
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down);
    QVERIFY(d.format() == ExportFormat::ModelOptJson);
    QVERIFY(d.previewText().startsWith("{\n  \"acsel\": {"));
    QVERIFY(d.previewText().contains("\"quant_cfg\": {\n    \"default\": {\"enable\": false},"));
    QVERIFY(d.howToApplyText().contains("json.load(f, object_hook=_keys)"));
    QVERIFY(d.howToApplyText().contains("config.pop(\"acsel\", None)"));
    QTest::keyClick(box, Qt::Key_Down);
    QVERIFY(d.format() == ExportFormat::HfQuantConfig);
    QVERIFY(d.previewText().contains("\"quant_algo\": \"MIXED_PRECISION\""));
    QVERIFY(d.howToApplyText().contains("--quantization modelopt"));
}

void TestExportDialog::copyPutsTheTextOnTheClipboard()
{
    ExportDialog d(acceptanceInput(), blackwell());
    d.setFormat(ExportFormat::HfQuantConfig);
    QApplication::clipboard()->setText("something else");
    auto* copy = d.findChild<QPushButton*>("copy");
    QVERIFY(copy && copy->isEnabled());
    QTest::mouseClick(copy, Qt::LeftButton);
    QCOMPARE(QApplication::clipboard()->text(), d.previewText());
}

void TestExportDialog::savesAtomicallyAndNamesTheFileInTheSnippet()
{
    ExportDialog d(acceptanceInput(), blackwell());
    QSignalSpy spy(&d, &ExportDialog::saved);
    QTemporaryDir dir;
    const QString path = dir.filePath("my_recipe.yaml");
    QFile old(path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old contents\n");
    old.close();
    QString error;
    QVERIFY2(d.saveTo(path, &error), qPrintable(error));
    QCOMPARE(fileText(path), d.previewText());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), path);
    QVERIFY(d.howToApplyText().contains("load_recipe(\"my_recipe.yaml\")"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temp left
    // Another format is not in my_recipe.yaml: its snippet names its own default file, and
    // the saved one again once back on the saved format.
    d.setFormat(ExportFormat::ModelOptJson);
    QVERIFY2(!d.howToApplyText().contains("my_recipe.yaml"), qPrintable(d.howToApplyText()));
    QVERIFY2(d.howToApplyText().contains("acsel_quant_cfg.json"), qPrintable(d.howToApplyText()));
    d.setFormat(ExportFormat::ModelOptYaml);
    QVERIFY(d.howToApplyText().contains("load_recipe(\"my_recipe.yaml\")"));
    // A folder that does not exist: a message, no file, no signal.
    QVERIFY(!d.saveTo(dir.filePath("missing/x.yaml"), &error));
    QVERIFY(error.contains("missing"));
    QCOMPARE(spy.count(), 1);
}

void TestExportDialog::unexportableShowsWhyAndOffersNothing()
{
    ExportInput in = acceptanceInput();
    in.config = makeConfig(36, {18}, {{Format::Int4Wo, Scope::Full}, {Format::Fp8, Scope::Full}},
                           Algorithm::Awq, KvFormat::Fp8);
    const Stack stack = blackwell();
    ExportDialog d(in, stack);
    QVERIFY(!d.isExportable());
    QVERIFY(d.statusText().startsWith("Not exportable: 2 problem(s)"));
    QVERIFY(d.previewText().contains("int4_wo, which b200_sxm/trtllm cannot run"));
    QVERIFY(d.previewText().contains("band 2 (layers 18-35, fp8) needs max calibration"));
    QVERIFY(!d.findChild<QPushButton*>("copy")->isEnabled());
    QVERIFY(!d.findChild<QPushButton*>("save")->isEnabled());
    QVERIFY(d.howToApplyText().isEmpty());
    QTemporaryDir dir;
    QString error;
    QVERIFY(!d.saveTo(dir.filePath("x.yaml"), &error));
    QVERIFY(!QFile::exists(dir.filePath("x.yaml")));
}

void TestExportDialog::loadWarningLine()
{
    const Stack stack = blackwell();
    ExportDialog d(acceptanceInput(), stack);
    auto* line = d.findChild<QLabel*>(QStringLiteral("loadWarning"));
    QVERIFY(line);
    QVERIFY(line->isHidden()); // nothing said until the window's load check says something
    const QString why = QStringLiteral("Load check for vllm 0.24.0: will not load: ...");
    d.setLoadWarning(why);
    QVERIFY(!line->isHidden());
    QCOMPARE(d.loadWarningText(), why);
    QVERIFY(d.isExportable()); // a warning, not a refusal: the file can still be written
    d.setLoadWarning({});
    QVERIFY(line->isHidden());
}

ACSEL_TEST_MAIN(TestExportDialog)
#include "test_exportdialog.moc"
