// The message of the LoadError a loader throws, for the tests of bad input.
#pragma once

#include "core/data/loaderror.h"

#include <functional>
#include <string>

// "no error" when load() throws none.
inline std::string errorOf(const std::function<void()>& load)
{
    try {
        load();
    } catch (const acsel::LoadError& e) {
        return e.what();
    }
    return "no error";
}
