// The repository speaks only of itself: no source, test, tool or doc file refers to a tracker
// issue by number (the word, an optional '#', a number); history belongs in CHANGELOG.md and the
// commit log. The scan is checked on a planted tree first, so an empty scan cannot pass by
// accident (the planted words are split in this file so that it does not name one itself).
#include "testmain.h"

#include <QTemporaryDir>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace
{

const char* const kScanned[] = {"app",   "core",      "viewmodel", "widgets",  "tests",
                                "tools", "docs",      "packaging", "datasets", "resources",
                                ".ci",   "README.md", "HACKING.md"};

bool isText(const fs::path& p)
{
    static const std::vector<std::string> exts = {".h",   ".cpp",   ".md",   ".py",   ".sh",
                                                  ".txt", ".cmake", ".json", ".yaml", ".ui"};
    const std::string ext = p.extension().string();
    return p.filename() == "run" || std::find(exts.begin(), exts.end(), ext) != exts.end();
}

// "file:line: text" for every line that names an issue by number.
std::vector<std::string> issueMentions(const fs::path& root)
{
    static const std::regex issue(R"(\b[Ii]ssue\s*#?\d+)");
    std::vector<std::string> found;
    auto scan = [&](const fs::path& file) {
        std::ifstream in(file);
        std::string line;
        for (int n = 1; std::getline(in, line); ++n)
            if (std::regex_search(line, issue))
                found.push_back(fs::relative(file, root).string() + ":" + std::to_string(n) + ": " +
                                line);
    };
    for (const char* name : kScanned) {
        const fs::path top = root / name;
        if (fs::is_regular_file(top)) {
            scan(top);
            continue;
        }
        if (!fs::is_directory(top))
            continue;
        for (const auto& e : fs::recursive_directory_iterator(top))
            if (e.is_regular_file() && isText(e.path()) &&
                e.path().string().find("/fuzz/corpus/") == std::string::npos)
                scan(e.path());
    }
    return found;
}

void writeRepoFile(const fs::path& p, const std::string& text)
{
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

} // namespace

class TestRepoWords : public QObject
{
    Q_OBJECT
private slots:
    void findsPlantedMentions()
    {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        writeRepoFile(root / "core/a.h", "// fine\n// the regression of iss"
                                         "ue 15\n");
        writeRepoFile(root / "docs/B.md", "See Iss"
                                          "ue #6.\nissues/12 in a URL is a link, not a mention.\n");
        writeRepoFile(root / "CHANGELOG.md", "iss"
                                             "ue 3\n"); // not scanned
        const std::vector<std::string> found = issueMentions(root);
        QCOMPARE(found.size(), std::size_t{2});
        QCOMPARE(QString::fromStdString(found[0]),
                 QStringLiteral("core/a.h:2: // the regression of iss"
                                "ue 15"));
        QCOMPARE(QString::fromStdString(found[1]), QStringLiteral("docs/B.md:1: See Iss"
                                                                  "ue #6."));
    }

    void repositoryNamesNoIssue()
    {
        const std::vector<std::string> found = issueMentions(ACSEL_SOURCE_DIR);
        std::string all;
        for (const std::string& f : found)
            all += "\n" + f;
        QVERIFY2(found.empty(), all.c_str());
    }
};

ACSEL_TEST_GUILESS_MAIN(TestRepoWords)
#include "test_repo_words.moc"
