// Every fenced shell example of README.md, HACKING.md and every docs/*.md page, run as written
// against this build in a scratch folder laid out like a clone (build/release, datasets,
// tests/data, core, tools and ../shared as links), with every quoted output line checked.
// Conventions (docs/CLI.md, "Tested examples"):
//   - a ```sh block is commands; a line of its own starting with "# " is output of the command
//     before it; a ``` block whose first line starts with "$ " is commands ("$ ...") each followed
//     by its output; a ``` block starting with "usage: acsel X" is `acsel X --help`, compared
//     whole;
//   - in quoted output "..." stands for anything (also a whole line), <repo> and <shared> for
//     the absolute paths of the clone and of ../shared; /tmp/ is the scratch folder's tmp/;
//   - `<!-- doctest: skip (why) -->` before a block leaves it out, `<!-- doctest: write FILE -->`
//     writes the block to FILE, `<!-- doctest: timings vary -->` matches any number in its output,
//     `<!-- doctest: needs MODULE (why) -->` runs it only where python3 can import MODULE;
//   - a command may exit non-zero only when its quoted output (its error) matches, or the next
//     command is `echo $?`.
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

struct Example {
    int line = 0;                  // of the command in the doc
    std::string command;           // as written (continuations joined)
    std::vector<std::string> want; // quoted output lines
};

struct Block {
    int line = 0; // of the opening fence
    std::string lang, directive;
    std::vector<std::string> lines;
};

std::string trimRight(std::string s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    return s;
}

std::vector<Block> fencedBlocks(const std::string& path)
{
    std::ifstream in(path);
    std::vector<Block> blocks;
    std::string line, directive;
    int n = 0;
    bool inside = false;
    while (std::getline(in, line)) {
        ++n;
        if (!inside && line.rfind("<!-- doctest:", 0) == 0) {
            directive = line.substr(13, line.find("-->") - 13);
            directive.erase(0, directive.find_first_not_of(' '));
            directive = trimRight(directive);
        } else if (!inside && line.rfind("```", 0) == 0) {
            inside = true;
            blocks.push_back({n, line.substr(3), directive, {}});
            directive.clear();
        } else if (inside && line.rfind("```", 0) == 0) {
            inside = false;
        } else if (inside) {
            blocks.back().lines.push_back(line);
        } else if (!line.empty()) {
            directive.clear(); // a directive applies to the block right after it
        }
    }
    return blocks;
}

// The examples of one block, or none when it is not a shell example.
std::vector<Example> examplesOf(const Block& b)
{
    std::vector<Example> out;
    const bool sh = b.lang == "sh";
    const bool dollar = b.lang.empty() && !b.lines.empty() && b.lines[0].rfind("$ ", 0) == 0;
    if (!sh && !dollar)
        return out;
    for (std::size_t i = 0; i < b.lines.size(); ++i) {
        const std::string& l = b.lines[i];
        const int line = b.line + 1 + static_cast<int>(i);
        if (sh && l.rfind("#", 0) == 0) {
            if (!out.empty())
                out.back().want.push_back(l.size() > 2 ? l.substr(2) : "");
        } else if (sh ? !l.empty() : l.rfind("$ ", 0) == 0) {
            Example e{line, sh ? l : l.substr(2), {}};
            // A continued line keeps its backslash: bash joins the lines itself.
            while (!e.command.empty() && e.command.back() == '\\' && i + 1 < b.lines.size())
                e.command += "\n" + b.lines[++i];
            out.push_back(e);
        } else if (dollar && !out.empty()) {
            out.back().want.push_back(l);
        }
    }
    return out;
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size())
        s.replace(p, from.size(), to);
    return s;
}

// A quoted line as an anchored pattern: "...", <repo> and <shared> match anything; with
// anyNumber every number matches any number.
QRegularExpression patternOf(const std::string& quoted, const std::string& tmp, bool anyNumber)
{
    std::string text = replaceAll(trimRight(quoted), "/tmp/", tmp);
    static const QRegularExpression wild(R"(\.\.\.|<repo>|<shared>)");
    static const QRegularExpression number(R"(-?[0-9]+(\.[0-9]+)?)");
    const QString q = QString::fromStdString(text);
    QString re = "^";
    qsizetype at = 0;
    const auto literal = [&](QString part) {
        if (!anyNumber)
            return QRegularExpression::escape(part);
        QString r;
        qsizetype p = 0;
        for (auto it = number.globalMatch(part); it.hasNext();) {
            const auto m = it.next();
            r += QRegularExpression::escape(part.mid(p, m.capturedStart() - p)) +
                 R"(-?[0-9]+(\.[0-9]+)?)";
            p = m.capturedEnd();
        }
        return r + QRegularExpression::escape(part.mid(p));
    };
    for (auto it = wild.globalMatch(q); it.hasNext();) {
        const auto m = it.next();
        re += literal(q.mid(at, m.capturedStart() - at)) + ".*";
        at = m.capturedEnd();
    }
    re += literal(q.mid(at)) + "$";
    return QRegularExpression(re);
}

std::vector<std::string> linesOf(const std::string& path)
{
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);)
        out.push_back(trimRight(l));
    return out;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The quoted lines in order in stdout (a line the program writes to stderr may be quoted
// anywhere, since the two streams interleave differently in a terminal); empty, or the first
// quoted line not found.
std::string firstMissing(const Example& e, const std::vector<std::string>& out,
                         const std::vector<std::string>& err, const std::string& tmp,
                         bool anyNumber)
{
    std::size_t next = 0;
    for (const std::string& w : e.want) {
        if (trimRight(w).empty() || trimRight(w) == "...")
            continue;
        const QRegularExpression p = patternOf(w, tmp, anyNumber);
        const auto matches = [&p](const std::string& l) {
            return p.match(QString::fromStdString(l)).hasMatch();
        };
        std::size_t i = next;
        while (i < out.size() && !matches(out[i]))
            ++i;
        if (i < out.size()) {
            next = i + 1;
            continue;
        }
        if (std::none_of(err.begin(), err.end(), matches))
            return w;
    }
    return {};
}

} // namespace

class TestDocExamples : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void examples_data();
    void examples();

private:
    QTemporaryDir scratch_;
    std::string repo_, tmp_;
};

void TestDocExamples::initTestCase()
{
    namespace fs = std::filesystem;
    // ../shared beside the source tree, or where ACSEL_DOCTEST_SHARED says (a worktree whose
    // ../shared is elsewhere).
    const fs::path shared =
        qEnvironmentVariable("ACSEL_DOCTEST_SHARED", ACSEL_SHARED_DIR).toStdString();
    if (!fs::exists(shared / "aic"))
        QSKIP("the examples use ../shared/aic, absent here");
    const fs::path root = scratch_.path().toStdString();
    fs::create_directories(root / "repo/build");
    fs::create_directories(root / "repo/tests");
    fs::create_directories(root / "tmp");
    fs::create_directory_symlink(ACSEL_BINARY_DIR, root / "repo/build/release");
    fs::create_directory_symlink(ACSEL_SOURCE_DIR "/datasets", root / "repo/datasets");
    fs::create_directory_symlink(ACSEL_SOURCE_DIR "/tests/data", root / "repo/tests/data");
    fs::create_directory_symlink(ACSEL_SOURCE_DIR "/core", root / "repo/core");
    fs::create_directory_symlink(ACSEL_SOURCE_DIR "/tools", root / "repo/tools");
    fs::create_directory_symlink(fs::canonical(shared), root / "shared");
    repo_ = (root / "repo").string();
    tmp_ = (root / "tmp").string() + "/";
}

void TestDocExamples::examples_data()
{
    QTest::addColumn<QString>("doc");
    QTest::addColumn<int>("block");
    // The pages in this order: GUIDE.md and DATA.md make files in /tmp/ that CLI.md's examples
    // read.
    QStringList docs = {"README.md", "HACKING.md", "docs/GUIDE.md", "docs/DATA.md", "docs/CLI.md"};
    for (const QString& page :
         QDir(ACSEL_SOURCE_DIR "/docs").entryList({"*.md"}, QDir::Files, QDir::Name))
        if (!docs.contains("docs/" + page))
            docs.append("docs/" + page);
    for (const QString& doc : docs) {
        const auto blocks = fencedBlocks(ACSEL_SOURCE_DIR "/" + doc.toStdString());
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const Block& b = blocks[i];
            const bool help =
                b.lang.empty() && !b.lines.empty() && b.lines[0].rfind("usage: acsel ", 0) == 0;
            if (examplesOf(b).empty() && !help && b.directive.rfind("write ", 0) != 0)
                continue;
            const std::string name = doc.toStdString() + ":" + std::to_string(b.line);
            QTest::newRow(name.c_str()) << doc << static_cast<int>(i);
        }
    }
}

void TestDocExamples::examples()
{
    QFETCH(QString, doc);
    QFETCH(int, block);
    const Block b =
        fencedBlocks(ACSEL_SOURCE_DIR "/" + doc.toStdString())[static_cast<std::size_t>(block)];
    if (b.directive.rfind("skip", 0) == 0)
        QSKIP(("marked in the doc: " + b.directive).c_str());
    if (b.directive.rfind("needs ", 0) == 0) {
        const std::string module = b.directive.substr(6, b.directive.find(' ', 6) - 6);
        QProcess python; // its ImportError is the answer, not output to show
        python.start("python3", {"-c", QString::fromStdString("import " + module)});
        if (!python.waitForFinished(60000) || python.exitStatus() != QProcess::NormalExit ||
            python.exitCode() != 0)
            QSKIP(("python3 cannot import " + module + " here: " + b.directive).c_str());
    }
    if (b.directive.rfind("write ", 0) == 0) {
        const std::string path = replaceAll(b.directive.substr(6), "/tmp/", tmp_);
        std::filesystem::create_directories(std::filesystem::path(path).parent_path());
        std::ofstream out(path);
        for (const std::string& l : b.lines)
            out << l << "\n";
        return;
    }
    std::vector<Example> examples = examplesOf(b);
    const bool help = examples.empty();
    if (help) { // usage: acsel <command> [options]: the whole block is its --help
        const std::string& first = b.lines[0];
        const std::string cmd = first.substr(13, first.find(" [options]") - 13);
        examples.push_back({b.line, "build/release/app/acsel " + cmd + " --help", b.lines});
    }
    // One bash per block (commands share its state); `$?` is the previous example's status.
    std::string script = "cd '" + repo_ + "'\n__rc=0\n";
    for (std::size_t i = 0; i < examples.size(); ++i) {
        const std::string n = std::to_string(i);
        script += "( exit $__rc ); {\n" + replaceAll(examples[i].command, "/tmp/", tmp_) +
                  "\n} > '" + tmp_ + ".out" + n + "' 2> '" + tmp_ + ".err" + n + "'\n__rc=$?\n" +
                  "echo $__rc > '" + tmp_ + ".rc" + n + "'\n";
    }
    QProcess bash;
    bash.start("bash", {"-c", QString::fromStdString(script)});
    QVERIFY(bash.waitForFinished(240000));
    for (std::size_t i = 0; i < examples.size(); ++i) {
        const Example& e = examples[i];
        const std::string n = std::to_string(i);
        const std::string where =
            doc.toStdString() + ":" + std::to_string(e.line) + ": " + e.command;
        const std::string out = readAll(tmp_ + ".out" + n), err = readAll(tmp_ + ".err" + n);
        const int rc = std::stoi(readAll(tmp_ + ".rc" + n));
        if (help) {
            std::string want;
            for (const std::string& l : e.want)
                want += l + "\n";
            QVERIFY2(out == want, (where + "\n--- doc:\n" + want + "--- program:\n" + out).c_str());
            continue;
        }
        const std::string missing =
            firstMissing(e, linesOf(tmp_ + ".out" + n), linesOf(tmp_ + ".err" + n), tmp_,
                         b.directive == "timings vary");
        QVERIFY2(missing.empty(), (where + "\nquoted line not printed: " + missing +
                                   "\n--- stdout:\n" + out + "--- stderr:\n" + err)
                                      .c_str());
        const bool checkedByNext = i + 1 < examples.size() && examples[i + 1].command == "echo $?";
        const bool quotedError = rc != 0 && !e.want.empty();
        QVERIFY2(rc == 0 || checkedByNext || quotedError,
                 (where + "\nexit " + std::to_string(rc) + "\n--- stderr:\n" + err).c_str());
    }
}

ACSEL_TEST_GUILESS_MAIN(TestDocExamples)
#include "test_doc_examples.moc"
