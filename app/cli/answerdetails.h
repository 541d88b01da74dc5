// How the CLI prints one answer, shared by search, recommend and predict --config: the request
// line (with the GPU's memory and the cap it puts on the budget), the configuration in words,
// the predicted throughput; the breakdowns' rows are app/common/breakdownrows.h's.
#pragma once

#include "app/common/breakdownrows.h"
#include "core/data/configjson.h"
#include "core/latency/memorymodel.h"
#include "core/latency/opmodel.h"
#include "core/latency/throughput.h"
#include "core/model/workspace.h"
#include "core/search/gate.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace acsel::cli
{

using app::BreakdownRows;
using app::memoryRows;
using app::operatorRows;

// "Qwen3-32B, batch 8, 0-18 bf16 | 19-63 fp8/full, max, KV bf16"
std::string describeConfig(const Workspace& ws, const Config& c);

// "request: h100_sxm/trtllm, isl 1024, ..., memory <= 48.00 GiB (GPU memory 79.65 GiB)"; when
// the device's memory is below the budget it says the search uses the device's instead.
void printRequestLine(std::ostream& out, const Request& q, const Platform& gpu);

// The notes a configuration document carries on its predictions, joined with "; ".
std::string predictionNote(const std::vector<std::string>& notes);

// " (engine 79.20 GiB at --gpu-memory-utilization 0.99)", after the memory estimate: what the
// stack's engine takes at the memory flag acsel launch sets for the configuration
// (engineMemoryText); empty for an engine without a memory model.
std::string engineMemoryNote(const Engine& e, const Config& c, const Request& q);

// "  throughput: 46.2 tokens/s per user, 369.6 tokens/s per GPU, 1.44 requests/s"
void printThroughput(std::ostream& out, const Throughput& t);

} // namespace acsel::cli
