#include "core/data/csvreader.h"

#include "core/data/inputfile.h"
#include "core/data/loaderror.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace acsel
{

CsvReader CsvReader::fromFile(const std::string& path, const InputLimit& limit)
{
    return CsvReader(readInputFile(path, limit), path);
}

CsvReader CsvReader::fromString(std::string text, std::string name)
{
    return CsvReader(std::move(text), std::move(name));
}

CsvReader::CsvReader(std::string text, std::string name)
    : text_(std::move(text)), name_(std::move(name))
{
    // Header: first non-blank line.
    const std::optional<std::string_view> line = nextLine();
    if (!line)
        throw LoadError(name_, "", "file is empty: expected a CSV header row");
    std::vector<std::string_view> cols;
    split(*line, cols);
    for (auto c : cols) {
        if (c.empty())
            throw LoadError(name_, "line " + std::to_string(line_), "empty column name in header");
        // Columns are found by name: a repeated one would silently read its first copy.
        if (std::find(header_.begin(), header_.end(), c) != header_.end())
            throw LoadError(name_, "line " + std::to_string(line_),
                            "column '" + std::string(c) + "' appears twice in the header");
        header_.emplace_back(c);
    }
    fields_.reserve(header_.size());
}

void CsvReader::split(std::string_view line, std::vector<std::string_view>& out) const
{
    out.clear();
    std::size_t start = 0;
    while (true) {
        if (start < line.size() && line[start] == '"') {
            // A quoted field (free text such as AIC's reasons): up to the quote that ends it.
            const std::size_t close = line.find("\",", start + 1);
            const bool last = close == std::string_view::npos;
            if (last && (line.size() < start + 2 || line.back() != '"'))
                throw LoadError(name_, "line " + std::to_string(line_),
                                "a field opens a double quote that does not close");
            const std::size_t end = last ? line.size() - 1 : close;
            out.push_back(line.substr(start + 1, end - start - 1));
            if (last)
                return;
            start = close + 2;
            continue;
        }
        const std::size_t comma = line.find(',', start);
        if (comma == std::string_view::npos) {
            out.push_back(line.substr(start));
            return;
        }
        out.push_back(line.substr(start, comma - start));
        start = comma + 1;
    }
}

std::optional<int> CsvReader::column(std::string_view name) const
{
    for (std::size_t i = 0; i < header_.size(); ++i)
        if (header_[i] == name)
            return static_cast<int>(i);
    return std::nullopt;
}

int CsvReader::requireColumn(std::string_view name) const
{
    if (auto c = column(name))
        return *c;
    throw LoadError(name_, "header", "missing column '" + std::string(name) + "'");
}

std::optional<std::string_view> CsvReader::nextLine()
{
    while (pos_ < text_.size()) {
        const std::size_t eol = std::min(text_.find('\n', pos_), text_.size());
        std::string_view line(text_.data() + pos_, eol - pos_);
        pos_ = eol + 1;
        ++line_;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (!line.empty())
            return line;
    }
    return std::nullopt;
}

bool CsvReader::next()
{
    const std::optional<std::string_view> line = nextLine();
    if (!line)
        return false;
    split(*line, fields_);
    if (fields_.size() != header_.size())
        throw LoadError(name_, "line " + std::to_string(line_),
                        "expected " + std::to_string(header_.size()) + " fields, found " +
                            std::to_string(fields_.size()) + " (truncated or malformed row)");
    return true;
}

std::string CsvReader::where(int column) const
{
    return "line " + std::to_string(line_) + ", column '" +
           header_[static_cast<std::size_t>(column)] + "'";
}

double CsvReader::number(int column) const
{
    const std::string_view f = field(column);
    double value = 0;
    const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (f.empty() || ec != std::errc() || ptr != f.data() + f.size() || !std::isfinite(value))
        throw LoadError(name_, where(column),
                        "expected a finite number, found '" + std::string(f) + "'");
    return value;
}

double CsvReader::positiveNumber(int column) const
{
    const double v = number(column);
    if (!(v > 0))
        throw LoadError(name_, where(column),
                        "expected a positive number, found '" + std::string(field(column)) + "'");
    return v;
}

std::int64_t CsvReader::integer(int column) const
{
    const std::string_view f = field(column);
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), value);
    if (f.empty() || ec != std::errc() || ptr != f.data() + f.size())
        throw LoadError(name_, where(column),
                        "expected an integer, found '" + std::string(f) + "'");
    return value;
}

} // namespace acsel
