// What the program predicts for one configuration at one request. Memory is held in bytes;
// GiB appear only where a number is shown or written (memoryGiB()).
#pragma once

#include "core/model/units.h"

namespace acsel
{

struct Prediction {
    double ttftMs = 0, tpotMs = 0; // calibrated (FMC) where a calibration applies, else raw
    double rawTtftMs = 0, rawTpotMs = 0;
    double memoryBytes = 0;
    // What the stack's engine takes at the memory flag `acsel launch` prints (0: no engine
    // model); admitted configurations have both memories within the budget.
    double engineMemoryBytes = 0;
    double rmqd = 0;
    double memoryGiB() const { return memoryBytes / kGiB; }
    double admittedMemoryBytes() const
    {
        return memoryBytes > engineMemoryBytes ? memoryBytes : engineMemoryBytes;
    }
    bool operator==(const Prediction&) const = default;
};

} // namespace acsel
