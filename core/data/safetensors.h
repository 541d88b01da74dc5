// Strict reader (and a small writer) for the Hugging Face safetensors format: an 8-byte
// little-endian header length N, N bytes of JSON header {name: {dtype, shape, data_offsets}},
// then the raw little-endian tensor data. Every inconsistency (header length beyond the file,
// unknown dtype, shape that does not match the byte range, overlapping or out-of-range offsets,
// truncated data) is a LoadError naming the file and the tensor or field.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

enum class DType : std::uint8_t { F32, F16, BF16, I32, I64 };
std::string_view toString(DType d);
int dtypeSize(DType d);
bool isFloating(DType d);

struct TensorInfo {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0; // byte offsets relative to the start of the data section
    std::uint64_t end = 0;
    std::int64_t elements() const;
    std::string shapeText() const; // "[3, 512]"
};

class SafetensorsFile
{
public:
    // Opens the file and validates the whole header against the file size; data is read lazily,
    // so multi-gigabyte logits files are never loaded whole.
    static SafetensorsFile open(const std::string& path);

    const std::string& path() const { return path_; }
    const std::vector<TensorInfo>& tensors() const { return tensors_; }
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    const TensorInfo* find(std::string_view name) const;
    // The tensor, checked to have `rank` dimensions and a floating (or integer) dtype.
    const TensorInfo& require(std::string_view name, int rank, bool floating) const;

    // Elements [first, first + count) in row-major order, converted. readFloats takes F32, F16
    // and BF16 tensors; readInts I32 and I64. Not thread-safe (one file position).
    void readFloats(const TensorInfo& t, std::int64_t first, std::int64_t count, float* out);
    void readInts(const TensorInfo& t, std::int64_t first, std::int64_t count, std::int64_t* out);

private:
    SafetensorsFile() = default;
    void readBytes(const TensorInfo& t, std::int64_t first, std::int64_t count);

    std::string path_;
    std::ifstream in_;
    std::uint64_t dataStart_ = 0;
    std::vector<TensorInfo> tensors_;
    std::map<std::string, std::string> metadata_;
    std::vector<unsigned char> buffer_;
};

// One tensor to write: raw little-endian bytes matching dtype and shape.
struct TensorBlob {
    std::string name;
    DType dtype = DType::F32;
    std::vector<std::int64_t> shape;
    std::vector<unsigned char> bytes;
};

std::vector<unsigned char> encodeFloats(DType dtype, const std::vector<double>& values);
std::vector<unsigned char> encodeInts(DType dtype, const std::vector<std::int64_t>& values);
// Writes a well-formed file (header padded to 8 bytes, tensors packed in the given order),
// through a temporary file renamed into place.
void writeSafetensors(const std::string& path, const std::vector<TensorBlob>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

// IEEE half and bfloat16 conversions (round to nearest even on the way down).
float halfToFloat(std::uint16_t h);
std::uint16_t floatToHalf(float f);
float bf16ToFloat(std::uint16_t b);
std::uint16_t floatToBf16(float f);

} // namespace acsel
