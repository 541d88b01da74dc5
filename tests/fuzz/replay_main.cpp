// Replays fuzz inputs without libFuzzer, so every normal (and sanitizer) build re-checks the
// seed corpus and every regression input through the same LLVMFuzzerTestOneInput. Arguments:
// files or folders (walked recursively, in sorted order); a missing folder is skipped.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fs = std::filesystem;

int main(int argc, char** argv)
{
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        if (fs::is_regular_file(arg))
            inputs.push_back(arg);
        else if (fs::is_directory(arg))
            for (const auto& e : fs::recursive_directory_iterator(arg))
                if (e.is_regular_file() && e.path().filename() != "README.md")
                    inputs.push_back(e.path());
    }
    std::sort(inputs.begin(), inputs.end());
    if (inputs.empty()) {
        std::cerr << "replay: no inputs found (expected a seed corpus)\n";
        return 2;
    }
    for (const fs::path& p : inputs) {
        // Named before running, so the last line of a crash log is the culprit.
        std::cout << "replay: " << p.string() << std::endl;
        std::ifstream in(p, std::ios::binary);
        const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::cout << "replay: " << inputs.size() << " inputs, no failure\n";
    return 0;
}
