// libFuzzer target: the strict CSV reader on an AIC operator table (gemm_perf.csv shape):
// the header, the named columns, every row and every typed accessor on every field.
#include "core/data/csvreader.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>

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
            for (int c = 0; c < columns; ++c) {
                (void)csv.where(c);
                // Each accessor either returns a checked value or throws its own LoadError;
                // one malformed field must not end the walk over the others.
                fuzz::loadOrLoadError(name, [&] {
                    fuzz::require(std::isfinite(csv.number(c)), "number() is finite");
                });
                fuzz::loadOrLoadError(name, [&] {
                    fuzz::require(csv.positiveNumber(c) > 0, "positiveNumber() is positive");
                });
                fuzz::loadOrLoadError(name, [&] {
                    (void)csv.integer(c);
                    // Every integer field is also a number.
                    fuzz::require(std::isfinite(csv.number(c)), "an integer is a finite number");
                });
            }
        }
    });
    return 0;
}
