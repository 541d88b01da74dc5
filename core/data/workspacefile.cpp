#include "core/data/workspacefile.h"

#include "core/data/hfconfig.h"
#include "core/data/inputfile.h"
#include "core/data/requestoverheadsfile.h"
#include "core/data/specstacks.h"
#include "core/data/tablesdir.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

// A file the workspace names, relative to the workspace's folder. Checked here, so that a
// missing one names the field that named it, not only the path.
std::string referencedFile(const JsonFields& f, const Json& parent, const std::string& key,
                           const std::string& ptr, const std::string& base)
{
    const std::string name = f.string(parent, key, ptr);
    const std::string path = (std::filesystem::path(base) / name).string();
    try {
        requireRegularFile(path);
    } catch (const LoadError& e) {
        f.fail(ptr + "/" + key, "names '" + name + "' (" + path + "), which " + e.message());
    }
    return path;
}

} // namespace

Workspace parseWorkspace(const Json& j, const std::string& file, const std::string& tablesDir)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a workspace object");
    // A misspelt optional key ("utilization", "qualty") would silently drop what it names.
    f.onlyKeys(j, "",
               {"schema_version", "name", "provenance", "platforms", "utilisation",
                "request_overheads", "quality", "models"});
    Workspace ws;
    ws.file = file;
    ws.schemaVersion = f.schemaVersion(j, 1, kWorkspaceSchemaVersion);
    ws.name = f.string(j, "name", "");
    const Json& models = f.array(j, "models", "");
    if (models.empty())
        f.fail("/models", "expected at least one model");
    for (std::size_t i = 0; i < models.size(); ++i) {
        const std::string ptr = "/models/" + std::to_string(i);
        const Json& m = models[i];
        if (!m.is_object())
            f.fail(ptr, "expected a model object");
        f.onlyKeys(m, ptr, {"name", "hf_id", "config"});
        ModelArch arch = parseHfConfig(f.object(m, "config", ptr), file, ptr + "/config");
        arch.name = f.string(m, "name", ptr);
        arch.hfId = f.string(m, "hf_id", ptr);
        // Both name the model to the user, in requests and in exports: a blank one names nothing.
        if (arch.name.find_first_not_of(" \t") == std::string::npos)
            f.fail(ptr + "/name", "expected a model name (found an empty one)");
        if (arch.hfId.empty() || arch.hfId.find_first_of(" \t") != std::string::npos)
            f.fail(ptr + "/hf_id", "expected a Hugging Face id such as \"Qwen/Qwen3-8B\" (found '" +
                                       arch.hfId + "')");
        if (ws.findModel(arch.name))
            f.fail(ptr + "/name", "duplicate model name '" + arch.name + "'");
        ws.models.push_back(std::move(arch));
    }
    const std::string base = std::filesystem::path(file).parent_path().string();
    if (j.contains("quality")) {
        const Json& q = f.object(j, "quality", "");
        f.onlyKeys(q, "/quality", {"file", "synthetic"});
        ws.qualityFile = referencedFile(f, q, "file", "/quality", base);
        ws.qualitySynthetic = f.boolean(q, "synthetic", "/quality");
    }
    if (j.contains("platforms"))
        ws.platformsFile = referencedFile(f, j, "platforms", "", base);
    if (j.contains("utilisation"))
        ws.utilisationFile = referencedFile(f, j, "utilisation", "", base);
    if (j.contains("request_overheads")) {
        ws.requestOverheadsFile = referencedFile(f, j, "request_overheads", "", base);
        ws.requestOverheads = loadRequestOverheads(ws.requestOverheadsFile);
    }
    if (!tablesDir.empty())
        attachTables(ws, tablesDir);
    else
        ws.notes.push_back("No operator tables: point the tool at an AIConfigurator-style tables "
                           "directory with --tables DIR or the ACSEL_TABLES variable.");
    // GPUs of the platforms file without tables join with the empirical latency model.
    if (!ws.platformsFile.empty())
        attachSpecOnlyStacks(ws, ws.platformsFile);
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
