// The ordered ModelOpt quant_cfg entries of a plan, independent of the file syntax: the YAML
// recipe and the legacy JSON dict both serialise this list, and the reader consumes the same
// type. Order: disable every quantizer; then, layer by layer, each quantized linear's weight
// and input quantizer by its explicit module name (never a glob such as '*layers.1*', which
// also hits layers 10-19), an MoE layer's routed experts by one glob under the layer's experts
// ("model.layers.3.mlp.experts.*.gate_proj.weight_quantizer"); the KV-cache entry; lm_head's
// entries (disabled unless quantized). No entry enables an MoE router's quantizers.
#pragma once

#include "core/export/numerics.h"
#include "core/export/quantplan.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

struct CfgEntry {
    std::string pattern;         // quantizer_name (fnmatch glob or exact name)
    std::optional<Numerics> cfg; // replaces the quantizer's attributes
    std::optional<bool> enable;  // with cfg: defaults to true; alone: toggles
    std::string where;           // location in the file, for errors when read back
};

inline constexpr std::string_view kDisableAll = "*";
inline constexpr std::string_view kKvPattern = "*[kv]_bmm_quantizer";
inline constexpr std::string_view kLmHeadPattern = "lm_head.*";

std::vector<CfgEntry> quantCfgEntries(const QuantPlan& plan, const ModelArch& arch);

} // namespace acsel
