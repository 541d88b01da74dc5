// libFuzzer target: a workspace with the files it names. An input is workspace.json,
// platforms.json, quality.json and utilisation.json, split at "--8<--" lines (fuzzfiles.h) and
// written side by side; the workspace is loaded from its file (referenced files checked, the
// platforms file's GPUs joined as spec-only stacks), then its quality set and utilisation model.
// An error names one of the four files. An accepted workspace has a model, every stack a GPU
// with a finite positive spec, and every quality row an RMQD in (0, 1e300].
#include "core/data/qualityset.h"
#include "core/data/workspacefile.h"
#include "core/latency/utilisationmodel.h"
#include "tests/fuzz/fuzzcheck.h"
#include "tests/fuzz/fuzzfiles.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    static fuzz::FileSet files("workspacefiles");
    const std::vector<std::string> names = {"workspace.json", "platforms.json", "quality.json",
                                            "utilisation.json"};
    files.write(fuzz::text(data, size), names);
    try {
        const Workspace ws = loadWorkspace(files.path("workspace.json"), "");
        fuzz::require(!ws.models.empty(), "an accepted workspace has a model");
        for (const Stack& s : ws.stacks) {
            fuzz::require(s.platform >= 0 &&
                              static_cast<std::size_t>(s.platform) < ws.platforms.size(),
                          "every stack has a GPU");
            const Platform& p = ws.platforms[static_cast<std::size_t>(s.platform)];
            fuzz::require(std::isfinite(p.memBandwidth) && p.memBandwidth > 0 &&
                              std::isfinite(p.memCapacityBytes) && p.memCapacityBytes > 0 &&
                              p.memBwScaling > 0 && p.memBwScaling <= 1,
                          "every stack's GPU has a finite positive spec");
        }
        if (!ws.qualityFile.empty())
            for (const QualityRow& r : loadQualitySet(ws.qualityFile, ws.models).rows)
                fuzz::require(r.rmqd > 0 && r.rmqd <= 1e300, "a quality row's RMQD is in range");
        if (!ws.utilisationFile.empty())
            (void)loadUtilisationFile(ws.utilisationFile);
    } catch (const LoadError& e) {
        bool named = false;
        for (const std::string& n : names)
            named = named || e.file() == files.path(n);
        fuzz::require(named, "a LoadError names one of the workspace's files");
        fuzz::require(std::string_view(e.what()).find('\n') == std::string_view::npos,
                      "a LoadError is one line");
    }
    return 0;
}
