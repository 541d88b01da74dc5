"""Fake quantization (quantize, then dequantize, in float32) of the formats ACSeL exports,
with max calibration: every scale is an absolute maximum divided by the format's largest
value. Rounding is to nearest, ties to even (torch.round), as ModelOpt's fake-quant kernels.

    fp8 e4m3     largest 448, 3 mantissa bits, subnormals below 2^-6 (step 2^-9)
    fp4 e2m1     values 0, 0.5, 1, 1.5, 2, 3, 4, 6
    int8 / int4  symmetric, scale amax / 127 (resp. 7), clamp [-128, 127] (resp. [-8, 7])
    nvfp4        blocks of 16 along the last axis; block scale amax_block / 6 / g rounded to
                 e4m3, global scale g = amax_tensor / (6 * 448) (ModelOpt's two-level scale)
"""
import torch

E4M3_MAX = 448.0
E2M1_MAX = 6.0


def _round_float(x, mantissa_bits, min_exponent, largest):
    """Rounds to the nearest value of a binary float with the given mantissa bits and
    smallest normal exponent (subnormals below it), saturating at +-largest."""
    a = x.abs().clamp(max=largest)
    # frexp is exact: a = m 2^e with m in [0.5, 1), so floor(log2 a) = e - 1.
    exponent = torch.frexp(a)[1].float() - 1.0
    step = torch.pow(2.0, exponent.clamp(min=min_exponent) - mantissa_bits)
    return (torch.sign(x) * (torch.round(a / step) * step).clamp(max=largest))


def round_e4m3(x):
    return _round_float(x.float(), 3, -6, E4M3_MAX)


def round_e2m1(x):
    return _round_float(x.float(), 1, 0, E2M1_MAX)


def _safe_div(x, scale):
    """x / scale with scale 0 (an all-zero tensor or block) giving 0 instead of NaN."""
    return torch.where(scale > 0, x / torch.where(scale > 0, scale, torch.ones_like(scale)),
                       torch.zeros_like(x))


def fp8_per_tensor(x, amax):
    """e4m3 with one scale amax / 448 (static: amax comes from calibration)."""
    scale = torch.as_tensor(float(amax) / E4M3_MAX)
    return round_e4m3(_safe_div(x.float(), scale)) * scale


def int_symmetric(x, amax, bits):
    """Signed integer with scale amax / (2^(bits-1) - 1); amax broadcasts (per tensor or per
    channel)."""
    bound = 2 ** (bits - 1) - 1
    scale = torch.as_tensor(amax, dtype=torch.float32) / bound
    q = torch.round(_safe_div(x.float(), scale)).clamp(-bound - 1, bound)
    return q * scale


def int8_per_channel(w):
    """Weights [out, in], one scale per output channel (ModelOpt axis 0)."""
    return int_symmetric(w, w.float().abs().amax(dim=1, keepdim=True), 8)


def _blocks(x, block):
    """[..., k] -> [..., k / block, block] (k must be a multiple of block)."""
    k = x.shape[-1]
    if k % block:
        raise ValueError(f"last dimension {k} is not a multiple of the block size {block}")
    return x.float().reshape(*x.shape[:-1], k // block, block)


def int4_block(w, block=128):
    """int4 weight-only, one max scale per block of `block` input features."""
    b = _blocks(w, block)
    return int_symmetric(b, b.abs().amax(dim=-1, keepdim=True), 4).reshape(w.shape)


def nvfp4(x, global_amax=None, block=16):
    """NVFP4: e2m1 values, an e4m3 scale per block of 16 along the last axis, and a float32
    global scale from the tensor's amax (weights: their own; activations: the calibrated one).
    The block scales are always from the block itself ("dynamic")."""
    b = _blocks(x, block)
    if global_amax is None:
        global_amax = b.abs().max()
    g = torch.as_tensor(float(global_amax) / (E2M1_MAX * E4M3_MAX))
    block_scale = round_e4m3(_safe_div(b.abs().amax(dim=-1, keepdim=True) / E2M1_MAX, g))
    scale = block_scale * g
    return (round_e2m1(_safe_div(b, scale)) * scale).reshape(x.shape)


def fp8_block_weight(w, block=128):
    """e4m3 weights with one scale per block x block tile (fp8_block, ModelOpt's 2-D blocks)."""
    out_f, in_f = w.shape
    if out_f % block or in_f % block:
        raise ValueError(f"weight {list(w.shape)} is not tiled by {block}x{block} blocks")
    t = w.float().reshape(out_f // block, block, in_f // block, block)
    scale = t.abs().amax(dim=(1, 3), keepdim=True) / E4M3_MAX
    return (round_e4m3(_safe_div(t, scale)) * scale).reshape(w.shape)


def fp8_block_dynamic(x, block=128):
    """e4m3 activations with a dynamic scale per group of `block` along the last axis."""
    b = _blocks(x, block)
    scale = b.abs().amax(dim=-1, keepdim=True) / E4M3_MAX
    return (round_e4m3(_safe_div(b, scale)) * scale).reshape(x.shape)


# ---- per format: how a linear's weight and input are quantized ---------------------------

def quantize_weight(fmt, w):
    """The fake-quantized weight [out, in] of a linear in format `fmt` (float32)."""
    if fmt in ("fp8",):
        return fp8_per_tensor(w, w.float().abs().max())
    if fmt in ("int8", "int8_wo"):
        return int8_per_channel(w)
    if fmt == "int4_wo":
        return int4_block(w, 128)
    if fmt == "nvfp4":
        return nvfp4(w, None, 16)
    if fmt == "fp8_block":
        return fp8_block_weight(w, 128)
    raise ValueError(f"no weight quantizer for format {fmt!r}")


def quantize_input(fmt, x, amax):
    """The fake-quantized input of a linear in format `fmt`; `amax` is the calibrated absolute
    maximum of that input (used by the static per-tensor scales and nvfp4's global scale).
    Weight-only formats return x unchanged."""
    if fmt in ("int8_wo", "int4_wo"):
        return x
    if fmt == "fp8":
        return fp8_per_tensor(x, amax).to(x.dtype)
    if fmt == "int8":
        return int_symmetric(x, float(amax), 8).to(x.dtype)
    if fmt == "nvfp4":
        return nvfp4(x, amax, 16).to(x.dtype)
    if fmt == "fp8_block":
        return fp8_block_dynamic(x, 128).to(x.dtype)
    raise ValueError(f"no input quantizer for format {fmt!r}")


def weight_only(fmt):
    return fmt in ("int8_wo", "int4_wo")
