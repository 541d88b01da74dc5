#include "core/latency/speedoflight.h"

#include "core/latency/servingmodel.h"
#include "core/latency/solopcosts.h"

#include <charconv>
#include <cmath>

namespace acsel
{
namespace
{

// SolOpCosts without its per-call constant, and memory-bound ops at the spec bandwidth (no
// empirical scaling, no constant): the roof itself.
class RoofOpCosts final : public OpCosts
{
public:
    RoofOpCosts(const Platform& platform, const std::vector<Format>& formats)
        : sol_(platform, formats, 0.0)
    {
    }
    const Platform& platform() const override { return sol_.platform(); }
    bool supports(Format f) const override { return sol_.supports(f); }
    double gemmMs(Format f, double m, double n, double k) const override
    {
        return sol_.gemmMs(f, m, n, k);
    }
    double contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                              KvFormat kv) const override
    {
        return sol_.contextAttentionMs(batch, isl, heads, kvHeads, headDim, kv);
    }
    double generationAttentionMs(double batch, double kvLen, int heads, int kvHeads, int headDim,
                                 KvFormat kv) const override
    {
        return sol_.generationAttentionMs(batch, kvLen, heads, kvHeads, headDim, kv);
    }
    double memoryOpMs(double bytes) const override
    {
        return bytes / sol_.platform().memBandwidth * 1e3;
    }

private:
    SolOpCosts sol_;
};

std::string number(double v)
{
    char buf[32];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

std::string check(const char* what, double predicted, double floor, bool zeroAllowed)
{
    if (!std::isfinite(predicted) || predicted < 0 || (predicted == 0 && !zeroAllowed))
        return std::string(what) + " " + number(predicted) + " ms is not a finite positive time";
    if (predicted < floor * (1 - 1e-9))
        return std::string(what) + " " + number(predicted) +
               " ms is below the GPU's speed of light (" + number(floor) + " ms)";
    return {};
}

} // namespace

LatencyEstimate speedOfLightFloor(const Platform& platform, const std::vector<Format>& formats,
                                  const ModelArch& arch, const Config& config,
                                  const Request& request)
{
    return estimateServingLatency(RoofOpCosts(platform, formats), arch, config, request);
}

std::string belowSpeedOfLight(double ttftMs, double tpotMs, const LatencyEstimate& floor)
{
    if (std::string why = check("TTFT", ttftMs, floor.ttftMs, false); !why.empty())
        return why;
    return check("TPOT", tpotMs, floor.tpotMs, floor.tpotMs == 0);
}

} // namespace acsel
