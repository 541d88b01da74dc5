// Saves are atomic (core/data/atomicfile.h) and the CLI's --output (app/cli/outputfile.h) uses
// them: a new file gets a plain write's permissions, a replaced one keeps its own, a killed
// writer's temporaries are removed by the next write, a failed write leaves no temporary, and a
// symlinked output is written through with --force (the link stays) while a dangling link is
// refused.
#include "app/cli/outputfile.h"
#include "app/common/args.h"
#include "core/data/atomicfile.h"
#include "core/data/loaderror.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

using namespace acsel;
namespace fs = std::filesystem;

namespace
{

std::string contents(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

mode_t modeOf(const fs::path& p)
{
    struct stat st {
    };
    ::stat(p.c_str(), &st);
    return st.st_mode & 07777;
}

} // namespace

class TestOutputFile : public QObject
{
    Q_OBJECT
private slots:
    void init() { dir_ = std::make_unique<QTemporaryDir>(); }
    void newAndReplacedFiles();
    void leftoverTemporariesAreRemoved();
    void failedWriteLeavesNoTemporary();
    void symlinkedOutputIsWrittenThrough();

private:
    std::unique_ptr<QTemporaryDir> dir_;
    fs::path at(const char* name) const { return fs::path(dir_->path().toStdString()) / name; }
};

void TestOutputFile::newAndReplacedFiles()
{
    const mode_t mask = ::umask(022);
    writeFileAtomically(at("a.txt").string(), "one");
    QCOMPARE(contents(at("a.txt")), std::string("one"));
    QCOMPARE(modeOf(at("a.txt")), mode_t{0644});
    fs::permissions(at("a.txt"), static_cast<fs::perms>(0600));
    writeFileAtomically(at("a.txt").string(), "two");
    QCOMPARE(contents(at("a.txt")), std::string("two"));
    QCOMPARE(modeOf(at("a.txt")), mode_t{0600});
    ::umask(mask);
    QCOMPARE(namesIn(at("")), std::vector<std::string>{"a.txt"});
}

void TestOutputFile::leftoverTemporariesAreRemoved()
{
    // As a SIGKILL between mkstemp and rename leaves them; the 7-character one and another
    // output's are not this output's and stay.
    for (const char* name :
         {".out.json.tmp-Ab3xYz", ".out.json.tmp-Ab3xYz7", ".other.json.tmp-Ab3xYz"})
        std::ofstream(at(name)) << "partial";
    writeFileAtomically(at("out.json").string(), "{}");
    QCOMPARE(namesIn(at("")), (std::vector<std::string>{".other.json.tmp-Ab3xYz",
                                                        ".out.json.tmp-Ab3xYz7", "out.json"}));
}

void TestOutputFile::failedWriteLeavesNoTemporary()
{
    fs::create_directory(at("taken"));
    try {
        writeFileAtomically(at("taken").string(), "x"); // rename over a folder fails
        QFAIL("wrote over a folder");
    } catch (const LoadError& e) {
        QVERIFY2(std::string(e.what()).find("cannot rename the temporary file over it") !=
                     std::string::npos,
                 e.what());
    }
    QCOMPARE(namesIn(at("")), std::vector<std::string>{"taken"});
}

void TestOutputFile::symlinkedOutputIsWrittenThrough()
{
    fs::create_directory(at("real"));
    std::ofstream(at("real/recipe.yaml")) << "old";
    fs::create_symlink("real/recipe.yaml", at("link.yaml"));
    std::ostringstream out, err;
    cli::CommandIo io{out, err};
    const std::string link = at("link.yaml").string();
    try {
        cli::writeOutput("export", link, "new", false, io);
        QFAIL("replaced an existing file without --force");
    } catch (const app::UsageError& e) {
        QCOMPARE(std::string(e.what()),
                 "acsel export: " + link + " exists; pass --force to overwrite it");
    }
    cli::writeOutput("export", link, "new", true, io);
    QVERIFY(fs::is_symlink(at("link.yaml")));
    QCOMPARE(contents(at("real/recipe.yaml")), std::string("new"));
    QCOMPARE(namesIn(at("real")), std::vector<std::string>{"recipe.yaml"});
    // A dangling link is refused, with or without --force, and left as it was.
    fs::create_symlink("real/none.yaml", at("dangling.yaml"));
    const std::string dangling = at("dangling.yaml").string();
    try {
        cli::writeOutput("export", dangling, "x", true, io);
        QFAIL("wrote through a dangling link");
    } catch (const app::UsageError& e) {
        QVERIFY2(std::string(e.what()).rfind("acsel export: " + dangling +
                                                 ": is a symlink whose target cannot be resolved",
                                             0) == 0,
                 e.what());
    }
    QVERIFY(fs::is_symlink(fs::symlink_status(at("dangling.yaml"))));
    QVERIFY(!fs::exists(at("real/none.yaml")));
}

ACSEL_TEST_APPLESS_MAIN(TestOutputFile)
#include "test_outputfile.moc"
