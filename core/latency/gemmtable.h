// GEMM latency lookup of one stack: one dense (m, n, k) grid per format, built at load from
// the AIC gemm table.
//
// Policies (docs/LATENCY.md):
//  - between grid points: multilinear interpolation, linear in m, n and k (latency is close
//    to proportional to each dimension once a GEMM is large; AIC is linear in m too);
//  - cells the campaign skipped (e.g. n = k = 65536): utilisation held from the nearest
//    smaller measured shape along k, then n, then m (Grid3::fill with speed-of-light work);
//  - measured values below speed of light are raised to it (as AIC);
//  - outside the grid (lm_head n = 151936 > 65536, m > 32768): the clamped in-grid value
//    times max(1, SOL(shape) / SOL(clamped shape)), i.e. utilisation held against speed of
//    light, never faster than the edge of the grid.
// Speed of light: max(2 m n k / peak(format's compute class), bytes(format) (mn + mk + nk) /
// mem_bw), as AIC.
#pragma once

#include "core/data/aictables.h"
#include "core/latency/grid3.h"
#include "core/model/platform.h"

#include <array>

namespace acsel
{

class GemmTable
{
public:
    GemmTable() = default;
    // Throws LoadError (naming `file`) when a format's grid cannot be completed.
    GemmTable(const std::vector<GemmRow>& rows, const Platform& platform, const std::string& file);

    bool has(Format f) const { return present_[static_cast<std::size_t>(f)]; }
    // NaN when the format has no table.
    double lookup(Format f, double m, double n, double k) const;
    // Cells filled (not measured) per format, and cells raised to speed of light: for reports.
    int filledCells(Format f) const { return filled_[static_cast<std::size_t>(f)]; }
    int raisedCells() const { return raised_; }

private:
    double sol(Format f, double m, double n, double k) const;

    // Speed-of-light inputs per format, copied from the platform (no pointer to it is kept).
    std::array<double, kFormatCount> peakFlops_{};
    std::array<double, kFormatCount> bytesPerElement_{};
    double memBandwidth_ = 0;
    std::array<Grid3, kFormatCount> grids_{};
    std::array<bool, kFormatCount> present_{};
    std::array<int, kFormatCount> filled_{};
    int raised_ = 0;
};

} // namespace acsel
