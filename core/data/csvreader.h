// A strict, fast reader for the plain CSV files the tool takes (AIC tables, silicon rows,
// measurement sets): comma separated, a header row. A field may be enclosed in double quotes
// (free text holding commas, as AIC's estimate files write their reasons): it ends at a quote
// followed by a comma or the end of the line, and the quotes are dropped; no doubled-quote
// escapes or line breaks inside. Columns are found by header name, because the same kind of
// file comes in several column orders.
#pragma once

#include "core/data/inputfile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

class CsvReader
{
public:
    // Reads the whole file (within limit); throws LoadError if it cannot be read, is not a
    // regular file, is too large, is empty or has no header.
    static CsvReader fromFile(const std::string& path, const InputLimit& limit = kCsvLimit);
    // For tests and fuzzing: `name` stands in for the file name in errors.
    static CsvReader fromString(std::string text, std::string name);

    const std::string& name() const { return name_; }
    const std::vector<std::string>& header() const { return header_; }
    std::optional<int> column(std::string_view name) const;
    // Throws LoadError naming the file and the missing column.
    int requireColumn(std::string_view name) const;

    // Advances to the next data row; false at the end. Blank lines are skipped. A row whose
    // field count differs from the header's throws LoadError (truncated or extra fields).
    bool next();
    int lineNumber() const { return line_; }
    std::string_view field(int column) const { return fields_[static_cast<std::size_t>(column)]; }
    // Typed access; throw LoadError naming line and column on malformed values.
    double number(int column) const;
    double positiveNumber(int column) const; // finite and > 0
    std::int64_t integer(int column) const;
    std::string where(int column) const;

private:
    CsvReader(std::string text, std::string name);
    // The next non-blank line without its line break (counted in line_); nullopt at the end.
    std::optional<std::string_view> nextLine();
    void split(std::string_view line, std::vector<std::string_view>& out) const;

    std::string text_;
    std::string name_;
    std::vector<std::string> header_;
    std::vector<std::string_view> fields_;
    std::size_t pos_ = 0;
    int line_ = 0;
};

} // namespace acsel
