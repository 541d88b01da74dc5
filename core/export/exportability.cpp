#include "core/export/exportability.h"

#include "core/export/modulenames.h"
#include "core/export/quantplan.h"

namespace acsel
{
namespace
{

// Block size along the input features (the last weight axis) a format quantizes in, or 0.
int inputBlock(Format f)
{
    switch (facts(f).granularity) {
    case Granularity::Block16:
        return 16;
    case Granularity::Block128:
    case Granularity::Block128x128:
        return 128;
    default:
        return 0;
    }
}

bool allBf16(const BandRecipe& r)
{
    for (const Band& b : r)
        if (b.format != Format::Bf16)
            return false;
    return true;
}

std::string bandName(const BandRecipe& r, int i)
{
    const Band& b = r[i];
    return "band " + std::to_string(i + 1) + " (layers " + std::to_string(b.begin) + "-" +
           std::to_string(b.end - 1) + ", " + std::string(toString(b.format)) + ")";
}

std::string fittingAlgorithms(Format f)
{
    std::string out;
    for (Algorithm a : kAllAlgorithms)
        if (algorithmFits(a, f))
            out += (out.empty() ? "" : " or ") + std::string(toString(a));
    return out;
}

// Visits every violation; `report` returns false to stop early (the fast check stops at the
// first). Violations are passed as a callable building the message, so that the fast path
// never builds a string.
template <class Report>
void check(const ModelArch& arch, const Config& c, const Stack* stack, Report&& report)
{
    const BandRecipe& r = c.recipe;
    if (const std::string why = r.validate(arch.layers); !why.empty()) {
        report([&] { return "recipe: " + why; });
        return; // the other rules assume well-formed bands
    }
    const int n = r.size();
    for (int i = 0; i < n; ++i) {
        const Band& b = r[i];
        if (stack && !stack->hasFormat(b.format))
            if (!report([&] {
                    std::string list;
                    for (Format f : stack->formats)
                        list += (list.empty() ? "" : ", ") + std::string(toString(f));
                    return bandName(r, i) + " uses " + std::string(toString(b.format)) +
                           ", which " + stack->id + " cannot run (its formats: " + list + ")";
                }))
                return;
        if (!algorithmFits(c.algorithm, b.format))
            if (!report([&] {
                    return bandName(r, i) + " needs " + fittingAlgorithms(b.format) +
                           " calibration, but the recipe's one global algorithm is " +
                           std::string(toString(c.algorithm)) +
                           " (ModelOpt calibrates the whole model with one algorithm: "
                           "SmoothQuant or AWQ bands cannot be mixed with fp8/nvfp4 bands)";
                }))
                return;
        for (Linear l : kAllLinears) {
            const Format f = linearFormat(b, l);
            // q/k/v and gate/up are fused on export; whole-layer scopes keep each group in one
            // format, so this only fires on a scope value outside the enum.
            for (Linear m : kAllLinears)
                if (m > l && fusedGroup(m) == fusedGroup(l) && linearFormat(b, m) != f)
                    if (!report([&] {
                            return bandName(r, i) + " gives " + std::string(toString(l)) + " and " +
                                   std::string(toString(m)) +
                                   " different formats; fused linears must share one";
                        }))
                        return;
            const int block = inputBlock(f);
            // The MLP linears of the band's MoE layers are its routed experts' and its shared
            // expert's (when the config has one), of the others dense.
            const int moeLayers = isAttention(l) ? 0 : arch.moeLayersIn(b.begin, b.end);
            const int sharedLayers = arch.moe.sharedIntermediate > 0 ? moeLayers : 0;
            for (const MlpOf of : {MlpOf::Dense, MlpOf::RoutedExpert, MlpOf::SharedExpert}) {
                const int count = of == MlpOf::Dense          ? b.layers() - moeLayers
                                  : of == MlpOf::RoutedExpert ? moeLayers
                                                              : sharedLayers;
                if (count == 0)
                    continue;
                const std::int64_t k = shapeOf(arch, l, of).inFeatures;
                if (block > 0 && k % block != 0)
                    if (!report([&] {
                            const char* whose = of == MlpOf::RoutedExpert   ? "the experts' "
                                                : of == MlpOf::SharedExpert ? "the shared expert's "
                                                                            : "";
                            return bandName(r, i) + ": " + whose + std::string(toString(l)) +
                                   " has " + std::to_string(k) +
                                   " input features, not a multiple of the " +
                                   std::string(toString(f)) + " block size " +
                                   std::to_string(block);
                        }))
                        return;
            }
        }
    }
    if (allBf16(r) && c.algorithm != Algorithm::Max)
        if (!report([&] {
                return "nothing is quantized, so there is nothing to calibrate: the algorithm "
                       "must be max, not " +
                       std::string(toString(c.algorithm));
            }))
            return;
    if (c.lmHeadQuantized) {
        const Band& last = r[n - 1];
        if (last.format == Format::Bf16) {
            if (!report([&] {
                    return "lm_head is quantized at the last band's format, but the last band "
                           "(layers " +
                           std::to_string(last.begin) + "-" + std::to_string(last.end - 1) +
                           ") is bf16";
                }))
                return;
        } else if (arch.tiedEmbeddings) {
            if (!report([&] {
                    return "lm_head shares its weight with the embeddings (tie_word_embeddings), "
                           "so it cannot be quantized on its own";
                }))
                return;
        } else if (const int block = inputBlock(last.format);
                   block > 0 && lmHeadShape(arch).inFeatures % block != 0) {
            if (!report([&] {
                    return "lm_head has " + std::to_string(lmHeadShape(arch).inFeatures) +
                           " input features, not a multiple of the " +
                           std::string(toString(last.format)) + " block size " +
                           std::to_string(block);
                }))
                return;
        }
    }
    if (c.kv == KvFormat::Fp8 && stack && !stack->kvFp8)
        report([&] {
            return "the KV cache is fp8, but " + stack->id +
                   " has no fp8 KV-cache attention (keep the KV cache bf16)";
        });
}

} // namespace

bool isExportable(const ModelArch& arch, const Config& c, const Stack* stack)
{
    bool ok = true;
    check(arch, c, stack, [&](auto&&) {
        ok = false;
        return false;
    });
    return ok;
}

std::vector<std::string> exportProblems(const ModelArch& arch, const Config& c, const Stack* stack)
{
    std::vector<std::string> out;
    check(arch, c, stack, [&](auto&& message) {
        out.push_back(message());
        return true;
    });
    return out;
}

} // namespace acsel
