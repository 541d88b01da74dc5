// A preview of the hf_quant_config.json that ModelOpt's HF export writes for the recipe
// (docs/EXPORT.md): what vLLM (quantization="modelopt") and TensorRT-LLM will read from the
// exported checkpoint. More than one quantized format: quant_algo MIXED_PRECISION with
// quantized_layers naming exactly the quantized linears; one format: that quant_algo with the
// unquantized linears in exclude_modules (ModelOpt's single-format shape). An MoE layer's
// routed experts go by one glob per linear ("model.layers.3.mlp.experts.*.gate_proj"); its
// router is always in exclude_modules.
#pragma once

#include "core/export/exportinput.h"

#include <string>
#include <string_view>

namespace acsel
{

std::string hfQuantConfigPreview(const ExportInput& in);
// The per-layer quant_algo a format exports as: FP8, W8A8_SQ_PER_CHANNEL, W8A16, W4A16_AWQ,
// NVFP4, FP8_PB_WO; empty for bf16.
std::string_view hfQuantAlgo(Format f);

} // namespace acsel
