// Every file the tool writes is replaced atomically: the text goes to a temporary file in the
// same folder, is flushed to disk (fsync), then renamed over the target, and the folder is
// synced, so a crash or a kill leaves the old file or the new one, never a mix. The temporary
// is removed on every failure, and temporaries a killed writer left behind for the same target
// are removed by the next write. A target that is a symlink is written through: the link stays
// and its target is replaced (a dangling or looping link is refused).
#pragma once

#include <string>
#include <string_view>

namespace acsel
{

// Throws LoadError naming the path (or the temporary) when any step fails.
void writeFileAtomically(const std::string& path, std::string_view bytes);

// The file a write to path replaces: path itself, or the target of the symlink it is.
std::string writeTarget(const std::string& path);

} // namespace acsel
