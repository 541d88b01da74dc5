#include "app/cli/answerdetails.h"

#include "core/export/launch.h"
#include "core/model/platform.h"

#include <iomanip>
#include <ostream>

namespace acsel::cli
{

std::string describeConfig(const Workspace& ws, const Config& c)
{
    const ModelArch& arch = ws.models[static_cast<std::size_t>(c.model)];
    return arch.name + ", batch " + std::to_string(c.batch) + ", " +
           c.recipe.describe(arch.isMoe()) + ", " + std::string(toString(c.algorithm)) + ", KV " +
           std::string(toString(c.kv)) + (c.tp > 1 ? ", tp " + std::to_string(c.tp) : "");
}

void printRequestLine(std::ostream& out, const Request& q, const Platform& gpu)
{
    const double capacityGiB = gpu.memCapacityBytes / kGiB;
    out << std::fixed << std::setprecision(2) << "request: " << q.stack << ", isl " << q.isl
        << ", osl " << q.osl << ", concurrency " << q.concurrency << ", " << toString(q.mode)
        << " serving; TTFT <= " << q.ttftBudgetMs << " ms, TPOT <= " << q.tpotBudgetMs
        << " ms, memory <= " << q.memBudgetGiB << " GiB" << (q.gpus > 1 ? " per GPU" : "");
    if (capacityGiB < q.memBudgetGiB)
        out << " (capped at the GPU's " << capacityGiB << " GiB)";
    else
        out << " (GPU memory " << capacityGiB << " GiB)";
    out << (q.gpus > 1 ? ", " + std::to_string(q.gpus) + " GPUs\n" : "\n");
}

std::string predictionNote(const std::vector<std::string>& notes)
{
    std::string note;
    for (const std::string& n : notes)
        note += (note.empty() ? "" : "; ") + n;
    return note;
}

std::string engineMemoryNote(const Engine& e, const Config& c, const Request& q)
{
    const std::optional<EngineMemory> m = e.engineMemory(c, q);
    return m ? " (engine " + engineMemoryText(*m) + ")" : std::string();
}

void printThroughput(std::ostream& out, const Throughput& t)
{
    out << std::fixed << std::setprecision(1) << "  throughput: " << t.tokensPerSUser
        << " tokens/s per user, " << t.tokensPerSGpu << " tokens/s per GPU, "
        << std::setprecision(3) << t.requestsPerS << " requests/s\n"
        << std::setprecision(2);
}

} // namespace acsel::cli
