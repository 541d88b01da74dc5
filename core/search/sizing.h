// Sizing: the best configuration of one request for each GPU count of a node, in one answer
// ("1 GPU: none; 2 GPUs: an fp8 band recipe; 4 GPUs: bf16"), where a minimum-GPU
// recommendation gives one row. Each row is the searcher's answer with that many GPUs
// available, so it may use fewer (the tie rule prefers fewer GPUs at equal RMQD): a row that
// repeats a smaller one says that more GPUs buy nothing for this request.
#pragma once

#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"

#include <array>
#include <atomic>
#include <vector>

namespace acsel
{

inline constexpr std::array<int, 4> kSizingGpus{1, 2, 4, 8};

struct SizingRow {
    int gpus = 1; // GPUs available to the search; the answer's Config::tp may be fewer
    SearchResult result;
};

// One row per kSizingGpus entry, in order; q.gpus is ignored. Stops early (fewer rows, the
// last one cancelled) when `stop` is raised. Progress runs 0 to 1 over the rows.
std::vector<SizingRow> sizeByGpus(const Engine& e, const Request& q, const SearchOptions& o,
                                  SearchAlgorithm algorithm, const ProgressFn& progress,
                                  const std::atomic<bool>& stop);

} // namespace acsel
