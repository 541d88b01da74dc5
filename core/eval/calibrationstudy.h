// How many profiles FMC needs and how it may hurt: per stack of a silicon file, draws of K
// profiles (one concurrency sweep, one concurrency, or spread over the estimates as `acsel plan
// latency` and `acsel report latency` draw them), the form chooseFmc keeps on them, and the
// MdAPE of the raw and the calibrated estimate on every other row of the stack (rows the
// profiles never saw). The figures of docs/LATENCY.md ("How many profiles") and the property
// test of tests/core/test_calibrationstudy.cpp come from it.
#pragma once

#include "core/latency/fmcchoice.h"
#include "core/latency/siliconstudy.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

// How the K profiles of a draw are picked among a stack's profile candidates.
enum class ProfileDraw : std::uint8_t {
    OneSweep, // K rows of one concurrency sweep (model, format, isl, osl), drawn at random
    OneLoad,  // K rows of one concurrency, drawn at random
    Spread,   // selectStratified on the raw TTFT estimate (one per stratum)
    // selectIndependent (fmcchoice.h): as Spread, each pick of a new sweep and concurrency when
    // its stratum has one; the profiles `acsel plan latency` picks
    Independent,
};
// "one-sweep", "one-concurrency", "spread", "independent"
std::string_view toString(ProfileDraw d);

struct CalibrationDraw {
    std::string stack;
    ProfileDraw draw = ProfileDraw::Spread;
    int profiles = 0, heldOut = 0, independent = 0;
    std::uint64_t seed = 0;
    // Per metric (index LatencyMetric): MdAPE (%) on the held-out rows, and the form kept.
    std::array<double, 2> raw{}, fmc{};
    std::array<FmcForm, 2> form{};
    // The calibrated 90 % predictive interval on the held-out rows (at each row's concurrency,
    // fmcchoice.h rowSpread): mean half-width factor sqrt(high / low) and the share holding the
    // measurement; NaN when the profiles give no interval.
    std::array<double, 2> width{}, coverage{};
};

struct CalibrationStudyOptions {
    std::vector<int> profileCounts{3, 4, 5, 6, 7, 8};
    std::vector<ProfileDraw> draws{ProfileDraw::OneSweep, ProfileDraw::OneLoad,
                                   ProfileDraw::Spread};
    int seeds = 20; // draws per stack, kind and K
    double tau = 0.5;
    FmcRule rule;
};

// Seeds 0 .. seeds-1 for every stack of p, draw kind and K; a (stack, kind, K) without K
// candidates of one sweep or concurrency, or with no row left to judge, yields no draw.
std::vector<CalibrationDraw> runCalibrationStudy(const SiliconPrediction& p, const Workspace& ws,
                                                 const CalibrationStudyOptions& o);

// FMC's held-out MdAPE above raw by more than `tolerance` (relative: 0.05 is 5 %).
bool hurts(const CalibrationDraw& d, LatencyMetric m, double tolerance);

} // namespace acsel
