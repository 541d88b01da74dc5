// Crash recovery on the real binary: acsel-studio, started offscreen on a
// temporary HOME with a session whose band editor holds an edit, autosaves that edit; killed
// with SIGKILL, the next start finds the unclean autosave and would offer exactly that edit back
// (--restore-check prints what the restore offer holds). While a window runs, its autosave is
// not offered to a second one.
#include "core/data/workspacefile.h"
#include "core/session/sessionfile.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <nlohmann/json.hpp>

using namespace acsel;

namespace
{

QProcessEnvironment isolatedEnv(const QString& home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("ACSEL_TABLES"), QString());
    env.insert(QStringLiteral("ACSEL_WORKSPACE"), QString());
    return env;
}

// A session on the committed workspace, spec-only stacks, whose band editor holds a
// three-band edit of Qwen3-8B (36 layers) that no search would pick by itself.
SessionDocument editedSession(const Workspace& ws)
{
    SessionDocument s;
    s.workspaceFile = ACSEL_DATASETS "/workspace.json";
    s.request.stack = ws.stacks.at(0).id;
    s.request.concurrency = 2;
    const int model = *ws.findModel("Qwen3-8B");
    s.filter.models = {"Qwen3-8B"};
    s.filter.formats = ws.stacks.at(0).formats;
    s.filter.scopes = {Scope::Full, Scope::Mlp};
    s.view = {"tpot", true, false, "format_family"};
    Config c;
    c.model = model;
    c.batch = 7;
    c.recipe.push({0, 5, Format::Bf16, Scope::Full});
    c.recipe.push({5, 31, ws.stacks.at(0).formats.front(), Scope::Mlp});
    c.recipe.push({31, 36, Format::Bf16, Scope::Full});
    // An algorithm the middle format accepts (the band editor would correct any other).
    for (const Algorithm a :
         {Algorithm::Max, Algorithm::SmoothQuant, Algorithm::Awq, Algorithm::Gptq})
        if (algorithmFits(a, ws.stacks.at(0).formats.front())) {
            c.algorithm = a;
            break;
        }
    s.edited = makeConfigDocument(ws, c, s.request);
    return s;
}

// The configuration a document states (config.model is only an index once resolved).
Config stated(const ConfigDocument& d)
{
    Config c = d.config;
    c.model = -1;
    return c;
}

int restoreCheck(const QProcessEnvironment& env, QByteArray* out)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ACSEL_STUDIO_BIN), {QStringLiteral("--restore-check")});
    if (!p.waitForFinished(30000))
        return -1;
    // The offer (JSON) on stdout, why there is none on stderr (after Qt's own warnings).
    *out = p.exitCode() == 0 ? p.readAllStandardOutput() : p.readAllStandardError();
    return p.exitCode();
}

} // namespace

class TestStudioRestore : public QObject
{
    Q_OBJECT
private slots:
    void anEditSurvivesSigkill()
    {
        const Workspace ws = loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
        QVERIFY(!ws.stacks.empty() && !ws.stacks[0].formats.empty());
        QTemporaryDir home;
        const QProcessEnvironment env = isolatedEnv(home.path());
        const QString sessionFile = home.path() + QStringLiteral("/edit.acsel-session");
        const SessionDocument session = editedSession(ws);
        {
            QFile f(sessionFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(writeSessionJson(session, sessionFile.toStdString(),
                                                               SessionPaths::RelativeToFile)));
        }
        const QString autosave =
            home.path() + QStringLiteral("/data/ACSeL/ACSeL Studio/autosave.acsel-session");
        QByteArray out;
        QCOMPARE(restoreCheck(env, &out), 1); // nothing yet
        QVERIFY2(out.contains("No autosave"), out.constData());

        QProcess studio;
        studio.setProcessEnvironment(env);
        studio.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        studio.start(QStringLiteral(ACSEL_STUDIO_BIN), {sessionFile});
        QVERIFY(studio.waitForStarted());
        const auto stop = qScopeGuard([&studio] { // also when a check fails
            studio.kill();
            studio.waitForFinished();
        });
        // The autosave follows the edit a couple of seconds later (debounced).
        std::optional<SessionDocument> saved;
        QElapsedTimer waited;
        waited.start();
        while (!saved && waited.elapsed() < 60000 && studio.state() == QProcess::Running) {
            QThread::msleep(200);
            try {
                if (QFile::exists(autosave))
                    saved = loadSessionFile(autosave.toStdString());
            } catch (const LoadError&) { // QSaveFile renames: a partial file is never seen
                QFAIL("the autosave was unreadable");
            }
        }
        QVERIFY2(saved, "no autosave within 60 s");
        QFile written(autosave);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray text = written.readAll();
        QVERIFY(!saved->cleanExit);
        QVERIFY(saved->edited);
        QVERIFY2(stated(*saved->edited) == stated(*session.edited),
                 text.mid(text.indexOf("\"config\"")).constData());
        QVERIFY(saved->view == session.view);
        QCOMPARE(saved->request.stack, session.request.stack);

        // While the window runs, its autosave is not anybody's to restore.
        QCOMPARE(restoreCheck(env, &out), 1);
        QVERIFY2(out.contains("running"), out.constData());

        studio.kill(); // SIGKILL: no closeEvent, no clean autosave
        QVERIFY(studio.waitForFinished());
        QCOMPARE(studio.exitStatus(), QProcess::CrashExit);

        QCOMPARE(restoreCheck(env, &out), 0);
        const SessionDocument offered =
            parseSessionJson(Json::parse(out.toStdString()), autosave.toStdString());
        QVERIFY(!offered.cleanExit);
        QVERIFY(offered.edited);
        QVERIFY(stated(*offered.edited) == stated(*session.edited));
        QCOMPARE(offered.edited->modelName, std::string("Qwen3-8B"));
        QCOMPARE(offered.workspaceFile, session.workspaceFile);
    }
};

ACSEL_TEST_GUILESS_MAIN(TestStudioRestore)
#include "test_studio_restore.moc"
