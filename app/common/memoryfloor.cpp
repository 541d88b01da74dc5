#include "app/common/memoryfloor.h"

#include "core/model/configspace.h"
#include "core/model/tensorparallel.h"
#include "core/search/fracmixtable.h"
#include "core/search/gate.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace acsel::app
{
namespace
{

// The lightest configuration of model m split over tp GPUs: the (format, scope) choice of the
// space with the lightest weights that the stack can export, its smallest batch and lightest
// KV format. Uniform, since a band recipe's memory is the mix of its bands' uniform memories
// (additive over layers); the batch and the KV format change only the KV cache and the
// activations, which grow with the batch and the KV bytes, and the serving reserve, which
// shrinks by at most what they add.
MemoryFloor lightest(const Engine& e, const Request& q, int m, int tp, const SearchOptions& o)
{
    const Workspace& ws = e.workspace();
    const ModelArch& arch = ws.models[static_cast<std::size_t>(m)];
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))];
    const Platform& gpu = ws.platformOf(stack);
    const std::vector<KvFormat> kvs = searchKvFormats(stack, o);
    const auto kvBytes = [&arch](KvFormat k) { return kvBytesPerToken(arch, k, 1); };
    Config c;
    c.model = m;
    c.tp = tp;
    c.batch = searchBatches(q, o).front();
    c.kv = *std::min_element(kvs.begin(), kvs.end(),
                             [&](KvFormat a, KvFormat b) { return kvBytes(a) < kvBytes(b); });
    MemoryFloor best;
    best.model = arch.name;
    best.moe = arch.isMoe();
    best.batch = c.batch;
    best.kv = c.kv;
    best.tp = tp;
    bool found = false;
    for (Format f : searchFormats(stack, o))
        for (Scope s : o.scopes) {
            if (f == Format::Bf16 && s != Scope::Full) // bf16 is one choice, whatever the scope
                continue;
            c.recipe = BandRecipe::uniform(arch.layers, f, s);
            if (!ConfigSpace::hasFittingAlgorithm(c.recipe) || !e.exportProblem(c, stack).empty())
                continue;
            const MemoryEstimate mem = estimateMemory(arch, c, q, gpu);
            if (!found || mem.total() < best.estimate.total()) {
                best.format = f;
                best.scope = s;
                best.estimate = mem;
                found = true;
            }
        }
    if (!found)
        best.estimate.weightBytes = std::numeric_limits<double>::infinity();
    return best;
}

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", bytes / kGiB);
    return buf;
}

std::string gpus(int n)
{
    return std::to_string(n) + (n == 1 ? " GPU" : " GPUs");
}

} // namespace

std::optional<MemoryFloor> memoryFloor(const Engine& e, const Request& gated,
                                       const SearchOptions& o)
{
    const Workspace& ws = e.workspace();
    const auto s = ws.findStack(gated.stack);
    if (!s)
        throw std::invalid_argument("unknown stack '" + gated.stack + "'");
    const double budget =
        memoryBudgetBytes(gated, ws.platformOf(ws.stacks[static_cast<std::size_t>(*s)]));
    std::optional<MemoryFloor> out;
    const std::vector<int> models = searchModels(ws, o);
    for (int m : models) {
        const std::vector<int> tps = searchTps(e, ws.models[static_cast<std::size_t>(m)], gated, o);
        if (tps.empty())
            continue;
        MemoryFloor l = lightest(e, gated, m, tps.back(), o);
        if (l.estimate.total() <= budget)
            return std::nullopt; // some configuration's memory fits
        if (!out || l.estimate.total() < out->estimate.total()) {
            l.budgetBytes = budget;
            out = std::move(l);
        }
    }
    if (!out)
        return std::nullopt;
    // The fewest GPUs that would hold some model's lightest configuration: every degree the
    // model and the stack allow, whatever the request's GPUs and --tp.
    for (int m : models) {
        const ModelArch& arch = ws.models[static_cast<std::size_t>(m)];
        for (int tp : tpDegrees(arch, kMaxGpus, [&](int t) { return e.supportsTp(gated, t); })) {
            if (out->fitsAtTp && tp > *out->fitsAtTp)
                break;
            const double bytes = lightest(e, gated, m, tp, o).estimate.total();
            if (bytes > budget)
                continue;
            if (!out->fitsAtTp || tp < *out->fitsAtTp || bytes < out->fitsAtBytes) {
                out->fitsAtTp = tp;
                out->fitsAtModel = arch.name;
                out->fitsAtBytes = bytes;
            }
            break;
        }
    }
    return out;
}

std::string memoryFloorText(const MemoryFloor& f)
{
    const std::string choice = f.format == Format::Bf16 ? std::string("bf16")
                                                        : std::string(toString(f.format)) + "/" +
                                                              std::string(toString(f.scope, f.moe));
    const MemoryEstimate& m = f.estimate;
    std::string parts = "weights " + gib(f.weightBytes()) + ", KV cache " + gib(m.kvCacheBytes) +
                        ", activations " + gib(m.activationBytes) + ", runtime " +
                        gib(m.runtimeBytes);
    if (m.servingReserveBytes > 0)
        parts += ", serving reserve " + gib(m.servingReserveBytes);
    std::string out = "memory rules out every configuration: the lightest, " + f.model +
                      ", batch " + std::to_string(f.batch) + ", " + choice + ", KV " +
                      std::string(toString(f.kv)) + ", split over " + gpus(f.tp) + " (tp " +
                      std::to_string(f.tp) + "), needs " + gib(m.total()) + " GiB per GPU (" +
                      parts + " GiB) against " + gib(f.budgetBytes) + " GiB per GPU";
    if (f.weightBytes() > f.budgetBytes)
        out += ": the weights alone exceed it";
    if (!f.fitsAtTp)
        return out + "; no split over up to " + gpus(kMaxGpus) + " of one node fits it";
    return out + "; split over " + gpus(*f.fitsAtTp) + " (tp " + std::to_string(*f.fitsAtTp) +
           "), " + f.fitsAtModel + " needs " + gib(f.fitsAtBytes) + " GiB";
}

} // namespace acsel::app
