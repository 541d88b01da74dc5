// Every relative link of README.md, HACKING.md, CHANGELOG.md and docs/*.md resolves: the file or
// folder exists inside the repository, and a #anchor names a heading of the page it points to,
// slugged as GitHub slugs headings. Links in fenced code and in inline code are not links.
#include "testmain.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace
{

// GitHub's anchor of a heading: link syntax reduced to its text, letters and digits lowered,
// spaces to '-', '-' and '_' kept, everything else dropped.
std::string slugOf(const std::string& heading)
{
    static const QRegularExpression link(R"(\[([^\]]*)\]\([^)]*\))");
    QString text = QString::fromStdString(heading);
    text.replace(link, R"(\1)");
    QString slug;
    for (const QChar c : text) {
        if (c.isLetterOrNumber() || c.isMark())
            slug += c.toLower();
        else if (c == ' ')
            slug += '-';
        else if (c == '-' || c == '_')
            slug += c;
    }
    return slug.toStdString();
}

struct Page {
    std::set<std::string> anchors;
    std::vector<std::pair<int, std::string>> links; // line, target
};

// Headings and link targets outside fenced code; a repeated slug gets -1, -2, ... as on GitHub.
Page readPage(const fs::path& path)
{
    static const QRegularExpression heading(R"(^#{1,6}\s+(.*?)\s*#*\s*$)");
    static const QRegularExpression code(R"(`[^`]*`)");
    static const QRegularExpression target(R"(\]\(([^)\s]+)(\s+"[^"]*")?\))");
    Page page;
    std::map<std::string, int> seen;
    std::ifstream in(path);
    bool fenced = false;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.rfind("```", 0) == 0) {
            fenced = !fenced;
            continue;
        }
        if (fenced)
            continue;
        QString text = QString::fromStdString(line);
        if (const auto h = heading.match(text); h.hasMatch()) {
            const std::string slug = slugOf(h.captured(1).toStdString());
            const int count = seen[slug]++;
            page.anchors.insert(count == 0 ? slug : slug + "-" + std::to_string(count));
        }
        text.remove(code);
        for (auto it = target.globalMatch(text); it.hasNext();)
            page.links.emplace_back(n, it.next().captured(1).toStdString());
    }
    return page;
}

bool within(const fs::path& path, const fs::path& root)
{
    const std::string p = path.string(), r = root.string();
    return p == r || p.rfind(r + "/", 0) == 0;
}

// "doc:line: target: what is wrong" for every link of the page that does not resolve.
std::vector<std::string> brokenLinks(const fs::path& doc, const fs::path& root)
{
    std::vector<std::string> out;
    const fs::path canonicalRoot = fs::weakly_canonical(root);
    for (const auto& [line, target] : readPage(doc).links) {
        if (target.find("://") != std::string::npos || target.rfind("mailto:", 0) == 0)
            continue;
        const std::string where =
            fs::relative(doc, root).string() + ":" + std::to_string(line) + ": " + target + ": ";
        const std::size_t hash = target.find('#');
        const std::string file = target.substr(0, hash);
        const fs::path resolved =
            fs::weakly_canonical(file.empty() ? doc : doc.parent_path() / file);
        if (!within(resolved, canonicalRoot)) {
            out.push_back(where + "points outside the repository");
            continue;
        }
        if (!fs::exists(resolved)) {
            out.push_back(where + "no such file");
            continue;
        }
        if (hash == std::string::npos)
            continue;
        if (resolved.extension() != ".md") {
            out.push_back(where + "an anchor into a file that is not a page");
            continue;
        }
        const std::string anchor = target.substr(hash + 1);
        if (!readPage(resolved).anchors.contains(anchor))
            out.push_back(where + "no heading with anchor #" + anchor + " in " +
                          fs::relative(resolved, canonicalRoot).string());
    }
    return out;
}

void write(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

} // namespace

class TestDocLinks : public QObject
{
    Q_OBJECT
private slots:
    void slugs_data();
    void slugs();
    void brokenLinksFound();
    void links_data();
    void links();
};

void TestDocLinks::slugs_data()
{
    QTest::addColumn<QString>("heading");
    QTest::addColumn<QString>("slug");
    // Worked out by hand from GitHub's rule (lower case; drop all but letters, digits, marks,
    // '-', '_' and spaces; spaces to '-').
    QTest::newRow("plain") << "Tested examples"
                           << "tested-examples";
    QTest::newRow("numbered, code, colon") << "4.6 Export: `acsel search --json` and `acsel export`"
                                           << "46-export-acsel-search---json-and-acsel-export";
    QTest::newRow("parentheses, comma") << "The configuration file (config.json, schema_version 1)"
                                        << "the-configuration-file-configjson-schema_version-1";
    QTest::newRow("link text only") << "See [the guide](GUIDE.md#1-x) now"
                                    << "see-the-guide-now";
    QTest::newRow("non-ASCII letter kept, arrow dropped") << "Gerät ↔ Tabelle"
                                                          << "gerät--tabelle";
}

void TestDocLinks::slugs()
{
    QFETCH(QString, heading);
    QFETCH(QString, slug);
    QCOMPARE(QString::fromStdString(slugOf(heading.toStdString())), slug);
}

// The checker on a made-up repository: each kind of broken link is reported, nothing else.
void TestDocLinks::brokenLinksFound()
{
    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    write(root / "docs/B.md", "# B\n\n## Same\n\n## Same\n\n### 2. Two: `x`\n");
    write(root / "docs/images/p.png", "");
    write(root / "outside.md", "");
    write(root / "docs/A.md",
          "# A title\n"
          "[ok](B.md) [ok](B.md#same) [ok](B.md#same-1) [ok](B.md#2-two-x) [ok](#a-title)\n"
          "![ok](images/p.png) [ok](../outside.md) [ok](https://example.org/x.md#nope)\n"
          "`[not a link](nowhere.md)`\n"
          "```\n[not a link](nowhere.md)\n```\n"
          "[bad](C.md)\n"
          "[bad](B.md#same-2)\n"
          "[bad](#no-such)\n"
          "[bad](images/p.png#x)\n"
          "[bad](../../elsewhere.md)\n");
    const std::vector<std::string> want = {
        "docs/A.md:8: C.md: no such file",
        "docs/A.md:9: B.md#same-2: no heading with anchor #same-2 in docs/B.md",
        "docs/A.md:10: #no-such: no heading with anchor #no-such in docs/A.md",
        "docs/A.md:11: images/p.png#x: an anchor into a file that is not a page",
        "docs/A.md:12: ../../elsewhere.md: points outside the repository",
    };
    const std::vector<std::string> got = brokenLinks(root / "docs/A.md", root);
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        QCOMPARE(QString::fromStdString(got[i]), QString::fromStdString(want[i]));
}

void TestDocLinks::links_data()
{
    QTest::addColumn<QString>("doc");
    const QString source = ACSEL_SOURCE_DIR;
    for (const char* doc : {"README.md", "HACKING.md", "CHANGELOG.md"}) {
        QVERIFY2(QFile::exists(source + "/" + doc), doc);
        QTest::newRow(doc) << QString(doc);
    }
    const QStringList pages = QDir(source + "/docs").entryList({"*.md"}, QDir::Files, QDir::Name);
    QVERIFY(!pages.isEmpty());
    for (const QString& page : pages) {
        const QString doc = "docs/" + page;
        QTest::newRow(doc.toUtf8().constData()) << doc;
    }
}

void TestDocLinks::links()
{
    QFETCH(QString, doc);
    const fs::path root = ACSEL_SOURCE_DIR;
    std::string report;
    for (const std::string& problem : brokenLinks(root / doc.toStdString(), root))
        report += "\n" + problem;
    QVERIFY2(report.empty(), report.c_str());
}

ACSEL_TEST_GUILESS_MAIN(TestDocLinks)
#include "test_doc_links.moc"
