// The window's file dialogs: they open in the folder the user last picked from (kept in
// QSettings), else the home folder, never the program's datasets folder; Save plot gives a
// name typed without a suffix the chosen filter's, and a PNG saved at the plot's size is at
// least 1600 pixels wide with the red provenance line of synthetic data under the plot.
#include "app/studio/filedialogs.h"
#include "app/studio/mainwindow.h"
#include "studiofixtures.h"
#include "testmain.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QImage>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <functional>

using namespace acsel::studio;
using acsel::studio::test::kSlowMs;

class TestStudioFileDialogs : public QObject
{
    Q_OBJECT

    // Triggers `action` and hands the file dialog it opens to `use` (which must close it);
    // a message box that follows is closed and its text returned.
    static QString withDialog(QAction* action, const std::function<void(QFileDialog*)>& use)
    {
        QString message;
        QTimer poll;
        poll.setInterval(20);
        connect(&poll, &QTimer::timeout, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            if (auto* d = qobject_cast<QFileDialog*>(modal))
                use(d);
            else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
                message = box->text();
                box->reject();
            }
        });
        poll.start();
        action->trigger(); // returns once the dialog (and any message) is closed
        return message;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio file dialogs test"));
        QApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
        QSettings().clear();
    }

    void suffixFromTheFilter()
    {
        QCOMPARE(withFilterSuffix(QStringLiteral("/tmp/plot"), QStringLiteral("PNG (*.png)")),
                 QStringLiteral("/tmp/plot.png"));
        QCOMPARE(withFilterSuffix(QStringLiteral("/tmp/a.b/plot"), QStringLiteral("PDF (*.pdf)")),
                 QStringLiteral("/tmp/a.b/plot.pdf")); // a dot in a folder is no suffix
        QCOMPARE(withFilterSuffix(QStringLiteral("/tmp/plot."), QStringLiteral("SVG (*.svg)")),
                 QStringLiteral("/tmp/plot.svg"));
        QCOMPARE(withFilterSuffix(QStringLiteral("/tmp/plot.svg"), QStringLiteral("PNG (*.png)")),
                 QStringLiteral("/tmp/plot.svg")); // a suffix typed is kept
        QCOMPARE(withFilterSuffix(QString(), QStringLiteral("PNG (*.png)")), QString());
    }

    void dialogsOpenInTheLastFolderElseHome()
    {
        QSettings().clear();
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* open = w.findChild<QAction*>(QStringLiteral("openWorkspaceAction"));
        QVERIFY(open);
        QString seen;
        auto look = [&seen](QFileDialog* d) {
            seen = d->directory().absolutePath();
            d->reject();
        };
        withDialog(open, look);
        QCOMPARE(seen, QDir::homePath()); // it was the datasets folder of the program
        // A pick is remembered, for this and the next start.
        QTemporaryDir dir;
        QSettings settings;
        rememberFolder(settings, dir.filePath(QStringLiteral("plot.png")));
        withDialog(open, look);
        QCOMPARE(seen, QDir(dir.path()).absolutePath());
        // A folder removed since: home again.
        settings.setValue(QStringLiteral("files/lastFolder"), dir.filePath(QStringLiteral("gone")));
        withDialog(open, look);
        QCOMPARE(seen, QDir::homePath());
    }

    void savePlotTakesTheFilterSuffixAndIsLarge()
    {
        QSettings().clear();
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs);
        auto* save = w.findChild<QAction*>(QStringLiteral("savePlotAction"));
        QVERIFY(save);
        QTemporaryDir dir;
        for (const QString& filter :
             {QStringLiteral("SVG (*.svg)"), QStringLiteral("PNG (*.png)")}) {
            const QString message = withDialog(save, [&](QFileDialog* d) {
                d->selectNameFilter(filter);
                d->selectFile(dir.filePath(QStringLiteral("frontier")));
                static_cast<QDialog*>(d)->accept(); // QFileDialog::accept, as Save does
            });
            QVERIFY2(message.isEmpty(), qPrintable(message)); // it said "Could not write"
        }
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("frontier.svg"))).size() > 1000);
        const QImage png(dir.filePath(QStringLiteral("frontier.png")));
        QVERIFY2(png.width() >= 1600, qPrintable(QString::number(png.width()))); // it was 644
        // The default workspace's quality data are synthetic: a red caption under the plot.
        int red = 0;
        for (int y = png.height() * 9 / 10; y < png.height(); ++y)
            for (int x = 0; x < png.width(); ++x) {
                const QColor c = png.pixelColor(x, y);
                red += c.red() > 120 && c.green() < 60 && c.blue() < 80;
            }
        QVERIFY2(red > 100, qPrintable(QString::number(red)));
    }

    void cleanupTestCase() { QSettings().clear(); }
};

ACSEL_TEST_MAIN(TestStudioFileDialogs)
#include "test_studio_filedialogs.moc"
