#include "core/export/exportinput.h"

#include <charconv>

namespace acsel
{
namespace
{

// Four significant digits, the same text on every platform and locale (printf's %.4g
// follows the C locale, which the GUI sets from the environment: 0,1234 under de_DE).
std::string num(double v)
{
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 4).ptr;
    return std::string(buf, end);
}

} // namespace

std::string exportFolder(const ModelArch& arch)
{
    return arch.name + "-acsel";
}

std::string rejectedNote(const std::string& verdict, const std::string& note)
{
    return "REJECTED by the gate (" + verdict + "), exported on request" +
           (note.empty() ? std::string() : "; " + note);
}

std::string describeExport(const ExportInput& in)
{
    const Config& c = in.config;
    const Request& q = in.request;
    std::string s =
        "ACSeL Studio (acsel-studio " + std::string(ACSEL_VERSION) + ") recipe for " +
        in.arch.name + " (" + in.arch.hfId + "): bands " + c.recipe.describe(in.arch.isMoe()) +
        "; algorithm " + std::string(toString(c.algorithm)) + "; KV cache " +
        std::string(toString(c.kv)) + "; lm_head " +
        (c.lmHeadQuantized ? "quantized" : "not quantized") + "; batch " + std::to_string(c.batch) +
        ". Chosen for " + q.stack + ", isl " + std::to_string(q.isl) + ", osl " +
        std::to_string(q.osl) + ", concurrency " + std::to_string(q.concurrency) + " (" +
        std::string(toString(q.mode)) + "), budgets TTFT " + num(q.ttftBudgetMs) + " ms, TPOT " +
        num(q.tpotBudgetMs) + " ms, memory " + num(q.memBudgetGiB) + " GiB.";
    if (in.predictions) {
        const Prediction& p = *in.predictions;
        const std::string& note = in.predictionNote;
        s += " Predicted TTFT " + num(p.ttftMs) + " ms, TPOT " + num(p.tpotMs) + " ms, memory " +
             num(p.memoryGiB()) + " GiB, RMQD " + num(p.rmqd) + ".";
        if (!note.empty())
            s += " Note: " + note + (note.back() == '.' ? "" : ".");
    } else {
        s += " No predictions attached.";
    }
    return s;
}

} // namespace acsel
