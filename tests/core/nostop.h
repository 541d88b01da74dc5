// The stop flag of a search that nobody cancels, shared by the core tests.
#pragma once

#include <atomic>

inline const std::atomic<bool> kNoStop{false};
