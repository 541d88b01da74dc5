// A small hand-made engine for testing the searchers against brute force: per-layer costs
// that depend on the format, scope and depth, a conversion cost at every band boundary where
// the activation format changes, and a quality model computed directly (not by prefix sums).
#pragma once

#include "core/latency/opmodel.h"
#include "core/search/engine.h"

#include <cmath>

namespace acsel::test
{

class ToyEngine : public Engine
{
public:
    explicit ToyEngine(std::vector<Format> formats, std::vector<int> layers = {6, 8})
    {
        ws_.name = "toy";
        for (std::size_t i = 0; i < layers.size(); ++i) {
            ModelArch m;
            m.name = "toy-" + std::to_string(layers[i]);
            m.layers = layers[i];
            m.hidden = 512 * static_cast<int>(i + 1);
            m.heads = 8;
            m.kvHeads = 8;
            m.headDim = 64;
            m.intermediate = 4 * m.hidden;
            m.vocab = 1000;
            ws_.models.push_back(m);
        }
        Platform p;
        p.id = "toygpu";
        p.memCapacityBytes = 64.0 * (1 << 30);
        ws_.platforms.push_back(p);
        Stack s;
        s.id = "toygpu/toy";
        s.backend = "toy";
        s.formats = std::move(formats);
        s.kvFp8 = true;
        ws_.stacks.push_back(s);
    }

    Calibration cal{1.1, -0.2, 0.95, 0.1};

    const Workspace& workspace() const override { return ws_; }

    // Cost of one layer at a choice: fewer bits are faster; scope mlp/attn quantize less.
    static double layerSpeed(Format f, Scope s)
    {
        const double q = facts(f).effectiveBits / 16.0;
        const double share = s == Scope::Full ? 1.0 : s == Scope::Mlp ? 0.65 : 0.35;
        return share * q + (1 - share);
    }
    LatencyMs rawLatency(const Config& c, const Request& q) const override
    {
        const ModelArch& m = ws_.models[static_cast<std::size_t>(c.model)];
        const double width = m.hidden / 512.0;
        LatencyMs t{2.0, 0.3}; // embedding, lm_head
        for (const Band& b : c.recipe) {
            const double speed = layerSpeed(b.format, b.scope);
            t.ttft += b.layers() * width * speed * 0.002 * c.batch * q.isl;
            t.tpot += b.layers() * width *
                      (0.05 * speed + 0.01 * c.batch * (c.kv == KvFormat::Fp8 ? 0.6 : 1.0));
        }
        const LatencyMs conversion = conversionLatency(c, q);
        const int conversions = activationConversions(c.recipe);
        t.ttft += conversions * conversion.ttft;
        t.tpot += conversions * conversion.tpot;
        return t;
    }
    LatencyMs conversionLatency(const Config& c, const Request&) const override
    {
        const double width = ws_.models[static_cast<std::size_t>(c.model)].hidden / 512.0;
        return {0.05 * c.batch * width, 0.004 * width};
    }
    double memoryBytes(const Config& c, const Request& q) const override
    {
        const ModelArch& m = ws_.models[static_cast<std::size_t>(c.model)];
        double bytes = 2e9;
        for (const Band& b : c.recipe)
            bytes += b.layers() * m.hidden * 1e5 * layerSpeed(b.format, b.scope);
        bytes += c.batch * (q.isl + q.osl) * m.layers * 1e4 * (c.kv == KvFormat::Fp8 ? 1 : 2);
        return bytes;
    }
    bool fracMixIsLowerBound(const Request&) const override { return true; }
    Calibration calibration(const std::string&) const override { return cal; }

    // Depth-sensitive damage: first and last layers hurt most.
    static double layerDamage(int layer, int layers, Format f, Scope s)
    {
        const double depth = static_cast<double>(layer) / (layers - 1);
        const double sensitivity =
            1.0 + 2.0 * std::exp(-6 * depth) + 1.5 * std::exp(-6 * (1 - depth));
        const double share = s == Scope::Full ? 1.0 : s == Scope::Mlp ? 0.6 : 0.4;
        return sensitivity * share * std::pow(bitDeficit(f), 2) / layers;
    }
    static double algorithmOffset(Algorithm a)
    {
        switch (a) {
        case Algorithm::Max:
            return 0.004;
        case Algorithm::SmoothQuant:
            return 0.003;
        case Algorithm::Awq:
            return 0.001;
        case Algorithm::Gptq:
            return 0.002;
        }
        return 0;
    }
    // RMQD = exp(offset + sum of per-layer log terms), computed layer by layer here and by
    // prefix sums in qualityTerms(), so a test can compare the two.
    double rmqd(const Config& c) const override
    {
        const int L = ws_.models[static_cast<std::size_t>(c.model)].layers;
        double v = std::log(algorithmOffset(c.algorithm) + (c.kv == KvFormat::Fp8 ? 0.002 : 0.0));
        for (int l = 0; l < L; ++l) {
            const Band& b = c.recipe.bandOf(l);
            v += layerDamage(l, L, b.format, b.scope);
        }
        return std::exp(v);
    }
    SurrogateTerms qualityTerms(int model, Algorithm a, bool, KvFormat kv) const override
    {
        const int L = ws_.models[static_cast<std::size_t>(model)].layers;
        SurrogateTerms t;
        t.layers = L;
        t.constant = std::log(algorithmOffset(a) + (kv == KvFormat::Fp8 ? 0.002 : 0.0));
        t.prefix.assign(static_cast<std::size_t>(kFormatCount * kScopeCount * (L + 1)), 0.0);
        for (Format f : kAllFormats)
            for (Scope s : kAllScopes) {
                const auto base = static_cast<std::size_t>(choiceSlot(f, s) * (L + 1));
                for (int l = 0; l < L; ++l)
                    t.prefix[base + static_cast<std::size_t>(l + 1)] =
                        t.prefix[base + static_cast<std::size_t>(l)] + layerDamage(l, L, f, s);
            }
        return t;
    }
    std::string exportProblem(const Config& c, const Stack& s) const override
    {
        for (const Band& b : c.recipe) {
            if (!s.hasFormat(b.format))
                return "format not on stack";
            if (!algorithmFits(c.algorithm, b.format))
                return "algorithm does not fit";
        }
        return {};
    }

private:
    Workspace ws_;
};

} // namespace acsel::test
