#include "core/data/workspacefile.h"

#include "core/data/hfconfig.h"
#include "core/data/tablesdir.h"

#include <filesystem>

namespace acsel
{

Workspace parseWorkspace(const Json& j, const std::string& file, const std::string& tablesDir)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a workspace object");
    Workspace ws;
    ws.file = file;
    ws.schemaVersion = f.integer(j, "schema_version", "", 1, 1 << 20);
    if (ws.schemaVersion > kWorkspaceSchemaVersion)
        f.fail("/schema_version", "written by a newer ACSeL Studio (schema " +
                                      std::to_string(ws.schemaVersion) +
                                      "); this build reads "
                                      "schema " +
                                      std::to_string(kWorkspaceSchemaVersion));
    ws.name = f.string(j, "name", "");
    const Json& models = f.array(j, "models", "");
    if (models.empty())
        f.fail("/models", "expected at least one model");
    for (std::size_t i = 0; i < models.size(); ++i) {
        const std::string ptr = "/models/" + std::to_string(i);
        const Json& m = models[i];
        if (!m.is_object())
            f.fail(ptr, "expected a model object");
        ModelArch arch = parseHfConfig(f.object(m, "config", ptr), file, ptr + "/config");
        arch.name = f.string(m, "name", ptr);
        arch.hfId = f.string(m, "hf_id", ptr);
        if (ws.findModel(arch.name))
            f.fail(ptr + "/name", "duplicate model name '" + arch.name + "'");
        ws.models.push_back(std::move(arch));
    }
    const std::string base = std::filesystem::path(file).parent_path().string();
    if (j.contains("quality")) {
        const Json& q = f.object(j, "quality", "");
        ws.qualityFile = (std::filesystem::path(base) / f.string(q, "file", "/quality")).string();
        ws.qualitySynthetic = f.boolean(q, "synthetic", "/quality");
    }
    if (!tablesDir.empty())
        attachTables(ws, tablesDir);
    else
        ws.notes.push_back("No operator tables: point the tool at an AIConfigurator-style tables "
                           "directory with --tables DIR or the ACSEL_TABLES variable.");
    return ws;
}

void attachTables(Workspace& ws, const std::string& tablesDir)
{
    for (DiscoveredStack& d : discoverStacks(tablesDir)) {
        auto p = ws.findPlatform(d.platform.id);
        if (!p) {
            ws.platforms.push_back(d.platform);
            p = static_cast<int>(ws.platforms.size() - 1);
        }
        d.stack.platform = *p;
        ws.stacks.push_back(std::move(d.stack));
    }
    ws.tablesDir = tablesDir;
}

Workspace loadWorkspace(const std::string& path, const std::string& tablesDir)
{
    return parseWorkspace(parseJsonFile(path), path, tablesDir);
}

} // namespace acsel
