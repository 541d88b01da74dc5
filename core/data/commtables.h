// Loaders for AIC's all-reduce tables (docs/DATA.md 1): a stack's
// <system>/<backend>/<version>/custom_allreduce_perf.csv (the engine's own all-reduce) and the
// system's <system>/nccl_perf.csv (NCCL collectives). message_size counts elements (bf16 /
// half: the activations), latency is ms for one call on each of num_gpus GPUs.
//
// Rows kept: custom all-reduce rows of the CUDA-graph kernels (kernel_source or backend /
// implementation ending in "_eager" are skipped: the engines capture their steps in CUDA
// graphs, as AIC assumes); NCCL rows of nccl_dtype half and op all_reduce. The converted NCCL
// files carry no op_name column: each (nccl_dtype, num_gpus) then holds four runs of rising
// message_size in the collector's order all_gather, alltoall, reduce_scatter, all_reduce
// (upstream collector/collect_comm.sh), and the fourth run is the all-reduce (it matches the
// engines' own all-reduce at large messages within 1 %). A key met twice keeps its first row.
#pragma once

#include "core/data/aictables.h"

#include <string>

namespace acsel
{

struct CommRow {
    int gpus;
    double elements; // message size in elements
    double ms;
};

// Throw LoadError (file, line and column) on a missing column, a malformed or non-positive
// number, or (NCCL without op_name) a (dtype, num_gpus) whose runs are not the four expected.
AicTable<CommRow> loadCustomAllReduceTable(const std::string& path);
AicTable<CommRow> loadNcclAllReduceTable(const std::string& path);
AicTable<CommRow> parseCustomAllReduceTable(std::string text, const std::string& name);
AicTable<CommRow> parseNcclAllReduceTable(std::string text, const std::string& name);

} // namespace acsel
