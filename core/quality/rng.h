// A tiny seeded generator whose output is fixed by this file alone (the standard library's
// distributions differ between implementations), so generated data and CV folds are the same
// on every compiler.
#pragma once

#include <cmath>
#include <cstdint>

namespace acsel
{

class SplitMix64
{
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next()
    {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    // Uniform integer in [0, n).
    int below(int n) { return static_cast<int>(uniform() * n); }
    // Standard normal by Box-Muller (one draw per call; the twin is discarded for simplicity).
    double normal()
    {
        const double u1 = 1.0 - uniform(); // (0, 1]
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    std::uint64_t state_;
};

// A stable 64-bit hash of a few integers, to key frozen noise by (model, layer, format, ...).
inline std::uint64_t mixKey(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0,
                            std::uint64_t c = 0, std::uint64_t d = 0)
{
    SplitMix64 g(seed);
    std::uint64_t h = g.next();
    for (std::uint64_t v : {a, b, c, d})
        h = SplitMix64(h ^ (v + 0x632be59bd9b4e019ULL)).next();
    return h;
}

} // namespace acsel
