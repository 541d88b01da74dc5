// acsel info: what the workspace holds (models, stacks, formats, configuration-space sizes).
// Every stack's operator tables are loaded and checked as a search would load them, so a
// damaged table is refused here with the search's message, not at the first search.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "core/latency/tablescheck.h"
#include "core/model/configspace.h"
#include "core/model/defaults.h"
#include "core/model/tensorparallel.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace acsel::cli
{
namespace
{

SpaceOptions spaceFor(const Stack& s, bool withDims)
{
    SpaceOptions o;
    o.formats = s.formats;
    if (!withDims) {
        o.scopes = {Scope::Full};
        return o;
    }
    o.batches.assign(kDefaultBatches.begin(), kDefaultBatches.end());
    o.kvFormats = s.kvFp8 ? std::vector<KvFormat>{KvFormat::Bf16, KvFormat::Fp8}
                          : std::vector<KvFormat>{KvFormat::Bf16};
    return o;
}

std::string formatList(const Stack& s)
{
    std::string out;
    for (Format f : s.formats)
        out += (out.empty() ? "" : ",") + std::string(toString(f));
    return out;
}

// The tensor-parallel degrees a request with 8 GPUs searches for the model on the stack:
// those dividing its heads, beyond 1 only where the stack has all-reduce tables or (without
// tables) its GPU an interconnect.
std::vector<int> degreesOn8Gpus(const Workspace& ws, const Stack& s, const ModelArch& m)
{
    const bool split = s.hasAllReduce() || (s.source == LatencySource::Empirical &&
                                            ws.platformOf(s).interconnect != Interconnect::None);
    return tpDegrees(m, kMaxGpus, [&](int tp) { return tp == 1 || split; });
}

std::string joined(const std::vector<int>& v)
{
    std::string out;
    for (int x : v)
        out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"json", "", "print JSON instead of text"});
    const app::Args args("info", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const Workspace ws = loadWorkspaceFromArgs(args);
    std::vector<TableStack> tableStacks;
    for (const Stack& s : ws.stacks)
        if (s.source == LatencySource::Tables)
            tableStacks.push_back({&s, &ws.platformOf(s)});
    const std::vector<StackTablesInfo> checked = checkStackTables(tableStacks);
    // What a table stack's loaders kept (gemm, context, generation).
    auto tablesOf = [&](const Stack& s) -> const StackTablesInfo& {
        std::size_t i = 0;
        while (tableStacks[i].stack != &s)
            ++i;
        return checked[i];
    };

    nlohmann::json j;
    j["workspace"] = ws.file;
    j["name"] = ws.name;
    j["tables_dir"] = ws.tablesDir;
    j["notes"] = ws.notes;
    for (const ModelArch& m : ws.models) {
        nlohmann::json jm{{"name", m.name},
                          {"hf_id", m.hfId},
                          {"layers", m.layers},
                          {"params", m.paramCount()},
                          {"tied_embeddings", m.tiedEmbeddings}};
        if (m.isMoe())
            jm["moe"] = {{"active_params", m.activeParamCount()},
                         {"experts", m.moe.experts},
                         {"experts_per_token", m.moe.topk},
                         {"moe_layers", m.moeLayers()}};
        j["models"].push_back(jm);
    }
    j["stacks"] = nlohmann::json::array();
    for (const Stack& s : ws.stacks) {
        nlohmann::json js{
            {"id", s.id},
            {"system", ws.platformOf(s).id},
            {"backend", s.backend},
            {"version", s.version},
            {"kv_fp8", s.kvFp8},
            {"latency_source", s.source == LatencySource::Tables ? "tables" : "empirical"}};
        if (s.source == LatencySource::Tables) {
            const StackTablesInfo& t = tablesOf(s);
            js["tables_checked"] = {{"gemm_rows", t[0].rowsKept},
                                    {"context_rows", t[1].rowsKept},
                                    {"generation_rows", t[2].rowsKept}};
        }
        js["formats"] = nlohmann::json::array();
        for (Format f : s.formats)
            js["formats"].push_back(toString(f));
        for (const ModelArch& m : ws.models) {
            const ConfigSpace recipesOnly(m.layers, spaceFor(s, false));
            const ConfigSpace full(m.layers, spaceFor(s, true));
            const std::vector<int> tps = degreesOn8Gpus(ws, s, m);
            js["space"][m.name] = {{"recipes_full_scope", recipesOnly.recipeCount()},
                                   {"recipes", full.recipeCount()},
                                   {"configurations", full.configCount()},
                                   {"tp_degrees_8_gpus", tps},
                                   {"configurations_8_gpus",
                                    full.configCount() * static_cast<std::int64_t>(tps.size())}};
        }
        j["stacks"].push_back(js);
    }
    if (args.flag("json")) {
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << ws.name << " (" << ws.file << ")\n";
    for (const std::string& n : ws.notes)
        io.out << "note: " << n << "\n";
    io.out << "\nmodels:\n";
    for (const ModelArch& m : ws.models) {
        io.out << "  " << std::left << std::setw(16) << m.name << std::right << std::setw(3)
               << m.layers << " layers  " << std::fixed << std::setprecision(2)
               << static_cast<double>(m.paramCount()) / 1e9 << " B params  " << m.hfId;
        if (m.isMoe())
            io.out << "  MoE: " << static_cast<double>(m.activeParamCount()) / 1e9 << " B active, "
                   << m.moe.experts << " experts, " << m.moe.topk << " per token";
        io.out << "\n";
    }
    io.out << "\nstacks (" << ws.stacks.size() << "):\n";
    for (const Stack& s : ws.stacks) {
        io.out << "  " << std::left << std::setw(30) << s.id << std::setw(12) << s.version
               << "formats " << formatList(s) << (s.kvFp8 ? "  kv fp8" : "") << "\n";
        if (s.source == LatencySource::Tables) {
            const StackTablesInfo& t = tablesOf(s);
            io.out << "      tables loaded and checked: gemm " << t[0].rowsKept << ", context "
                   << t[1].rowsKept << ", generation " << t[2].rowsKept << " rows kept\n";
        } else {
            io.out << "      no tables: spec sheet and utilisation model\n";
        }
        for (const ModelArch& m : ws.models) {
            const ConfigSpace full(m.layers, spaceFor(s, true));
            const std::vector<int> tps = degreesOn8Gpus(ws, s, m);
            io.out << "      " << std::setw(16) << m.name << std::right << std::setw(10)
                   << full.recipeCount() << " recipes " << std::setw(12) << full.configCount()
                   << " configurations";
            if (tps.size() > 1)
                io.out << ", " << full.configCount() * static_cast<std::int64_t>(tps.size())
                       << " with 8 GPUs (tp " << joined(tps) << ")";
            io.out << "\n" << std::left;
        }
    }
    return 0;
}

const RegisterCommand reg("info", "list the workspace's models, stacks, formats and space sizes",
                          &run);

} // namespace
} // namespace acsel::cli
