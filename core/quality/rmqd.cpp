#include "core/quality/rmqd.h"

#include "core/data/loaderror.h"
#include "core/data/safetensors.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acsel
{
namespace
{

// Candidate rows are read in blocks of about this many floats (64 MB), so a 150k-vocabulary
// dump of thousands of tokens streams through a fixed buffer.
constexpr std::int64_t kBlockFloats = std::int64_t{16} << 20;
// Oracle tokens are read and checked in blocks of about this many bins (12 MB).
constexpr std::int64_t kOracleBlock = std::int64_t{1} << 20;

std::string tokenWhere(const std::string& tensor, std::int64_t token)
{
    return "/" + tensor + " token " + std::to_string(token);
}

} // namespace

OracleTopM loadOracle(const std::string& path)
{
    // open() has checked every tensor's byte range against the file size. The tokens are then
    // read and checked a block at a time: a file whose header promises gigabytes of tokens
    // fails at its first bad token after one block, and memory grows only with checked tokens.
    SafetensorsFile f = SafetensorsFile::open(path);
    const TensorInfo& ids = f.require("topk_ids", 2, false);
    const TensorInfo& probs = f.require("topk_probs", 2, true);
    const TensorInfo& tail = f.require("tail_mass", 1, true);
    if (probs.shape != ids.shape)
        throw LoadError(path, "/topk_probs/shape",
                        "shape " + probs.shapeText() + " differs from topk_ids " + ids.shapeText());
    if (tail.shape[0] != ids.shape[0])
        throw LoadError(path, "/tail_mass/shape",
                        "shape " + tail.shapeText() + ": expected [" +
                            std::to_string(ids.shape[0]) +
                            "], one tail mass per token of topk_ids");
    if (ids.shape[0] < 1 || ids.shape[1] < 1 || ids.shape[0] > std::numeric_limits<int>::max() ||
        ids.shape[1] > std::numeric_limits<int>::max())
        throw LoadError(path, "/topk_ids/shape",
                        "expected at least one token and one bin, got " + ids.shapeText());
    OracleTopM o;
    o.file = path;
    o.tokens = static_cast<int>(ids.shape[0]);
    o.m = static_cast<int>(ids.shape[1]);
    const auto m = static_cast<std::size_t>(o.m);
    const std::int64_t blockTokens = std::max<std::int64_t>(1, kOracleBlock / ids.shape[1]);
    std::vector<std::int64_t> blockIds;
    std::vector<float> blockProbs, blockTail;
    std::vector<std::int64_t> sorted(m);
    for (std::int64_t first = 0; first < o.tokens; first += blockTokens) {
        const std::int64_t count = std::min<std::int64_t>(blockTokens, o.tokens - first);
        blockIds.resize(static_cast<std::size_t>(count) * m);
        blockProbs.resize(blockIds.size());
        blockTail.resize(static_cast<std::size_t>(count));
        f.readInts(ids, first * o.m, count * o.m, blockIds.data());
        f.readFloats(probs, first * o.m, count * o.m, blockProbs.data());
        f.readFloats(tail, first, count, blockTail.data());
        for (std::int64_t b = 0; b < count; ++b) {
            const std::int64_t t = first + b;
            const std::size_t row = static_cast<std::size_t>(b) * m;
            double sum = static_cast<double>(blockTail[static_cast<std::size_t>(b)]);
            if (!(sum >= 0.0 && sum <= 1.0))
                throw LoadError(path, tokenWhere("tail_mass", t),
                                "tail mass " + std::to_string(sum) +
                                    " is not a probability in [0, 1]");
            for (std::size_t j = 0; j < m; ++j) {
                const double p = static_cast<double>(blockProbs[row + j]);
                if (!(p >= 0.0 && p <= 1.0))
                    throw LoadError(path, tokenWhere("topk_probs", t),
                                    "bin " + std::to_string(j) + " holds " + std::to_string(p) +
                                        ", not a probability in [0, 1]");
                sum += p;
            }
            if (std::abs(sum - 1.0) > 1e-2)
                throw LoadError(path, tokenWhere("topk_probs", t),
                                "top-m probabilities plus tail_mass sum to " + std::to_string(sum) +
                                    ", expected 1 (within 1e-2)");
            std::copy_n(blockIds.begin() + static_cast<std::ptrdiff_t>(row), o.m, sorted.begin());
            std::sort(sorted.begin(), sorted.end());
            if (sorted.front() < 0)
                throw LoadError(path, tokenWhere("topk_ids", t),
                                "negative token id " + std::to_string(sorted.front()));
            if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
                twice != sorted.end())
                throw LoadError(path, tokenWhere("topk_ids", t),
                                "token id " + std::to_string(*twice) +
                                    " appears twice: the top-m ids must be distinct");
            o.maxId = std::max(o.maxId, sorted.back());
            for (std::size_t j = 0; j < m; ++j)
                o.probs.push_back(static_cast<double>(blockProbs[row + j]) / sum);
            o.tail.push_back(static_cast<double>(blockTail[static_cast<std::size_t>(b)]) / sum);
            o.ids.insert(o.ids.end(), blockIds.begin() + static_cast<std::ptrdiff_t>(row),
                         blockIds.begin() + static_cast<std::ptrdiff_t>(row + m));
        }
    }
    return o;
}

double tokenKl(const double* p, double pTail, const std::int64_t* ids, int m, const float* logits,
               std::int64_t vocab, double epsilon)
{
    float mx = -std::numeric_limits<float>::infinity();
    for (std::int64_t i = 0; i < vocab; ++i)
        mx = std::max(mx, logits[i]);
    const double shift = static_cast<double>(mx);
    double total = 0.0;
    for (std::int64_t i = 0; i < vocab; ++i)
        total += std::exp(static_cast<double>(logits[i]) - shift);
    const double logTotal = std::log(total);
    const double logEps = std::log(epsilon);
    double top = 0.0, kl = 0.0;
    for (int j = 0; j < m; ++j) {
        const double z = static_cast<double>(logits[ids[j]]) - shift;
        top += std::exp(z);
        if (p[j] > 0.0)
            kl += p[j] * (std::log(p[j]) - std::max(z - logTotal, logEps));
    }
    // The candidate's tail is everything outside the oracle's ids; with distinct ids this
    // difference is exact up to rounding of the sum, and clamping keeps its log finite.
    const double qTail = std::max(total - top, 0.0) / total;
    if (pTail > 0.0)
        kl += pTail * (std::log(pTail) - std::max(std::log(qTail), logEps));
    return kl;
}

RmqdResult computeRmqd(const OracleTopM& oracle, SafetensorsFile& candidate, RmqdOptions options)
{
    if (!(options.epsilon > 0.0 && options.epsilon < 1e-3))
        throw std::invalid_argument("computeRmqd: epsilon must be in (0, 1e-3)");
    const TensorInfo* t = candidate.find("logits");
    const TensorInfo* alt = candidate.find("log_probs");
    if (t && alt)
        throw LoadError(candidate.path(), "/logits",
                        "both 'logits' and 'log_probs' are present: expected exactly one");
    const std::string name = t ? "logits" : "log_probs";
    if (!t && !alt)
        throw LoadError(candidate.path(), "/logits",
                        "missing tensor 'logits' (or 'log_probs') of shape [tokens, vocab]");
    const TensorInfo& logits = candidate.require(name, 2, true);
    if (logits.shape[0] != oracle.tokens)
        throw LoadError(candidate.path(), "/" + name + "/shape",
                        "shape " + logits.shapeText() + " has " + std::to_string(logits.shape[0]) +
                            " tokens but the oracle " + oracle.file + " has " +
                            std::to_string(oracle.tokens));
    const std::int64_t vocab = logits.shape[1];
    if (vocab <= oracle.maxId)
        throw LoadError(candidate.path(), "/" + name + "/shape",
                        "vocabulary of " + std::to_string(vocab) +
                            " but the oracle uses token id " + std::to_string(oracle.maxId));
    RmqdResult r;
    r.tokens = oracle.tokens;
    r.m = oracle.m;
    r.vocab = vocab;
    const std::int64_t rowsPerBlock = std::max<std::int64_t>(1, kBlockFloats / vocab);
    std::vector<float> block(
        static_cast<std::size_t>(std::min<std::int64_t>(rowsPerBlock, oracle.tokens) * vocab));
    double sum = 0.0;
    for (std::int64_t first = 0; first < oracle.tokens; first += rowsPerBlock) {
        const std::int64_t rows = std::min<std::int64_t>(rowsPerBlock, oracle.tokens - first);
        candidate.readFloats(logits, first * vocab, rows * vocab, block.data());
        for (std::int64_t k = 0; k < rows; ++k) {
            const float* row = block.data() + k * vocab;
            const std::int64_t tok = first + k;
            bool anyFinite = false;
            for (std::int64_t i = 0; i < vocab; ++i) {
                if (std::isnan(row[i]) || row[i] == std::numeric_limits<float>::infinity())
                    throw LoadError(candidate.path(), tokenWhere(name, tok),
                                    "entry " + std::to_string(i) +
                                        " is NaN or +inf: expected finite logits (-inf allowed)");
                anyFinite = anyFinite || std::isfinite(row[i]);
            }
            if (!anyFinite)
                throw LoadError(candidate.path(), tokenWhere(name, tok),
                                "every entry is -inf: expected at least one finite logit");
            const auto off = static_cast<std::size_t>(tok) * static_cast<std::size_t>(oracle.m);
            const double kl =
                tokenKl(oracle.probs.data() + off, oracle.tail[static_cast<std::size_t>(tok)],
                        oracle.ids.data() + off, oracle.m, row, vocab, options.epsilon);
            sum += kl;
            if (kl > r.maxTokenKl) {
                r.maxTokenKl = kl;
                r.maxToken = static_cast<int>(tok);
            }
        }
    }
    r.rmqd = sum / oracle.tokens;
    return r;
}

RmqdResult computeRmqd(const std::string& oraclePath, const std::string& candidatePath,
                       RmqdOptions options)
{
    const OracleTopM oracle = loadOracle(oraclePath);
    SafetensorsFile cand = SafetensorsFile::open(candidatePath);
    return computeRmqd(oracle, cand, options);
}

} // namespace acsel
