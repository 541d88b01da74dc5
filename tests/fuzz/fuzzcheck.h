// What every fuzz target asserts about a loader: any input ends in a value or in a LoadError
// that names the given file on one line and says what was expected. Anything else (another
// exception escaping, a sanitizer report, an abort below, a hang) is a bug.
#pragma once

#include "core/data/loaderror.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace acsel::fuzz
{

inline std::string text(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

// Aborts, which libFuzzer records as a crash with the input that caused it.
inline void require(bool ok, const char* property)
{
    if (!ok) {
        std::fprintf(stderr, "fuzz: property violated: %s\n", property);
        std::abort();
    }
}

// ACSEL_FUZZ_VERBOSE=1 prints each input's LoadError (to see which seeds a loader accepts).
inline bool verbose()
{
    static const bool on = std::getenv("ACSEL_FUZZ_VERBOSE") != nullptr;
    return on;
}

template <class Load> void loadOrLoadError(const std::string& name, Load&& load)
{
    try {
        load();
        if (verbose())
            std::fprintf(stderr, "fuzz: %s accepted\n", name.c_str());
    } catch (const LoadError& e) {
        if (verbose())
            std::fprintf(stderr, "fuzz: %s\n", e.what());
        require(e.file() == name, "a LoadError names the file it was given");
        require(!e.message().empty(), "a LoadError says what was expected");
        require(std::string_view(e.what()).find('\n') == std::string_view::npos,
                "a LoadError is one line");
    }
}

} // namespace acsel::fuzz
