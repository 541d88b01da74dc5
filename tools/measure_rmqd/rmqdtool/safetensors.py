"""A safetensors reader and writer in the standard library plus torch (Debian has no
python3-safetensors). Format: 8-byte little-endian header length N, N bytes of JSON
{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}}, then the data."""
import json
import struct

import numpy
import torch

# safetensors dtype -> (torch dtype, numpy dtype of the same width used for raw bytes)
_DTYPES = {
    "F64": (torch.float64, numpy.float64),
    "F32": (torch.float32, numpy.float32),
    "F16": (torch.float16, numpy.float16),
    "BF16": (torch.bfloat16, numpy.int16),
    "I64": (torch.int64, numpy.int64),
    "I32": (torch.int32, numpy.int32),
    "I16": (torch.int16, numpy.int16),
    "I8": (torch.int8, numpy.int8),
    "U8": (torch.uint8, numpy.uint8),
    "BOOL": (torch.bool, numpy.bool_),
}
_NAMES = {torch_dtype: name for name, (torch_dtype, _) in _DTYPES.items()}
_MAX_HEADER = 100 << 20


class SafetensorsError(ValueError):
    """A malformed file; the message names the file and the field."""


class SafetensorsFile:
    """Lazy reader: the header is parsed on open, each tensor is read when asked for."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            raw = f.read(8)
            if len(raw) != 8:
                raise SafetensorsError(f"{path}: shorter than the 8-byte header length")
            (n,) = struct.unpack("<Q", raw)
            if n > _MAX_HEADER:
                raise SafetensorsError(f"{path}: header length {n} exceeds 100 MB")
            head = f.read(n)
            if len(head) != n:
                raise SafetensorsError(f"{path}: header length {n} beyond the end of the file")
            f.seek(0, 2)
            size = f.tell()
        try:
            header = json.loads(head.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise SafetensorsError(f"{path}: header is not JSON: {e}") from e
        self.metadata = header.pop("__metadata__", {}) or {}
        self._base = 8 + n
        self._tensors = {}
        for name, info in header.items():
            dtype = info.get("dtype")
            if dtype not in _DTYPES:
                raise SafetensorsError(f"{path}: /{name}/dtype: unknown dtype {dtype!r}")
            begin, end = info["data_offsets"]
            shape = [int(s) for s in info["shape"]]
            count = 1
            for s in shape:
                count *= s
            width = numpy.dtype(_DTYPES[dtype][1]).itemsize
            if end - begin != count * width or end < begin or self._base + end > size:
                raise SafetensorsError(f"{path}: /{name}/data_offsets: {begin}-{end} do not hold "
                                       f"shape {shape} of {dtype} inside the file")
            self._tensors[name] = (dtype, shape, begin, end)

    def keys(self):
        return list(self._tensors)

    def __contains__(self, name):
        return name in self._tensors

    def shape(self, name):
        return list(self._tensors[name][1])

    def get(self, name):
        dtype, shape, begin, end = self._tensors[name]
        with open(self.path, "rb") as f:
            f.seek(self._base + begin)
            raw = f.read(end - begin)
        torch_dtype, np_dtype = _DTYPES[dtype]
        array = numpy.frombuffer(raw, dtype=np_dtype).copy()
        t = torch.from_numpy(array)
        if dtype == "BF16":
            t = t.view(torch.bfloat16)
        return t.reshape(shape)


def save_file(tensors, path, metadata=None):
    """Writes {name: tensor} in safetensors layout (names sorted, header padded to 8 bytes)."""
    header = {}
    chunks = []
    offset = 0
    for name in sorted(tensors):
        t = tensors[name].detach().to("cpu").contiguous()
        if t.dtype not in _NAMES:
            raise ValueError(f"save_file: {name}: dtype {t.dtype} has no safetensors name")
        raw = (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy().tobytes()
        header[name] = {"dtype": _NAMES[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    head = json.dumps(header, separators=(",", ":")).encode("utf-8")
    head += b" " * (-len(head) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(head)))
        f.write(head)
        for raw in chunks:
            f.write(raw)
