#include "core/latency/gemmtable.h"

#include "core/data/loaderror.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acsel
{
namespace
{

double peakFor(const Platform& p, Format f)
{
    const double peak = p.peakFlops(facts(f).compute);
    return peak > 0 ? peak : p.peakFlops(ComputeClass::Bf16);
}

double solMs(double peak, double bytesPerElement, double bandwidth, double m, double n, double k)
{
    const double compute = 2.0 * m * n * k / peak;
    const double memory = bytesPerElement * (m * n + m * k + n * k) / bandwidth;
    return std::max(compute, memory) * 1e3;
}

} // namespace

double GemmTable::sol(Format f, double m, double n, double k) const
{
    const auto i = static_cast<std::size_t>(f);
    return solMs(peakFlops_[i], bytesPerElement_[i], memBandwidth_, m, n, k);
}

GemmTable::GemmTable(const std::vector<GemmRow>& rows, const Platform& platform,
                     const std::string& file)
    : memBandwidth_(platform.memBandwidth)
{
    for (Format f : kAllFormats) {
        const auto fi = static_cast<std::size_t>(f);
        peakFlops_[fi] = peakFor(platform, f);
        bytesPerElement_[fi] = facts(f).gemmBytesPerElement;
        std::array<std::vector<double>, 3> axes;
        for (const GemmRow& r : rows)
            if (r.format == f) {
                axes[0].push_back(r.m);
                axes[1].push_back(r.n);
                axes[2].push_back(r.k);
            }
        if (axes[0].empty())
            continue;
        for (auto& a : axes)
            a = Grid3::axisOf(std::move(a));
        Grid3 g(std::move(axes),
                {Grid3::Scale::Linear, Grid3::Scale::Linear, Grid3::Scale::Linear});
        for (const GemmRow& r : rows) {
            if (r.format != f)
                continue;
            const double floor = sol(f, r.m, r.n, r.k);
            if (r.ms < floor)
                ++raised_;
            g.set(g.indexOf(0, r.m), g.indexOf(1, r.n), g.indexOf(2, r.k), std::max(r.ms, floor));
        }
        filled_[fi] = g.missingCount();
        if (!g.fill({2, 1, 0}, [&](double m, double n, double k) { return sol(f, m, n, k); }))
            throw LoadError(file, "gemm_dtype " + std::string(facts(f).aicDtype),
                            "cannot complete the (m, n, k) grid from the measured rows");
        grids_[fi] = std::move(g);
        present_[fi] = true;
    }
}

double GemmTable::lookup(Format f, double m, double n, double k) const
{
    const auto fi = static_cast<std::size_t>(f);
    if (!present_[fi])
        return std::numeric_limits<double>::quiet_NaN();
    std::array<double, 3> c{};
    const double t = grids_[fi].interpolate(m, n, k, c);
    if (c[0] == m && c[1] == n && c[2] == k)
        return t;
    return t * std::max(1.0, sol(f, m, n, k) / sol(f, c[0], c[1], c[2]));
}

} // namespace acsel
