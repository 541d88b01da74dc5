// Whether a configuration can be exported for NVIDIA ModelOpt (docs/EXPORT.md#exportability-rules),
// shared with the search's legality test: isExportable is the cheap, allocation-free check for the
// search's hot path; exportProblems says why not, one clear message per violation.
//
// Rules: the band recipe is well formed for the model; every band's format is one the stack
// runs (when a stack is given); the one global calibration algorithm fits every band (no
// SmoothQuant or AWQ band mixed with fp8/nvfp4 bands); nothing quantized means algorithm max;
// fused groups (q/k/v, gate/up) share a format; block formats divide the linears' input
// features; a quantized lm_head needs a quantized last band and untied embeddings; an fp8 KV
// cache needs a stack with fp8 KV attention.
#pragma once

#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/platform.h"

#include <string>
#include <vector>

namespace acsel
{

bool isExportable(const ModelArch& arch, const Config& c, const Stack* stack = nullptr);
std::vector<std::string> exportProblems(const ModelArch& arch, const Config& c,
                                        const Stack* stack = nullptr);

} // namespace acsel
