#include "core/data/safetensors.h"

#include "core/data/atomicfile.h"
#include "core/data/inputfile.h"
#include "core/data/loaderror.h"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace acsel
{
namespace
{

// The reference implementation refuses headers above 100 MB; so do we (a corrupt length field
// must not make us allocate gigabytes).
constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

std::uint64_t readLe64(const unsigned char* p)
{
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

std::string pointer(const std::string& tensor, const std::string& field)
{
    return "/" + tensor + (field.empty() ? "" : "/" + field);
}

DType parseDtype(const std::string& file, const std::string& tensor, const nlohmann::json& v)
{
    if (!v.is_string())
        throw LoadError(file, pointer(tensor, "dtype"), "expected a dtype string");
    const std::string s = v.get<std::string>();
    for (DType d : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64})
        if (toString(d) == s)
            return d;
    throw LoadError(file, pointer(tensor, "dtype"),
                    "unsupported dtype '" + s + "' (expected F32, F16, BF16, I32 or I64)");
}

std::uint64_t unsignedField(const std::string& file, const std::string& where,
                            const nlohmann::json& v, const char* what)
{
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
        throw LoadError(file, where, std::string("expected a non-negative integer ") + what);
    return v.get<std::uint64_t>();
}

TensorInfo parseTensor(const std::string& file, const std::string& name, const nlohmann::json& j)
{
    if (!j.is_object())
        throw LoadError(file, pointer(name, ""), "expected an object {dtype, shape, data_offsets}");
    for (const auto& [key, value] : j.items())
        if (key != "dtype" && key != "shape" && key != "data_offsets")
            throw LoadError(file, pointer(name, key),
                            "unexpected field (expected only dtype, shape, data_offsets)");
    for (const char* key : {"dtype", "shape", "data_offsets"})
        if (!j.contains(key))
            throw LoadError(file, pointer(name, key), std::string("missing field '") + key + "'");
    TensorInfo t;
    t.name = name;
    t.dtype = parseDtype(file, name, j["dtype"]);
    const auto& shape = j["shape"];
    if (!shape.is_array())
        throw LoadError(file, pointer(name, "shape"), "expected an array of dimensions");
    std::uint64_t elements = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        const std::uint64_t d =
            unsignedField(file, pointer(name, "shape/" + std::to_string(i)), shape[i], "dimension");
        if (d > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
            (d != 0 && elements > std::numeric_limits<std::uint64_t>::max() / 8 / d))
            throw LoadError(file, pointer(name, "shape"), "shape is too large");
        elements *= d;
        t.shape.push_back(static_cast<std::int64_t>(d));
    }
    const auto& off = j["data_offsets"];
    if (!off.is_array() || off.size() != 2)
        throw LoadError(file, pointer(name, "data_offsets"), "expected [begin, end]");
    t.begin = unsignedField(file, pointer(name, "data_offsets/0"), off[0], "offset");
    t.end = unsignedField(file, pointer(name, "data_offsets/1"), off[1], "offset");
    if (t.end < t.begin)
        throw LoadError(file, pointer(name, "data_offsets"),
                        "end " + std::to_string(t.end) + " is before begin " +
                            std::to_string(t.begin));
    const std::uint64_t bytes = elements * static_cast<std::uint64_t>(dtypeSize(t.dtype));
    if (bytes != t.end - t.begin)
        throw LoadError(file, pointer(name, "shape"),
                        "shape " + t.shapeText() + " of " + std::string(toString(t.dtype)) +
                            " needs " + std::to_string(bytes) + " bytes but data_offsets span " +
                            std::to_string(t.end - t.begin));
    return t;
}

} // namespace

std::string_view toString(DType d)
{
    switch (d) {
    case DType::F32:
        return "F32";
    case DType::F16:
        return "F16";
    case DType::BF16:
        return "BF16";
    case DType::I32:
        return "I32";
    case DType::I64:
        return "I64";
    }
    return "?";
}

int dtypeSize(DType d)
{
    switch (d) {
    case DType::F16:
    case DType::BF16:
        return 2;
    case DType::F32:
    case DType::I32:
        return 4;
    case DType::I64:
        return 8;
    }
    return 0;
}

bool isFloating(DType d)
{
    return d == DType::F32 || d == DType::F16 || d == DType::BF16;
}

std::int64_t TensorInfo::elements() const
{
    std::int64_t n = 1;
    for (std::int64_t d : shape)
        n *= d;
    return n;
}

std::string TensorInfo::shapeText() const
{
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        out += (i ? ", " : "") + std::to_string(shape[i]);
    return out + "]";
}

SafetensorsFile SafetensorsFile::open(const std::string& path)
{
    SafetensorsFile f;
    f.path_ = path;
    requireRegularFile(path);
    std::error_code ec;
    const std::uintmax_t fileSize = std::filesystem::file_size(path, ec);
    if (ec)
        throw LoadError(path, "", "cannot open file for reading (" + ec.message() + ")");
    f.in_.open(path, std::ios::binary);
    if (!f.in_)
        throw LoadError(path, "", "cannot open file for reading");
    if (fileSize < 8)
        throw LoadError(path, "header length",
                        "file has " + std::to_string(fileSize) +
                            " bytes: expected an 8-byte header length and a JSON header");
    unsigned char lenBytes[8];
    f.in_.read(reinterpret_cast<char*>(lenBytes), 8);
    const std::uint64_t headerLen = readLe64(lenBytes);
    if (headerLen < 2 || headerLen > fileSize - 8 || headerLen > kMaxHeaderBytes)
        throw LoadError(path, "header length",
                        "header length " + std::to_string(headerLen) +
                            " is impossible for a file of " + std::to_string(fileSize) +
                            " bytes (expected 2 .. file size - 8, at most 100 MB): not a "
                            "safetensors file, or truncated");
    std::string header(headerLen, '\0');
    f.in_.read(header.data(), static_cast<std::streamsize>(headerLen));
    if (!f.in_)
        throw LoadError(path, "header", "could not read the JSON header");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(header);
    } catch (const nlohmann::json::parse_error& e) {
        throw LoadError(
            path, "header byte " + std::to_string(e.byte),
            "invalid JSON header: expected {tensor name: {dtype, shape, data_offsets}}");
    } catch (const nlohmann::json::out_of_range&) {
        // A number beyond a double (1e999) is well-formed JSON that nlohmann reports as
        // out_of_range, not parse_error (fuzz_safetensors found it escaping as "internal error").
        throw LoadError(path, "header",
                        "invalid JSON header: a number is beyond a double's range (expected "
                        "{tensor name: {dtype, shape, data_offsets}} with integer offsets)");
    }
    if (!j.is_object())
        throw LoadError(path, "header", "expected a JSON object of tensors");
    f.dataStart_ = 8 + headerLen;
    const std::uint64_t dataSize = fileSize - f.dataStart_;
    for (const auto& [name, value] : j.items()) {
        if (name == "__metadata__") {
            if (!value.is_object())
                throw LoadError(path, "/__metadata__", "expected an object of strings");
            for (const auto& [k, v] : value.items()) {
                if (!v.is_string())
                    throw LoadError(path, "/__metadata__/" + k, "expected a string value");
                f.metadata_[k] = v.get<std::string>();
            }
            continue;
        }
        TensorInfo t = parseTensor(path, name, value);
        if (t.end > dataSize)
            throw LoadError(path, pointer(name, "data_offsets"),
                            "bytes [" + std::to_string(t.begin) + ", " + std::to_string(t.end) +
                                ") run past the data section (" + std::to_string(dataSize) +
                                " bytes): the file is truncated or the offsets are wrong");
        f.tensors_.push_back(std::move(t));
    }
    // The buffer must be indexed exactly: no overlap, no hole, nothing after the last tensor.
    std::vector<const TensorInfo*> order;
    for (const TensorInfo& t : f.tensors_)
        order.push_back(&t);
    std::sort(order.begin(), order.end(), [](const TensorInfo* a, const TensorInfo* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t expected = 0;
    for (const TensorInfo* t : order) {
        if (t->begin < expected)
            throw LoadError(path, pointer(t->name, "data_offsets"),
                            "bytes [" + std::to_string(t->begin) + ", " + std::to_string(t->end) +
                                ") overlap the previous tensor, which ends at " +
                                std::to_string(expected));
        if (t->begin > expected)
            throw LoadError(path, pointer(t->name, "data_offsets"),
                            "bytes [" + std::to_string(expected) + ", " + std::to_string(t->begin) +
                                ") before this tensor belong to no tensor (holes are not allowed)");
        expected = t->end;
    }
    if (expected != dataSize)
        throw LoadError(path, "data",
                        std::to_string(dataSize - expected) +
                            " trailing bytes after the last tensor "
                            "(ends at " +
                            std::to_string(expected) + " of " + std::to_string(dataSize) + ")");
    return f;
}

const TensorInfo* SafetensorsFile::find(std::string_view name) const
{
    for (const TensorInfo& t : tensors_)
        if (t.name == name)
            return &t;
    return nullptr;
}

const TensorInfo& SafetensorsFile::require(std::string_view name, int rank, bool floating) const
{
    const TensorInfo* t = find(name);
    const std::string n(name);
    if (!t)
        throw LoadError(path_, pointer(n, ""), "missing tensor '" + n + "'");
    if (static_cast<int>(t->shape.size()) != rank)
        throw LoadError(path_, pointer(n, "shape"),
                        "expected " + std::to_string(rank) + " dimensions, got " + t->shapeText());
    if (isFloating(t->dtype) != floating)
        throw LoadError(path_, pointer(n, "dtype"),
                        "dtype " + std::string(toString(t->dtype)) +
                            " is not allowed here (expected " +
                            (floating ? "F32, F16 or BF16" : "I32 or I64") + ")");
    return *t;
}

void SafetensorsFile::readBytes(const TensorInfo& t, std::int64_t first, std::int64_t count)
{
    if (first < 0 || count < 0 || first + count > t.elements())
        throw LoadError(path_, pointer(t.name, ""),
                        "read of elements [" + std::to_string(first) + ", " +
                            std::to_string(first + count) + ") is outside the tensor " +
                            t.shapeText());
    const auto size = static_cast<std::uint64_t>(dtypeSize(t.dtype));
    const std::uint64_t offset = dataStart_ + t.begin + static_cast<std::uint64_t>(first) * size;
    buffer_.resize(static_cast<std::size_t>(count) * size);
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(reinterpret_cast<char*>(buffer_.data()), static_cast<std::streamsize>(buffer_.size()));
    if (!in_)
        throw LoadError(path_, pointer(t.name, ""), "could not read tensor data (file changed?)");
}

void SafetensorsFile::readFloats(const TensorInfo& t, std::int64_t first, std::int64_t count,
                                 float* out)
{
    if (!isFloating(t.dtype))
        throw LoadError(path_, pointer(t.name, "dtype"), "expected F32, F16 or BF16");
    readBytes(t, first, count);
    const unsigned char* p = buffer_.data();
    const auto n = static_cast<std::size_t>(count);
    for (std::size_t i = 0; i < n; ++i) {
        switch (t.dtype) {
        case DType::F32: {
            const std::uint32_t u = std::uint32_t{p[4 * i]} | std::uint32_t{p[4 * i + 1]} << 8 |
                                    std::uint32_t{p[4 * i + 2]} << 16 |
                                    std::uint32_t{p[4 * i + 3]} << 24;
            out[i] = std::bit_cast<float>(u);
            break;
        }
        case DType::F16:
            out[i] = halfToFloat(static_cast<std::uint16_t>(p[2 * i] | p[2 * i + 1] << 8));
            break;
        default:
            out[i] = bf16ToFloat(static_cast<std::uint16_t>(p[2 * i] | p[2 * i + 1] << 8));
            break;
        }
    }
}

void SafetensorsFile::readInts(const TensorInfo& t, std::int64_t first, std::int64_t count,
                               std::int64_t* out)
{
    if (t.dtype != DType::I32 && t.dtype != DType::I64)
        throw LoadError(path_, pointer(t.name, "dtype"), "expected I32 or I64");
    readBytes(t, first, count);
    const unsigned char* p = buffer_.data();
    const auto n = static_cast<std::size_t>(count);
    for (std::size_t i = 0; i < n; ++i) {
        if (t.dtype == DType::I64) {
            out[i] = static_cast<std::int64_t>(readLe64(p + 8 * i));
        } else {
            const std::uint32_t u = std::uint32_t{p[4 * i]} | std::uint32_t{p[4 * i + 1]} << 8 |
                                    std::uint32_t{p[4 * i + 2]} << 16 |
                                    std::uint32_t{p[4 * i + 3]} << 24;
            out[i] = static_cast<std::int32_t>(u);
        }
    }
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu;
    std::uint32_t mant = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { // subnormal: normalise
            int e = -1;
            do {
                ++e;
                mant <<= 1;
            } while ((mant & 0x400u) == 0);
            bits = sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 | (mant & 0x3ffu) << 13;
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | mant << 13;
    } else {
        bits = sign | (exp + 127 - 15) << 23 | mant << 13;
    }
    return std::bit_cast<float>(bits);
}

std::uint16_t floatToHalf(float f)
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // inf or nan
        return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) // rounds to beyond the largest half
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (absx < 0x38800000u) { // subnormal half (or zero)
        if (absx < 0x33000000u)
            return sign;
        // value = mant x 2^(e - 150); in half-subnormal units of 2^-24 that is
        // mant x 2^(e - 126): a right shift by 126 - e, between 14 and 24 here.
        const std::uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
        const auto shift = static_cast<unsigned>(126 - static_cast<int>(absx >> 23));
        const std::uint32_t half = mant >> shift;
        const std::uint32_t rem = mant & ((1u << shift) - 1u);
        const std::uint32_t mid = 1u << (shift - 1u);
        const std::uint32_t rounded = half + ((rem > mid || (rem == mid && (half & 1u))) ? 1u : 0u);
        return static_cast<std::uint16_t>(sign | rounded);
    }
    const std::uint32_t rebased = absx - (112u << 23);
    const std::uint32_t half = rebased >> 13;
    const std::uint32_t rem = rebased & 0x1fffu;
    const std::uint32_t rounded =
        half + ((rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ? 1u : 0u);
    return static_cast<std::uint16_t>(sign | rounded);
}

float bf16ToFloat(std::uint16_t b)
{
    return std::bit_cast<float>(std::uint32_t{b} << 16);
}

std::uint16_t floatToBf16(float f)
{
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return static_cast<std::uint16_t>((x >> 16) | 0x40u); // keep NaN a NaN
    const std::uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>((x + rounding) >> 16);
}

std::vector<unsigned char> encodeFloats(DType dtype, const std::vector<double>& values)
{
    std::vector<unsigned char> out;
    out.reserve(values.size() * static_cast<std::size_t>(dtypeSize(dtype)));
    for (double v : values) {
        const auto f = static_cast<float>(v);
        if (dtype == DType::F32) {
            const auto u = std::bit_cast<std::uint32_t>(f);
            for (int s = 0; s < 32; s += 8)
                out.push_back(static_cast<unsigned char>(u >> s));
        } else if (dtype == DType::F16 || dtype == DType::BF16) {
            const std::uint16_t u = dtype == DType::F16 ? floatToHalf(f) : floatToBf16(f);
            out.push_back(static_cast<unsigned char>(u));
            out.push_back(static_cast<unsigned char>(u >> 8));
        } else {
            throw std::invalid_argument("encodeFloats: dtype must be F32, F16 or BF16");
        }
    }
    return out;
}

std::vector<unsigned char> encodeInts(DType dtype, const std::vector<std::int64_t>& values)
{
    if (dtype != DType::I32 && dtype != DType::I64)
        throw std::invalid_argument("encodeInts: dtype must be I32 or I64");
    std::vector<unsigned char> out;
    for (std::int64_t v : values) {
        const auto u = static_cast<std::uint64_t>(v);
        for (int s = 0; s < (dtype == DType::I64 ? 64 : 32); s += 8)
            out.push_back(static_cast<unsigned char>(u >> s));
    }
    return out;
}

void writeSafetensors(const std::string& path, const std::vector<TensorBlob>& tensors,
                      const std::map<std::string, std::string>& metadata)
{
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::uint64_t offset = 0;
    for (const TensorBlob& t : tensors) {
        header[t.name] = {{"dtype", toString(t.dtype)},
                          {"shape", t.shape},
                          {"data_offsets", {offset, offset + t.bytes.size()}}};
        offset += t.bytes.size();
    }
    std::string text = header.dump();
    text.resize((text.size() + 7) / 8 * 8, ' '); // the reference writer pads to 8 bytes
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[static_cast<std::size_t>(i)] =
            static_cast<char>(static_cast<std::uint64_t>(text.size()) >> (8 * i));
    bytes += text;
    for (const TensorBlob& t : tensors)
        bytes.append(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size());
    writeFileAtomically(path, bytes);
}

} // namespace acsel
