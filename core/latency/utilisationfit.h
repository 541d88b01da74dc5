// Fitting the empirical model's utilisation from measured operator tables, and measuring how
// well it transfers: leave-one-GPU-out (fit on the other GPUs, predict every table entry of
// the held-out one). See docs/GPUS.md for the method and the report.
#pragma once

#include "core/data/aictables.h"
#include "core/data/commtables.h"
#include "core/latency/utilisationmodel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace acsel
{

// One measured table entry, reduced to what the fit needs.
struct UtilSample {
    std::array<float, 3> shape; // GEMM (m, n, k); attention (batch, seq, 1); all-reduce
                                // (gpus, elements, 1)
    double roofMs;              // speed-of-light roof on the GPU's spec sheet (no constant)
    double measuredMs;
    OpClass op;
    std::uint8_t variant; // Format (GEMM), KvFormat (attention), Interconnect (all-reduce)
    std::uint8_t backend; // index into UtilisationSamples::backends
    std::uint16_t system; // index into UtilisationSamples::systems
};

class UtilisationSamples
{
public:
    // Adds every entry of one stack's tables; SOL from `spec` (the GPU's spec-sheet entry,
    // never the tables' own yaml, so that the fitted utilisation means the same on a GPU that
    // has only a spec sheet). Context rows with fp8 attention compute are skipped (the op
    // model costs bf16 attention).
    void addStack(const std::string& system, const std::string& backend, const Platform& spec,
                  const AicTable<GemmRow>& gemm, const AicTable<AttentionRow>& context,
                  const AicTable<AttentionRow>& generation);
    // Adds a GPU's NCCL all-reduce table (<system>/nccl_perf.csv) as OpClass::AllReduce
    // samples of the GPU's interconnect; SOL from the spec's link bandwidth. Only pooled
    // grids are fitted for them: NCCL is the system's, not a backend's. Nothing is added for
    // a spec without an interconnect.
    void addCollectives(const std::string& system, const Platform& spec,
                        const AicTable<CommRow>& nccl);

    const std::vector<UtilSample>& samples() const { return samples_; }
    const std::vector<std::string>& systems() const { return systems_; }
    const std::vector<std::string>& backends() const { return backends_; }
    const std::vector<std::string>& stacks() const { return stacks_; }

private:
    std::uint16_t systemIndex(const std::string& s);
    std::uint8_t backendIndex(const std::string& b);

    std::vector<UtilSample> samples_;
    std::vector<std::string> systems_, backends_, stacks_;
};

// Fits the grids on all samples except those of `excludeSystem` (-1: none). A backend's own
// grid node needs kMinBackendNodeSamples entries; pooled nodes need one.
// A backend node is kept only where it differs from the pooled node by more than
// kBackendNodeTolerance in log u (2%).
inline constexpr int kMinBackendNodeSamples = 3;
inline constexpr double kBackendNodeTolerance = 0.02;
UtilisationModel fitUtilisation(const UtilisationSamples& s, double solConstantMs,
                                int excludeSystem = -1);

// Absolute percentage errors of the model's predictions against the samples: one summary per
// (GPU, op class), per (GPU, op class, variant), and per (stack, op class) when perStack.
// onlySystem >= 0 restricts the samples to that GPU.
std::vector<ApeSummary> evaluateUtilisation(const UtilisationModel& m, const UtilisationSamples& s,
                                            int onlySystem, bool perStack);

// Leave-one-GPU-out: for every GPU, fit on the others and evaluate on it.
std::vector<ApeSummary> leaveOneGpuOut(const UtilisationSamples& s, double solConstantMs);

// Median and p90 of a list of values (modified in place); {0, 0} when empty.
std::array<double, 2> medianAndP90(std::vector<double>& values);

} // namespace acsel
