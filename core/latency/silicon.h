// End-to-end latency measurements in AIC's silicon CSV format (../shared/aic/silicon/
// dense_tp1.csv: one row per (model, system, backend, quant mode, isl, osl, concurrency)),
// and their mapping onto a workspace's stacks and models.
#pragma once

#include "core/model/config.h"
#include "core/model/workspace.h"

#include <string>
#include <vector>

namespace acsel
{

struct SiliconRow {
    int line = 0; // line in the file, for messages
    std::string id;
    std::string system, backend, backendVersion;
    std::string modelPath;     // HF id as measured ("meta-llama/Llama-3.1-8B-Instruct")
    std::string mode;          // "agg" (aggregated serving); empty when the column is absent
    std::string gemmQuantMode; // empty in some rows: bf16
    int isl = 0, osl = 0;
    int batch = 0; // batch_size = the benchmark concurrency
    int tp = 1, pp = 1;
    // How the experts of an MoE model were split (moe_tp_size x moe_ep_size = tp); 0 when the
    // file does not say (the columns absent, empty or 0).
    int moeTp = 0, moeEp = 0;
    double ttftMs = 0, tpotMs = 0;
};

// Rows of one concurrency sweep (same system, backend, model, GEMM format, isl and osl; only
// the concurrency differs) share one key: the unit FMC validates by (fmcchoice.h).
std::string sweepKey(const SiliconRow& r);
// Rows run at one concurrency (and tensor-parallel degree) share one key: the serving regime,
// the other error FMC's validation keeps apart (fmcchoice.h).
std::string loadKey(const SiliconRow& r);

// Throws LoadError naming file, line and column on a missing column or a bad value.
std::vector<SiliconRow> loadSiliconCsv(const std::string& path);
std::vector<SiliconRow> parseSiliconCsv(std::string text, const std::string& name);

// A row placed on the workspace: the uniform configuration and the request it measured.
struct SiliconMapping {
    bool ok = false;
    std::string reason; // why the row cannot be predicted (when !ok)
    int stack = -1;
    Config config;
    Request request;
    std::vector<std::string> assumptions; // what was assumed for this row
    std::string kvReason; // why config.kv is the format the engine ran (one of assumptions)
};

// Rules: stack = "<system>/<backend>" (the table version may differ from the measured
// backend version: an assumption); model by HF id family (org dropped, "-Instruct" and
// "-FP8" and "-NVFP4" suffixes and a "Meta-" prefix ignored, case-insensitive); empty
// gemm_quant_mode = bf16; uniform recipe at that format, full scope; KV cache as the engine serves
// that kind of checkpoint (the file does not say): fp8 for fp8 and nvfp4 rows (ModelOpt
// checkpoints) on stacks with fp8 KV tables, else bf16; batch = concurrency = batch_size; tp = gpus
// = tp_size; an MoE model's expert parallelism Config::moeEp = moe_ep_size (the engine's
// default 1 when not given; moe_tp_size x moe_ep_size must be tp_size). Rows with pp > 1, a tp_size
// the model cannot be split by (tpProblem), tp > 1 on a tabled stack without all-reduce tables
// or on a spec-only stack whose platform has no interconnect, a mode other than agg, an unknown
// model or format, or a format the stack has no table for are not ok. The request carries the
// row's release and that release's overhead from the workspace (requestoverhead.h).
SiliconMapping mapSiliconRow(const Workspace& ws, const SiliconRow& row);

// "llama-3.1-8b" from "meta-llama/Llama-3.1-8B-Instruct" or "nvidia/Llama-3.1-8B-Instruct-FP8".
std::string modelFamilyKey(const std::string& hfIdOrName);

} // namespace acsel
