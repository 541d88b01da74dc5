// RMQD from cached logits: zero for identical distributions, a hand-computed 3-token example,
// the tail bin, and the strict safetensors reader's errors on malformed files.
#include "core/data/loaderror.h"
#include "core/data/safetensors.h"
#include "core/quality/rmqd.h"
#include "loaderrors.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sys/resource.h>

using namespace acsel;

namespace
{

struct Token {
    std::vector<std::int64_t> ids;
    std::vector<double> probs;
    double tail;
};

void writeOracle(const std::string& path, const std::vector<Token>& tokens,
                 DType idType = DType::I64, DType probType = DType::F32)
{
    std::vector<std::int64_t> ids;
    std::vector<double> probs, tails;
    for (const Token& t : tokens) {
        ids.insert(ids.end(), t.ids.begin(), t.ids.end());
        probs.insert(probs.end(), t.probs.begin(), t.probs.end());
        tails.push_back(t.tail);
    }
    const auto T = static_cast<std::int64_t>(tokens.size());
    const auto m = static_cast<std::int64_t>(tokens.front().ids.size());
    writeSafetensors(path,
                     {{"topk_ids", idType, {T, m}, encodeInts(idType, ids)},
                      {"topk_probs", probType, {T, m}, encodeFloats(probType, probs)},
                      {"tail_mass", DType::F32, {T}, encodeFloats(DType::F32, tails)}},
                     {{"format", "acsel-rmqd-oracle"}});
}

void writeCandidate(const std::string& path, const std::vector<std::vector<double>>& rows,
                    DType dtype = DType::F32, const std::string& name = "logits")
{
    std::vector<double> flat;
    for (const auto& r : rows)
        flat.insert(flat.end(), r.begin(), r.end());
    writeSafetensors(path, {{name,
                             dtype,
                             {static_cast<std::int64_t>(rows.size()),
                              static_cast<std::int64_t>(rows.front().size())},
                             encodeFloats(dtype, flat)}});
}

// A file made of raw parts, to break it on purpose.
void writeRaw(const std::string& path, std::uint64_t headerLen, const std::string& header,
              std::size_t dataBytes)
{
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 8; ++i)
        out.put(static_cast<char>(headerLen >> (8 * i)));
    out << header << std::string(dataBytes, '\0');
}

} // namespace

class TestRmqd : public QObject
{
    Q_OBJECT
private slots:
    void halfAndBf16Conversions();
    void identicalDistributionsGiveZero();
    void handComputedThreeTokens();
    void tailBinClampedAndZeroTail();
    void lowPrecisionDumpsAgree();
    void logProbsAndLogitsAgree();
    void malformedSafetensors_data();
    void malformedSafetensors();
    void inconsistentOracleAndCandidate();
    void sparseOracleFailsWithinOneBlock();

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }
};

void TestRmqd::halfAndBf16Conversions()
{
    for (float f : {0.0f, 1.0f, -2.5f, 0.099975586f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f})
        QCOMPARE(halfToFloat(floatToHalf(f)), f); // exactly representable in half
    QCOMPARE(halfToFloat(floatToHalf(1.0f + 1.0f / 4096.0f)), 1.0f); // ties round to even
    QVERIFY(std::isinf(halfToFloat(floatToHalf(1e6f))));
    QCOMPARE(bf16ToFloat(floatToBf16(3.0f)), 3.0f);
    QCOMPARE(bf16ToFloat(floatToBf16(1.0f + 1.0f / 256.0f)), 1.0f); // tie to even
    QVERIFY(std::isnan(bf16ToFloat(floatToBf16(std::numeric_limits<float>::quiet_NaN()))));
}

void TestRmqd::identicalDistributionsGiveZero()
{
    // The oracle's top-m bins are the candidate's own softmax: KL must vanish (up to the f32
    // rounding of the stored probabilities).
    const int T = 5, V = 40, m = 8;
    std::vector<Token> tokens;
    std::vector<std::vector<double>> rows;
    for (int t = 0; t < T; ++t) {
        std::vector<double> logits(V);
        for (int i = 0; i < V; ++i)
            logits[static_cast<std::size_t>(i)] = std::sin(0.7 * i + t) * 3.0 + 0.01 * i;
        double z = 0.0;
        for (double l : logits)
            z += std::exp(l);
        Token tok;
        double top = 0.0;
        for (int j = 0; j < m; ++j) {
            const int id = (7 * j + t) % V;
            tok.ids.push_back(id);
            tok.probs.push_back(std::exp(logits[static_cast<std::size_t>(id)]) / z);
            top += tok.probs.back();
        }
        tok.tail = 1.0 - top;
        tokens.push_back(tok);
        rows.push_back(logits);
    }
    writeOracle(path("same_oracle.safetensors"), tokens);
    writeCandidate(path("same_cand.safetensors"), rows);
    const RmqdResult r =
        computeRmqd(path("same_oracle.safetensors"), path("same_cand.safetensors"));
    QCOMPARE(r.tokens, T);
    QCOMPARE(r.m, m);
    QCOMPARE(r.vocab, std::int64_t{V});
    QVERIFY2(std::abs(r.rmqd) < 1e-10, std::to_string(r.rmqd).c_str());
}

void TestRmqd::handComputedThreeTokens()
{
    // Values computed independently (python, math module) from KL = sum p log(p / q) on the
    // bins {id_0, id_1, rest}, q = softmax(logits).
    writeOracle(path("hand_oracle.safetensors"), {{{0, 2}, {0.5, 0.25}, 0.25},
                                                  {{3, 1}, {0.625, 0.375}, 0.0},
                                                  {{1, 0}, {0.75, 0.125}, 0.125}});
    writeCandidate(path("hand_cand.safetensors"),
                   {{1.0, 0.5, -0.25, 2.0}, {0.0, 0.0, 0.0, 0.0}, {-1.5, 3.0, 0.25, -100.0}});
    const RmqdResult r =
        computeRmqd(path("hand_oracle.safetensors"), path("hand_cand.safetensors"));
    QCOMPARE(r.tokens, 3);
    QVERIFY(std::abs(r.rmqd - 0.4895512004837192) < 1e-9);
    QCOMPARE(r.maxToken, 1);
    QVERIFY(std::abs(r.maxTokenKl - 0.72473112296190856) < 1e-9);
}

void TestRmqd::tailBinClampedAndZeroTail()
{
    const double p[2] = {0.5, 0.25};
    const std::int64_t ids[2] = {0, 1};
    const float inf = std::numeric_limits<float>::infinity();
    // The candidate has no mass outside the oracle's ids while the oracle's tail is 0.25:
    // q_tail is clamped at epsilon, 0.25 log(0.25 / 1e-12) + 0.5 log 1 + 0.25 log 0.5.
    const float noTail[3] = {0.0f, 0.0f, -inf};
    QVERIFY(std::abs(tokenKl(p, 0.25, ids, 2, noTail, 3, 1e-12) - 6.3878948935621782) < 1e-9);
    // With epsilon 1e-6 the clamp moves accordingly.
    const double expected6 = 0.25 * std::log(0.25 / 1e-6) + 0.25 * std::log(0.5);
    QVERIFY(std::abs(tokenKl(p, 0.25, ids, 2, noTail, 3, 1e-6) - expected6) < 1e-12);
    // An oracle tail of 0 contributes nothing whatever the candidate's tail.
    const double full[2] = {0.75, 0.25};
    const float wide[4] = {1.0f, 0.0f, 2.0f, 2.0f};
    const double z = std::exp(1.0) + 1.0 + 2.0 * std::exp(2.0);
    const double expected0 =
        0.75 * std::log(0.75 / (std::exp(1.0) / z)) + 0.25 * std::log(0.25 / (1.0 / z));
    QVERIFY(std::abs(tokenKl(full, 0.0, ids, 2, wide, 4, 1e-12) - expected0) < 1e-12);
    // The tail mass counts every id outside the top m, however many.
    const float spread[5] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    const double expectedSpread =
        0.5 * std::log(0.5 / 0.2) + 0.25 * std::log(0.25 / 0.2) + 0.25 * std::log(0.25 / 0.6);
    QVERIFY(std::abs(tokenKl(p, 0.25, ids, 2, spread, 5, 1e-12) - expectedSpread) < 1e-12);
}

void TestRmqd::lowPrecisionDumpsAgree()
{
    writeOracle(path("lp_oracle.safetensors"),
                {{{0, 2}, {0.5, 0.25}, 0.25}, {{3, 1}, {0.625, 0.375}, 0.0}}, DType::I32,
                DType::BF16);
    const std::vector<std::vector<double>> rows{{1.1, 0.52, -0.27, 2.03}, {0.1, -0.2, 0.3, 0.05}};
    writeCandidate(path("lp_f32.safetensors"), rows, DType::F32);
    writeCandidate(path("lp_f16.safetensors"), rows, DType::F16);
    writeCandidate(path("lp_bf16.safetensors"), rows, DType::BF16);
    const double f32 = computeRmqd(path("lp_oracle.safetensors"), path("lp_f32.safetensors")).rmqd;
    const double f16 = computeRmqd(path("lp_oracle.safetensors"), path("lp_f16.safetensors")).rmqd;
    const double bf16 =
        computeRmqd(path("lp_oracle.safetensors"), path("lp_bf16.safetensors")).rmqd;
    QVERIFY(f32 > 0.01);
    QVERIFY(std::abs(f16 - f32) < 1e-3 * f32 + 1e-6); // half keeps ~3 decimal digits
    QVERIFY(std::abs(bf16 - f32) < 2e-2 * f32);       // bfloat16 keeps ~2
    QVERIFY(f16 != f32);                              // the dtype really was converted
}

void TestRmqd::logProbsAndLogitsAgree()
{
    writeOracle(path("lpa_oracle.safetensors"), {{{0, 2}, {0.5, 0.25}, 0.25}});
    const std::vector<double> logits{1.0, 0.5, -0.25, 2.0};
    double z = 0.0;
    for (double l : logits)
        z += std::exp(l);
    std::vector<double> logp;
    for (double l : logits)
        logp.push_back(l - std::log(z));
    writeCandidate(path("lpa_logits.safetensors"), {logits});
    writeCandidate(path("lpa_logp.safetensors"), {logp}, DType::F32, "log_probs");
    const double a =
        computeRmqd(path("lpa_oracle.safetensors"), path("lpa_logits.safetensors")).rmqd;
    const double b = computeRmqd(path("lpa_oracle.safetensors"), path("lpa_logp.safetensors")).rmqd;
    QVERIFY(std::abs(a - 0.50093947098180669) < 1e-9);
    QVERIFY(std::abs(a - b) < 1e-6);
}

void TestRmqd::malformedSafetensors_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<qulonglong>("claimedLength"); // 0: the header's true length
    QTest::addColumn<int>("dataBytes");
    QTest::addColumn<QString>("expected");
    const QString ok = R"({"logits":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";
    QTest::newRow("header length beyond file")
        << ok << qulonglong{1000000} << 16 << "header length 1000000 is impossible";
    QTest::newRow("header length too small")
        << ok << qulonglong{1} << 16 << "header length 1 is impossible";
    QTest::newRow("not json") << QString("{\"logits\": [1, 2") << qulonglong{0} << 0
                              << "invalid JSON header";
    QTest::newRow("offsets out of range")
        << R"({"logits":{"dtype":"F32","shape":[2,2],"data_offsets":[16,32]}})" << qulonglong{0}
        << 16 << "/logits/data_offsets: bytes [16, 32) run past the data section (16 bytes)";
    QTest::newRow("truncated data")
        << ok << qulonglong{0} << 10
        << "/logits/data_offsets: bytes [0, 16) run past the data section (10 bytes): "
           "the file is truncated";
    QTest::newRow("wrong dtype")
        << R"({"logits":{"dtype":"F64","shape":[2,2],"data_offsets":[0,32]}})" << qulonglong{0}
        << 32 << "/logits/dtype: unsupported dtype 'F64'";
    QTest::newRow("shape mismatch")
        << R"({"logits":{"dtype":"F32","shape":[2,3],"data_offsets":[0,16]}})" << qulonglong{0}
        << 16 << "/logits/shape: shape [2, 3] of F32 needs 24 bytes";
    QTest::newRow("negative dimension")
        << R"({"logits":{"dtype":"F32","shape":[-2,2],"data_offsets":[0,16]}})" << qulonglong{0}
        << 16 << "/logits/shape/0: expected a non-negative";
    QTest::newRow("overlap")
        << R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})"
        << qulonglong{0} << 12 << "overlap the previous tensor";
    QTest::newRow("hole") << R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})"
                          << qulonglong{0} << 16 << "belong to no tensor";
    QTest::newRow("trailing bytes") << ok << qulonglong{0} << 20 << "4 trailing bytes";
    QTest::newRow("missing field") << R"({"logits":{"dtype":"F32","shape":[2,2]}})" << qulonglong{0}
                                   << 16 << "/logits/data_offsets: missing field";
    QTest::newRow("end before begin")
        << R"({"logits":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})" << qulonglong{0} << 8
        << "end 0 is before begin 8";
    QTest::newRow("metadata not strings") << R"({"__metadata__":{"m":512}})" << qulonglong{0} << 0
                                          << "/__metadata__/m: expected a string";
}

void TestRmqd::malformedSafetensors()
{
    QFETCH(QString, header);
    QFETCH(qulonglong, claimedLength);
    QFETCH(int, dataBytes);
    QFETCH(QString, expected);
    const std::string file = path("bad.safetensors");
    const std::string h = header.toStdString();
    writeRaw(file, claimedLength ? claimedLength : h.size(), h,
             static_cast<std::size_t>(dataBytes));
    const std::string err = errorOf([&] { SafetensorsFile::open(file); });
    QVERIFY2(err.find(expected.toStdString()) != std::string::npos, err.c_str());
    QVERIFY2(err.rfind(file, 0) == 0, err.c_str()); // names the file first
}

void TestRmqd::inconsistentOracleAndCandidate()
{
    const std::string oracle = path("ic_oracle.safetensors");
    writeOracle(oracle, {{{0, 2}, {0.5, 0.25}, 0.25}, {{3, 1}, {0.625, 0.375}, 0.0}});
    const std::string cand = path("ic_cand.safetensors");
    auto err = [&](const std::vector<std::vector<double>>& rows, DType d = DType::F32) {
        writeCandidate(cand, rows, d);
        return errorOf([&] { computeRmqd(oracle, cand); });
    };
    QVERIFY(err({{0, 0, 0, 0}}).find("has 1 tokens but the oracle") != std::string::npos);
    QVERIFY(err({{0, 0, 0}, {0, 0, 0}}).find("vocabulary of 3 but the oracle uses token id 3") !=
            std::string::npos);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(err({{0, 0, 0, 0}, {0, nan, 0, 0}}).find("/logits token 1: entry 1 is NaN") !=
            std::string::npos);
    const double ninf = -std::numeric_limits<double>::infinity();
    QVERIFY(err({{0, 0, 0, 0}, {ninf, ninf, ninf, ninf}}).find("every entry is -inf") !=
            std::string::npos);

    const std::string badOracle = path("ic_bad_oracle.safetensors");
    writeOracle(badOracle, {{{0, 2}, {0.5, 0.25}, 0.05}});
    writeCandidate(cand, {{0, 0, 0, 0}});
    std::string e = errorOf([&] { computeRmqd(badOracle, cand); });
    QVERIFY2(e.find("/topk_probs token 0: top-m probabilities plus tail_mass sum to 0.8") !=
                 std::string::npos,
             e.c_str());
    writeOracle(badOracle, {{{2, 2}, {0.5, 0.25}, 0.25}});
    e = errorOf([&] { computeRmqd(badOracle, cand); });
    QVERIFY2(e.find("token id 2 appears twice") != std::string::npos, e.c_str());
    writeOracle(badOracle, {{{0, 1}, {0.5, 0.25}, 0.25}}, DType::I64, DType::F32);
    writeSafetensors(badOracle,
                     {{"topk_ids", DType::F32, {1, 2}, encodeFloats(DType::F32, {0, 1})},
                      {"topk_probs", DType::F32, {1, 2}, encodeFloats(DType::F32, {0.5, 0.25})},
                      {"tail_mass", DType::F32, {1}, encodeFloats(DType::F32, {0.25})}});
    e = errorOf([&] { loadOracle(badOracle); });
    QVERIFY2(e.find("/topk_ids/dtype: dtype F32 is not allowed here (expected I32 or I64)") !=
                 std::string::npos,
             e.c_str());
    writeSafetensors(
        badOracle, {{"topk_ids", DType::I64, {1, 2}, encodeInts(DType::I64, {0, 1})},
                    {"topk_probs", DType::F32, {1, 3}, encodeFloats(DType::F32, {0.5, 0.25, 0.0})},
                    {"tail_mass", DType::F32, {1}, encodeFloats(DType::F32, {0.25})}});
    e = errorOf([&] { loadOracle(badOracle); });
    QVERIFY2(e.find("/topk_probs/shape: shape [1, 3] differs from topk_ids [1, 2]") !=
                 std::string::npos,
             e.c_str());
    e = errorOf([&] { loadOracle(cand); });
    QVERIFY2(e.find("missing tensor 'topk_ids'") != std::string::npos, e.c_str());
}

// Peak resident memory of this process so far, in MB (Linux reports ru_maxrss in kB).
double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

void TestRmqd::sparseOracleFailsWithinOneBlock()
{
    // A valid header promising T = 1.5M tokens of m = 16 bins: 1.5M x 16 x (8 + 4) + 1.5M x 4 =
    // 294 MB of data, a sparse file of zeros (truncate). Token 0's bins and tail sum to 0, so
    // the first block must fail it. Read whole (ids as int64, probabilities as double and a
    // float buffer), the file would take about 480 MB before that check; in blocks of 1M bins
    // (8 MB of ids, 4 MB of floats) the growth stays far below 64 MB.
    const std::int64_t T = 1'500'000, m = 16;
    const std::int64_t idBytes = T * m * 8, probBytes = T * m * 4, tailBytes = T * 4;
    const std::string header =
        R"({"topk_ids":{"dtype":"I64","shape":[)" + std::to_string(T) + "," + std::to_string(m) +
        R"(],"data_offsets":[0,)" + std::to_string(idBytes) +
        R"(]},"topk_probs":{"dtype":"F32","shape":[)" + std::to_string(T) + "," +
        std::to_string(m) + R"(],"data_offsets":[)" + std::to_string(idBytes) + "," +
        std::to_string(idBytes + probBytes) + R"(]},"tail_mass":{"dtype":"F32","shape":[)" +
        std::to_string(T) + R"(],"data_offsets":[)" + std::to_string(idBytes + probBytes) + "," +
        std::to_string(idBytes + probBytes + tailBytes) + "]}}";
    const std::string file = path("sparse_oracle.safetensors");
    writeRaw(file, header.size(), header, 0);
    std::filesystem::resize_file(
        file, 8 + header.size() + static_cast<std::uintmax_t>(idBytes + probBytes + tailBytes));
    const double before = peakRssMb();
    const std::string e = errorOf([&] { loadOracle(file); });
    const double grown = peakRssMb() - before;
    QVERIFY2(e.find(file + ": /topk_probs token 0: top-m probabilities plus tail_mass sum to 0") ==
                 0,
             e.c_str());
    QVERIFY2(grown < 64, qPrintable(QString("peak memory grew by %1 MB").arg(grown)));
}

ACSEL_TEST_APPLESS_MAIN(TestRmqd)
#include "test_rmqd.moc"
