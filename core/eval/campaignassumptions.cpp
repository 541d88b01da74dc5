#include "core/eval/campaignassumptions.h"

#include "core/model/backend.h"
#include "core/model/units.h"

#include <sstream>

namespace acsel
{
namespace
{

bool pythonEngine(const Stack& s)
{
    const auto b = parseBackend(s.backend);
    return b && info(*b).pythonRuntime;
}

std::string number(double v, const char* unit)
{
    std::ostringstream o;
    o << v << " " << unit;
    return o.str();
}

} // namespace

BandEffects assumedBandEffects(const Stack&)
{
    return {0.01, 0.02};
}

MemoryEffect assumedMemoryEffect(const Stack& s)
{
    return {(pythonEngine(s) ? 0.5 : 0.25) * kGiB, 0.5};
}

std::vector<CampaignAssumption> campaignAssumptions(const Stack& s)
{
    const BandEffects b = assumedBandEffects(s);
    const MemoryEffect m = assumedMemoryEffect(s);
    return {
        {"band boundary cost", number(b.boundaryCostMs, "ms per boundary per step"),
         "one more kernel launch where the GEMM kernel changes and a fusion is lost; a CUDA "
         "launch costs a few microseconds (CUDA C++ Best Practices Guide); not measured"},
        {"format switch cost", number(b.formatSwitchCostMs, "ms per format change per step"),
         "a quantize/dequantize pass over the hidden state between bands of different formats "
         "(one launch plus one read and write of batch x hidden activations); not measured"},
        {"engine memory beyond the prediction",
         number(m.overheadBytes / kGiB, "GiB median, lognormal sigma") + " " +
             number(m.sigma, "across configurations"),
         std::string("CUDA-graph pools and allocator slack the memory model leaves out; ") +
             (pythonEngine(s) ? "vLLM and SGLang capture CUDA graphs for many batch sizes and "
                                "log the pool at start-up (hundreds of MiB for 8B models)"
                              : "TensorRT-LLM captures fewer graphs: half the Python engines' "
                                "figure") +
             "; the magnitude is an assumption, not a measurement"},
    };
}

} // namespace acsel
