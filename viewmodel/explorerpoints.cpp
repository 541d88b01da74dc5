#include "viewmodel/explorerpoints.h"

#include "core/search/explorer.h"

#include <algorithm>

namespace acsel::gui
{

std::shared_ptr<PointSet> emptyPointSet(const Engine& e)
{
    auto set = std::make_shared<PointSet>();
    set->synthetic = e.qualitySynthetic();
    set->provenance = "Predicted by the search engine's explorer: FracMix latency (FMC-calibrated "
                      "when a calibration is loaded), memory, surrogate RMQD";
    if (set->synthetic)
        set->provenance += " fitted on SYNTHETIC quality data";
    return set;
}

std::shared_ptr<PointSet> pointSetOf(const Engine& e, const std::vector<int>& models,
                                     const Explorer& ex)
{
    auto set = emptyPointSet(e);
    std::vector<int> slotOf(e.workspace().models.size(), -1);
    for (int m : models) {
        slotOf[static_cast<std::size_t>(m)] = static_cast<int>(set->modelNames.size());
        set->modelNames.push_back(e.workspace().models[static_cast<std::size_t>(m)].name);
    }
    const auto& pts = ex.points();
    set->points.reserve(pts.size());
    set->configs.reserve(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const ExplorerPoint& p = pts[i];
        const int slot = slotOf[static_cast<std::size_t>(ex.context(i).model)];
        set->points.push_back(
            {p.ttftMs, p.tpotMs, p.rmqd, p.memoryGiB, static_cast<std::uint32_t>(i),
             static_cast<std::uint16_t>(std::max(0, slot)), formatFamily(p.recipe), p.uniform});
        set->configs.push_back(ex.config(i));
    }
    return set;
}

} // namespace acsel::gui
