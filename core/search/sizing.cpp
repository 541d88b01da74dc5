#include "core/search/sizing.h"

namespace acsel
{

std::vector<SizingRow> sizeByGpus(const Engine& e, const Request& q, const SearchOptions& o,
                                  SearchAlgorithm algorithm, const ProgressFn& progress,
                                  const std::atomic<bool>& stop)
{
    const std::unique_ptr<Searcher> searcher = algorithm.make();
    std::vector<SizingRow> rows;
    for (std::size_t i = 0; i < kSizingGpus.size(); ++i) {
        Request sized = q;
        sized.gpus = kSizingGpus[i];
        const double share = 1.0 / static_cast<double>(kSizingGpus.size());
        const ProgressFn rowProgress = [&](double f) {
            if (progress)
                progress((static_cast<double>(i) + f) * share);
        };
        rows.push_back({sized.gpus, searcher->run(e, sized, o, rowProgress, stop)});
        if (rows.back().result.cancelled)
            break;
    }
    return rows;
}

} // namespace acsel
