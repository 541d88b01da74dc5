// libFuzzer target: the safetensors reader (header validation and lazy tensor reads).
// SafetensorsFile::open takes only a path, so each input is written to a file in a
// per-process temporary folder first; the LoadError must name that path.
#include "core/data/safetensors.h"
#include "tests/fuzz/fuzzcheck.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace
{

// The per-process input file, removed with its folder when the process exits normally.
struct InputFile {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("acsel_fuzz_safetensors_" + std::to_string(::getpid()));
    std::string path;
    InputFile()
    {
        std::filesystem::create_directories(dir);
        path = (dir / "model.safetensors").string();
    }
    ~InputFile()
    {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    static const InputFile input;
    const std::string& path = input.path;
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        fuzz::require(static_cast<bool>(out), "the fuzz input was written to its file");
    }
    fuzz::loadOrLoadError(path, [&] {
        SafetensorsFile f = SafetensorsFile::open(path);
        std::vector<float> floats;
        std::vector<std::int64_t> ints;
        for (const TensorInfo& t : f.tensors()) {
            fuzz::require(f.find(t.name) == &t, "every accepted tensor can be found by name");
            const std::int64_t n = t.elements();
            fuzz::require(n >= 0 && static_cast<std::uint64_t>(n) *
                                            static_cast<std::uint64_t>(dtypeSize(t.dtype)) ==
                                        t.end - t.begin,
                          "an accepted tensor's shape matches its byte range");
            // The first and last few elements: the reads at both ends of the byte range.
            const std::int64_t count = n < 16 ? n : 16;
            for (const std::int64_t first : {std::int64_t{0}, n - count}) {
                if (isFloating(t.dtype)) {
                    floats.resize(static_cast<std::size_t>(count));
                    f.readFloats(t, first, count, floats.data());
                } else {
                    ints.resize(static_cast<std::size_t>(count));
                    f.readInts(t, first, count, ints.data());
                }
            }
        }
    });
    return 0;
}
