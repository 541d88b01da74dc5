// libFuzzer target: the strict CSV reader on an AIC operator table (gemm_perf.csv shape):
// the header, the named columns, every row and every typed accessor on every field.
#include "core/data/csvreader.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <string>

namespace
{

bool isAicIntegerColumn(const std::string& name)
{
    for (const char* c : {"m", "n", "k", "batch_size", "isl", "num_heads", "num_key_value_heads",
                          "head_dim", "window_size", "beam_width", "step"})
        if (name == c)
            return true;
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace acsel;
    const std::string name = "gemm_perf.csv";
    fuzz::loadOrLoadError(name, [&] {
        CsvReader csv = CsvReader::fromString(fuzz::text(data, size), name);
        const auto columns = static_cast<int>(csv.header().size());
        fuzz::require(columns >= 1, "an accepted CSV has a header");
        for (const char* col : {"gemm_dtype", "m", "n", "k", "latency"})
            if (const auto c = csv.column(col))
                fuzz::require(*c >= 0 && *c < columns, "a found column is inside the header");
        int previousLine = csv.lineNumber();
        while (csv.next()) {
            fuzz::require(csv.lineNumber() > previousLine, "line numbers increase");
            previousLine = csv.lineNumber();
            // Like a loader, the first malformed field ends the load. AIC's text columns are
            // read as text, latency as a positive number, its other known columns as integers;
            // unknown columns by position, so the fuzzer reaches every typed accessor.
            for (int c = 0; c < columns; ++c) {
                (void)csv.where(c);
                const std::string& head = csv.header()[static_cast<std::size_t>(c)];
                if (head == "kernel_source" || head.ends_with("_dtype")) {
                    (void)csv.field(c);
                    continue;
                }
                const int kind = head == "latency" ? 1 : isAicIntegerColumn(head) ? 2 : c % 3;
                switch (kind) {
                case 0:
                    fuzz::require(std::isfinite(csv.number(c)), "number() is finite");
                    break;
                case 1:
                    fuzz::require(csv.positiveNumber(c) > 0, "positiveNumber() is positive");
                    break;
                default: {
                    (void)csv.integer(c);
                    bool isNumber = true;
                    try {
                        isNumber = std::isfinite(csv.number(c));
                    } catch (const LoadError&) {
                        isNumber = false;
                    }
                    fuzz::require(isNumber, "an integer field is also a finite number");
                }
                }
            }
        }
    });
    return 0;
}
