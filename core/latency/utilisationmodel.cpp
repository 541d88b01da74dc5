#include "core/latency/utilisationmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace acsel
{
namespace
{

const std::array<std::vector<UtilAxis>, kOpClassCount> kAxes = {{
    {{"log2_m", 0, 15}, {"log2_n", 5, 16}, {"log2_k", 5, 16}},
    {{"log2_batch", 0, 8}, {"log2_isl", 0, 14}},
    {{"log2_batch", 0, 11}, {"log2_kv_len", 1, 17}},
    {{"log2_gpus", 1, 3}, {"log2_elements", 8, 28}},
}};

std::optional<OpClass> parseOpClass(std::string_view s)
{
    for (int i = 0; i < kOpClassCount; ++i)
        if (toString(static_cast<OpClass>(i)) == s)
            return static_cast<OpClass>(i);
    return std::nullopt;
}

bool validVariant(OpClass op, const std::string& v)
{
    switch (op) {
    case OpClass::Gemm:
        return parseFormat(v).has_value();
    case OpClass::AllReduce: {
        const auto link = parseInterconnect(v);
        return link && *link != Interconnect::None;
    }
    default:
        return parseKvFormat(v).has_value();
    }
}

std::string variantChoices(OpClass op)
{
    switch (op) {
    case OpClass::Gemm:
        return "a format name";
    case OpClass::AllReduce:
        return "an interconnect (pcie, nvlink)";
    default:
        return "a KV format (" + kvFormatChoices() + ")";
    }
}

// Fills the empty nodes with the mean of their filled axis neighbours, sweep after sweep, so
// that utilisation is held outward from the measured region.
void fillHoles(OpClass op, std::vector<double>& v)
{
    const auto& axes = utilAxes(op);
    std::vector<int> stride(axes.size(), 1);
    for (std::size_t a = axes.size() - 1; a > 0; --a)
        stride[a - 1] = stride[a] * axes[a].size();
    bool missing = true;
    while (missing) {
        missing = false;
        bool progress = false;
        std::vector<double> next = v;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (!std::isnan(v[i]))
                continue;
            double sum = 0;
            int count = 0;
            for (std::size_t a = 0; a < axes.size(); ++a) {
                const int coord = (static_cast<int>(i) / stride[a]) % axes[a].size();
                for (int step : {-1, 1}) {
                    if (coord + step < 0 || coord + step >= axes[a].size())
                        continue;
                    const double n = v[i + static_cast<std::size_t>(step * stride[a])];
                    if (!std::isnan(n)) {
                        sum += n;
                        ++count;
                    }
                }
            }
            if (count > 0) {
                next[i] = sum / count;
                progress = true;
            } else {
                missing = true;
            }
        }
        v = std::move(next);
        if (!progress)
            break;
    }
}

double round4(double v)
{
    return std::round(v * 1e4) / 1e4;
}

double round3(double v)
{
    return std::round(v * 1e3) / 1e3;
}

Json apeToJson(const ApeSummary& a)
{
    Json j{{"scope", a.scope},
           {"op", toString(a.op)},
           {"count", a.count},
           {"median_ape", round4(a.medianApe)},
           {"p90_ape", round4(a.p90Ape)}};
    if (!a.variant.empty())
        j["variant"] = a.variant;
    return j;
}

std::vector<ApeSummary> parseApes(const JsonFields& f, const Json& j, const std::string& key)
{
    std::vector<ApeSummary> out;
    const Json& list = f.array(j, key, "");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string ptr = "/" + key + "/" + std::to_string(i);
        ApeSummary a;
        a.scope = f.string(list[i], "scope", ptr);
        const auto op = parseOpClass(f.string(list[i], "op", ptr));
        if (!op)
            f.fail(ptr + "/op",
                   "expected gemm, context_attention, generation_attention or allreduce");
        a.op = *op;
        a.variant = f.stringOr(list[i], "variant", ptr, "");
        a.count = f.integer(list[i], "count", ptr, 0, 1 << 30);
        a.medianApe = f.number(list[i], "median_ape", ptr, 0, 1e6);
        a.p90Ape = f.number(list[i], "p90_ape", ptr, 0, 1e6);
        out.push_back(std::move(a));
    }
    return out;
}

} // namespace

std::string_view toString(OpClass op)
{
    switch (op) {
    case OpClass::Gemm:
        return "gemm";
    case OpClass::ContextAttention:
        return "context_attention";
    case OpClass::GenerationAttention:
        return "generation_attention";
    case OpClass::AllReduce:
        return "allreduce";
    }
    return "?";
}

const std::vector<UtilAxis>& utilAxes(OpClass op)
{
    return kAxes[static_cast<std::size_t>(op)];
}

int utilNodeCount(OpClass op)
{
    int n = 1;
    for (const UtilAxis& a : utilAxes(op))
        n *= a.size();
    return n;
}

const UtilGrid* UtilisationModel::find(OpClass op, std::string_view backend,
                                       std::string_view variant) const
{
    for (const UtilGrid& g : grids)
        if (g.op == op && g.backend == backend && g.variant == variant)
            return &g;
    return nullptr;
}

int UtilisationModel::parameterCount() const
{
    int n = 0;
    for (const UtilGrid& g : grids)
        n += static_cast<int>(
            std::count_if(g.logU.begin(), g.logU.end(), [](double v) { return !std::isnan(v); }));
    return n;
}

ResolvedUtilGrid::ResolvedUtilGrid(const UtilisationModel& m, OpClass op, std::string_view backend,
                                   std::string_view variant, std::string_view fallbackVariant)
{
    const UtilGrid* pooled = m.find(op, kAllBackends, variant);
    const UtilGrid* own = pooled ? m.find(op, backend, variant) : nullptr;
    if (!pooled) {
        pooled = m.find(op, kAllBackends, fallbackVariant);
        own = pooled ? m.find(op, backend, fallbackVariant) : nullptr;
        usedFallback_ = true;
    }
    if (!pooled)
        return;
    const auto& axes = utilAxes(op);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        lo_[i] = axes[i].lo;
        size_[i] = axes[i].size();
    }
    values_ = pooled->logU;
    if (own)
        for (std::size_t i = 0; i < values_.size(); ++i)
            if (!std::isnan(own->logU[i]))
                values_[i] = own->logU[i];
    fillHoles(op, values_);
}

double ResolvedUtilGrid::logUtilisation(double x0, double x1, double x2) const
{
    const std::array<double, 3> x{x0, x1, x2};
    std::array<int, 3> base{};
    std::array<double, 3> w{};
    for (std::size_t a = 0; a < 3; ++a) {
        if (size_[a] == 1)
            continue;
        const double t = std::clamp(std::log2(x[a]) - lo_[a], 0.0, size_[a] - 1.0);
        base[a] = std::min(static_cast<int>(t), size_[a] - 2);
        w[a] = t - base[a];
    }
    double sum = 0;
    for (int corner = 0; corner < 8; ++corner) {
        double weight = 1;
        std::size_t index = 0;
        for (std::size_t a = 0; a < 3; ++a) {
            const int bit = (corner >> a) & 1;
            if (size_[a] == 1 && bit)
                weight = 0;
            weight *= bit ? w[a] : 1.0 - w[a];
            index = index * static_cast<std::size_t>(size_[a]) +
                    static_cast<std::size_t>(base[a] + (size_[a] == 1 ? 0 : bit));
        }
        if (weight > 0)
            sum += weight * values_[index];
    }
    return sum;
}

Json utilisationToJson(const UtilisationModel& m)
{
    Json j;
    j["schema_version"] = kUtilisationSchemaVersion;
    j["kind"] = "acsel-utilisation";
    j["provenance"] = {
        {"command", m.command},
        {"fitted_on", m.fittedStacks},
        {"method",
         "For every measured table entry: u = (SOL roof + constant) / measured latency, with SOL "
         "from the GPU's entry in datasets/platforms.json (spec-sheet figures, not the AIC "
         "yaml). Per grid node (integer log2 of each shape axis, nearest node), the median of "
         "log u over the entries of that node: per (op, backend, variant) where a node has at "
         "least 3 entries and it differs from the pooled node by more than 0.02, and pooled over "
         "backends ('*'). Null = no such node. At lookup, the backend grid overlays the pooled "
         "one and empty nodes take the mean of their filled neighbours (utilisation held "
         "outward); log u is interpolated linearly in log2 of the shape."},
        {"parameters", m.parameterCount()}};
    j["sol_constant_us"] = m.solConstantMs * 1e3;
    for (int op = 0; op < kOpClassCount; ++op) {
        Json axes = Json::array();
        for (const UtilAxis& a : utilAxes(static_cast<OpClass>(op)))
            axes.push_back({{"name", a.name}, {"lo", a.lo}, {"hi", a.hi}});
        j["axes"][std::string(toString(static_cast<OpClass>(op)))] = axes;
    }
    j["grids"] = Json::array();
    for (const UtilGrid& g : m.grids) {
        Json values = Json::array();
        for (double v : g.logU)
            values.push_back(std::isnan(v) ? Json(nullptr) : Json(round3(v)));
        j["grids"].push_back({{"op", toString(g.op)},
                              {"backend", g.backend},
                              {"variant", g.variant},
                              {"samples", g.samples},
                              {"log_utilisation", values}});
    }
    j["in_sample"] = Json::array();
    for (const ApeSummary& a : m.inSample)
        j["in_sample"].push_back(apeToJson(a));
    j["leave_one_gpu_out"] = Json::array();
    for (const ApeSummary& a : m.leaveOneGpuOut)
        j["leave_one_gpu_out"].push_back(apeToJson(a));
    return j;
}

std::string utilisationToText(const UtilisationModel& m)
{
    // Indented at the top, one line per grid or summary: small and diff-friendly.
    const Json j = utilisationToJson(m);
    std::string out = "{";
    for (auto it = j.begin(); it != j.end(); ++it) {
        out += (it == j.begin() ? "\n " : ",\n ") + Json(it.key()).dump() + ": ";
        const Json& v = it.value();
        if (!v.is_array() || v.empty() || !v.front().is_object()) {
            out += v.dump();
            continue;
        }
        out += "[";
        for (std::size_t i = 0; i < v.size(); ++i)
            out += (i == 0 ? "\n  " : ",\n  ") + v[i].dump();
        out += "\n ]";
    }
    return out + "\n}\n";
}

UtilisationModel parseUtilisation(const Json& j, const std::string& file)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a utilisation object");
    f.schemaVersion(j, 1, kUtilisationSchemaVersion);
    if (f.string(j, "kind", "") != "acsel-utilisation")
        f.fail("/kind", "expected \"acsel-utilisation\"");
    UtilisationModel m;
    m.solConstantMs = f.number(j, "sol_constant_us", "", 0, 1e6) * 1e-3;
    const Json& prov = f.object(j, "provenance", "");
    m.command = f.string(prov, "command", "/provenance");
    const Json& stacks = f.array(prov, "fitted_on", "/provenance");
    for (std::size_t i = 0; i < stacks.size(); ++i) {
        if (!stacks[i].is_string())
            f.fail("/provenance/fitted_on/" + std::to_string(i), "expected a stack id");
        m.fittedStacks.push_back(stacks[i].get<std::string>());
    }
    const Json& axes = f.object(j, "axes", "");
    for (int op = 0; op < kOpClassCount; ++op) {
        const std::string name(toString(static_cast<OpClass>(op)));
        // Files fitted before all-reduce grids existed have none: tensor parallelism is then
        // not costed on a stack without tables (and says so), everything else reads as before.
        if (static_cast<OpClass>(op) == OpClass::AllReduce && !axes.contains(name))
            continue;
        const Json& list = f.array(axes, name, "/axes");
        const auto& want = utilAxes(static_cast<OpClass>(op));
        bool same = list.size() == want.size();
        for (std::size_t i = 0; same && i < list.size(); ++i) {
            const std::string ptr = "/axes/" + name + "/" + std::to_string(i);
            same = f.string(list[i], "name", ptr) == want[i].name &&
                   f.integer(list[i], "lo", ptr, -64, 64) == want[i].lo &&
                   f.integer(list[i], "hi", ptr, -64, 64) == want[i].hi;
        }
        if (!same)
            f.fail("/axes/" + name, "grid axes differ from this build's (refit the file with "
                                    "acsel fit-utilisation)");
    }
    const Json& grids = f.array(j, "grids", "");
    for (std::size_t i = 0; i < grids.size(); ++i) {
        const std::string ptr = "/grids/" + std::to_string(i);
        UtilGrid g;
        const auto op = parseOpClass(f.string(grids[i], "op", ptr));
        if (!op)
            f.fail(ptr + "/op",
                   "expected gemm, context_attention, generation_attention or allreduce");
        if (*op == OpClass::AllReduce && !axes.contains("allreduce"))
            f.fail(ptr + "/op", "an allreduce grid needs the file's axes/allreduce");
        g.op = *op;
        g.backend = f.string(grids[i], "backend", ptr);
        g.variant = f.string(grids[i], "variant", ptr);
        if (!validVariant(g.op, g.variant))
            f.fail(ptr + "/variant", "expected " + variantChoices(g.op));
        g.samples = f.integer(grids[i], "samples", ptr, 0, 1 << 30);
        const Json& values = f.array(grids[i], "log_utilisation", ptr);
        if (values.size() != static_cast<std::size_t>(utilNodeCount(g.op)))
            f.fail(ptr + "/log_utilisation", "expected " + std::to_string(utilNodeCount(g.op)) +
                                                 " values, found " + std::to_string(values.size()));
        for (std::size_t v = 0; v < values.size(); ++v) {
            if (values[v].is_null()) {
                g.logU.push_back(std::numeric_limits<double>::quiet_NaN());
                continue;
            }
            // u = (roof + constant) / measured. Above e^3 a kernel would run 20 times faster
            // than its speed-of-light time plus launch constant (a log of 20 was accepted and
            // admitted faster-than-light latencies); below e^-10, 22,000 times slower. The
            // fitted datasets/utilisation.json spans [-3.8, 0.95].
            if (!values[v].is_number() || values[v].get<double>() < -10 ||
                values[v].get<double>() > 3)
                f.fail(ptr + "/log_utilisation/" + std::to_string(v),
                       "expected a log-utilisation in [-10, 3] or null");
            g.logU.push_back(values[v].get<double>());
        }
        if (g.backend == kAllBackends &&
            std::all_of(g.logU.begin(), g.logU.end(), [](double x) { return std::isnan(x); }))
            f.fail(ptr + "/log_utilisation", "a pooled grid needs at least one value");
        if (m.find(g.op, g.backend, g.variant))
            f.fail(ptr, "duplicate grid for this op, backend and variant");
        m.grids.push_back(std::move(g));
    }
    if (!m.find(OpClass::Gemm, kAllBackends, "bf16") ||
        !m.find(OpClass::ContextAttention, kAllBackends, "bf16") ||
        !m.find(OpClass::GenerationAttention, kAllBackends, "bf16"))
        f.fail("/grids", "expected pooled ('*') bf16 grids for every op class");
    m.inSample = parseApes(f, j, "in_sample");
    m.leaveOneGpuOut = parseApes(f, j, "leave_one_gpu_out");
    return m;
}

UtilisationModel loadUtilisationFile(const std::string& path)
{
    return parseUtilisation(parseJsonFile(path), path);
}

} // namespace acsel
