// Shared inputs of the export tests: the acceptance recipe on the real Qwen3-8B architecture
// (from the bundled workspace) and a small synthetic architecture for compact golden files.
#pragma once

#include "core/data/workspacefile.h"
#include "core/export/exportinput.h"
#include "modelfixtures.h"

#include <stdexcept>

namespace exporttest
{

using namespace acsel;

inline int workspaceModelIndex(const std::string& name)
{
    const Workspace ws = loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
    const auto i = ws.findModel(name);
    if (!i)
        throw std::runtime_error("test fixture: no model " + name + " in the workspace");
    return *i;
}

inline ModelArch workspaceModel(const std::string& name)
{
    const Workspace ws = loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
    return ws.models[static_cast<std::size_t>(workspaceModelIndex(name))];
}

// A synthetic 4-layer Llama-shaped architecture (not a real model) so that golden files of
// every format family stay small enough to read.
inline ModelArch tinyArch()
{
    ModelArch a = acsel::test::tinyArch(4);
    a.name = "tiny-llama-4L-synthetic";
    a.hfId = "acsel-test/tiny-llama-4L-synthetic";
    a.family = "llama";
    return a;
}

inline Config makeConfig(int layers, std::initializer_list<int> cuts,
                         std::initializer_list<std::pair<Format, Scope>> bands, Algorithm a,
                         KvFormat kv, bool lmHead = false, int batch = 8)
{
    Config c;
    c.batch = batch;
    c.recipe = BandRecipe::fromCuts(layers, cuts, bands);
    c.algorithm = a;
    c.kv = kv;
    c.lmHeadQuantized = lmHead;
    return c;
}

inline Request makeRequest(const std::string& stack)
{
    Request q;
    q.stack = stack;
    q.isl = 1024;
    q.osl = 256;
    q.concurrency = 8;
    q.ttftBudgetMs = 500;
    q.tpotBudgetMs = 30;
    q.memBudgetGiB = 40;
    return q;
}

// The acceptance recipe: Qwen3-8B, layers 0-9 fp8, 10-27 nvfp4, 28-35 bf16, KV fp8.
inline ExportInput acceptanceInput()
{
    ExportInput in;
    in.arch = workspaceModel("Qwen3-8B");
    in.config = makeConfig(
        36, {10, 28},
        {{Format::Fp8, Scope::Full}, {Format::Nvfp4, Scope::Full}, {Format::Bf16, Scope::Full}},
        Algorithm::Max, KvFormat::Fp8);
    in.config.model = workspaceModelIndex("Qwen3-8B");
    in.request = makeRequest("b200_sxm/trtllm");
    in.predictions =
        Prediction{.ttftMs = 412.3, .tpotMs = 21.7, .memoryBytes = 18.2 * kGiB, .rmqd = 0.0123};
    in.predictionNote = "hand-written test values";
    return in;
}

} // namespace exporttest
