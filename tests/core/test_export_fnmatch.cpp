// fnmatchCase against hand-worked cases of Python's fnmatch semantics and, on random short
// patterns, against an independent oracle: Python's fnmatch.translate rebuilt as std::regex.
#include "core/export/fnmatch.h"
#include "testmain.h"

#include <random>
#include <regex>
#include <string>

using acsel::fnmatchCase;

namespace
{

// fnmatch.translate (Python 3): '*' -> .*, '?' -> ., [seq] -> a class (a leading '!'
// negates, a leading ']' is a member), an unterminated '[' -> a literal. Every character in a
// class is escaped, since ECMAScript treats ']' and '^' specially. Patterns with '-' are not
// generated, so ranges (checked by hand below) need no translation.
std::string translate(const std::string& p)
{
    std::string re;
    auto lit = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                           : "\\" + std::string(1, c);
    };
    std::size_t i = 0;
    while (i < p.size()) {
        const char c = p[i++];
        if (c == '*') {
            re += "[\\s\\S]*";
        } else if (c == '?') {
            re += "[\\s\\S]";
        } else if (c == '[') {
            std::size_t j = i;
            if (j < p.size() && p[j] == '!')
                ++j;
            if (j < p.size() && p[j] == ']')
                ++j;
            while (j < p.size() && p[j] != ']')
                ++j;
            if (j >= p.size()) {
                re += "\\[";
                continue;
            }
            std::string stuff = p.substr(i, j - i);
            i = j + 1;
            std::string cls = "[";
            std::size_t k = 0;
            if (stuff[0] == '!') {
                cls += "^";
                k = 1;
            }
            for (; k < stuff.size(); ++k)
                cls += lit(stuff[k]);
            re += cls + "]";
        } else {
            re += lit(c);
        }
    }
    return re;
}

} // namespace

class TestExportFnmatch : public QObject
{
    Q_OBJECT
private slots:
    void handWorked_data();
    void handWorked();
    void agreesWithTranslateOnRandomPatterns();
};

void TestExportFnmatch::handWorked_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("match");
    auto row = [](const char* p, const char* n, bool m) {
        QTest::addRow("%s ~ %s", p, n) << QString(p) << QString(n) << m;
    };
    row("*", "", true);
    row("*", "model.layers.0.mlp", true);
    row("?", "", false);
    row("?", "a", true);
    row("a*c", "abc", true);
    row("a*c", "ab", false);
    row("a*c", "acbc", true);
    row("*a*b*c*", "xxaxxbxxcxx", true);
    row("*a*b*c*", "xxaxxcxxbxx", false);
    row("a*", "A", false); // case-sensitive
    // The pitfall EXPORT.md names: '*layers.1*' also hits layers 10-19.
    row("*layers.1*", "model.layers.10.mlp.up_proj.weight_quantizer", true);
    row("*layers.1.*", "model.layers.10.mlp.up_proj.weight_quantizer", false);
    row("*layers.1.*", "model.layers.1.mlp.up_proj.weight_quantizer", true);
    row("*[kv]_bmm_quantizer", "model.layers.3.self_attn.k_bmm_quantizer", true);
    row("*[kv]_bmm_quantizer", "model.layers.3.self_attn.v_bmm_quantizer", true);
    row("*[kv]_bmm_quantizer", "model.layers.3.self_attn.q_bmm_quantizer", false);
    row("*[!kv]_bmm_quantizer", "model.layers.3.self_attn.q_bmm_quantizer", true);
    row("[a-c]x", "bx", true);
    row("[a-c]x", "dx", false);
    row("[z-a]", "m", false); // an empty range matches nothing
    row("[-a]", "-", true);
    row("[a-]", "-", true);
    row("[]]", "]", true); // a leading ']' is a member
    row("[!]]", "]", false);
    row("[!]]", "a", true);
    row("a[b", "a[b", true); // unterminated '[' is a literal
    row("a[b", "ab", false);
    row("lm_head.*", "lm_head.weight_quantizer", true);
    row("lm_head.*", "lm_head", false);
    row("model.layers.2.mlp.down_proj.weight_quantizer",
        "model.layers.2.mlp.down_proj.weight_quantizer", true);
    row("model.layers.2.mlp.down_proj.weight_quantizer",
        "model.layers.22.mlp.down_proj.weight_quantizer", false);
}

void TestExportFnmatch::handWorked()
{
    QFETCH(QString, pattern);
    QFETCH(QString, name);
    QFETCH(bool, match);
    QCOMPARE(fnmatchCase(pattern.toStdString(), name.toStdString()), match);
}

void TestExportFnmatch::agreesWithTranslateOnRandomPatterns()
{
    std::mt19937 rng(20240611);
    const std::string patAlphabet = "ab.*?[]!";
    const std::string strAlphabet = "ab.[]!";
    auto draw = [&](const std::string& alphabet, std::size_t maxLen) {
        std::string s(std::uniform_int_distribution<std::size_t>(0, maxLen)(rng), ' ');
        for (char& c : s)
            c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
        return s;
    };
    int matches = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const std::string p = draw(patAlphabet, 6);
        const std::regex re(translate(p));
        for (int k = 0; k < 4; ++k) {
            const std::string s = draw(strAlphabet, 6);
            const bool expected = std::regex_match(s, re);
            matches += expected;
            if (fnmatchCase(p, s) != expected)
                QFAIL(qPrintable(QString("pattern '%1' on '%2': expected %3")
                                     .arg(QString::fromStdString(p), QString::fromStdString(s))
                                     .arg(expected)));
        }
    }
    QVERIFY(matches > 200); // the draw exercises matches, not only misses
}

ACSEL_TEST_APPLESS_MAIN(TestExportFnmatch)
#include "test_export_fnmatch.moc"
