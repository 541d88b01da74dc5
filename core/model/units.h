// Units the whole program shares: memory is held in bytes and shown in GiB.
#pragma once

namespace acsel
{

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

} // namespace acsel
