"""Reads an `acsel export --as modelopt-yaml` recipe and applies it the way ModelOpt does:
every quantizer of the model starts at ModelOpt's default, the quant_cfg entries are applied
in order to every quantizer whose name matches (fnmatch; later entries win; a cfg replaces the
quantizer's attributes and enables it unless `enable: false`; an enable-only entry toggles it).
Each linear's (weight, input) quantizer pair is then classified into one of ACSeL's formats
(docs/EXPORT.md's table), so the measured configuration is exactly the exported one."""
import fnmatch

import yaml

from .model import LINEARS, QuantSpec, gate_modules, kv_quantizer, linear_modules

ATTENTION = ("q_proj", "k_proj", "v_proj", "o_proj")
MLP = ("gate_proj", "up_proj", "down_proj")
FUSED = (("q_proj", "k_proj", "v_proj"), ("gate_proj", "up_proj"))

# (weight numerics, input numerics or None) per format, in the normalised form of _numerics.
_FP8 = (("num_bits", "e4m3"), ("axis", None))
_NVFP4 = (("num_bits", "e2m1"), ("block_sizes", ((-1, 16), ("scale_bits", "e4m3"),
                                                 ("type", "dynamic"))))
FORMAT_NUMERICS = {
    "fp8": (_FP8, _FP8),
    "int8": ((("num_bits", 8), ("axis", 0)), (("num_bits", 8), ("axis", None))),
    "int8_wo": ((("num_bits", 8), ("axis", 0)), None),
    "int4_wo": ((("num_bits", 4), ("block_sizes", ((-1, 128), ("type", "static")))), None),
    "nvfp4": (_NVFP4, _NVFP4),
    "fp8_block": ((("num_bits", "e4m3"), ("block_sizes", ((-1, 128), (-2, 128)))),
                  (("num_bits", "e4m3"), ("block_sizes", ((-1, 128), ("type", "dynamic"))))),
}
KV_FP8 = (("num_bits", "e4m3"),)
# ModelOpt's default quantizer: 8-bit integer, per tensor, enabled.
_DEFAULT = (("num_bits", 8), ("axis", None))
ALGORITHMS = {"max": "max", "smoothquant": "smoothquant", "awq_lite": "awq", "awq_full": "awq",
              "awq_clip": "awq", "gptq": "gptq"}


class RecipeError(ValueError):
    pass


def _numerics(cfg, where):
    """A cfg mapping in a canonical, comparable form (sorted tuples)."""
    if not isinstance(cfg, dict):
        raise RecipeError(f"{where}: cfg must be a mapping")
    out = {}
    for key, value in cfg.items():
        if key == "num_bits":
            if isinstance(value, list) and len(value) == 2:
                value = f"e{value[0]}m{value[1]}"
            if value not in (4, 8, "e4m3", "e2m1"):
                raise RecipeError(f"{where}: num_bits must be 4, 8, e4m3 or e2m1, not {value!r}")
        elif key == "axis":
            if value not in (None, 0):
                raise RecipeError(f"{where}: axis must be null or 0, not {value!r}")
        elif key == "block_sizes":
            if not isinstance(value, dict):
                raise RecipeError(f"{where}: block_sizes must be a mapping")
            pairs = [((int(k) if str(k).lstrip("-").isdigit() else k), v)
                     for k, v in value.items()]
            value = tuple(sorted(pairs, key=lambda kv: str(kv[0])))
        else:
            raise RecipeError(f"{where}: unsupported quantizer attribute '{key}'")
        out[key] = value
    return tuple(sorted(out.items(), key=lambda kv: kv[0]))


def describe(numerics):
    """A quantizer state as the YAML spells it ('disabled' for an off quantizer)."""
    if numerics is None:
        return "disabled"
    parts = []
    for k, v in numerics:
        if isinstance(v, tuple):
            v = "{" + ", ".join(f"{a}: {b}" for a, b in v) + "}"
        parts.append(f"{k}: {'null' if v is None else v}")
    return "{" + ", ".join(parts) + "}"


def _canonical(numerics):
    return tuple(sorted(numerics, key=lambda kv: kv[0]))


def _canonical_block(numerics):
    out = []
    for k, v in numerics:
        if k == "block_sizes":
            v = tuple(sorted(v, key=lambda kv: str(kv[0])))
        out.append((k, v))
    return _canonical(out)


_BY_NUMERICS = {}
for _fmt, (_w, _i) in FORMAT_NUMERICS.items():
    _BY_NUMERICS[(_canonical_block(_w), _canonical_block(_i) if _i else None)] = _fmt


_LINEAR_QUANTIZERS = ("input_quantizer", "output_quantizer", "weight_quantizer")


def quantizer_names(arch):
    """Every quantizer of the wrapped model (as core/export/modulenames): per linear module
    (each expert's, an MoE layer's router and shared-expert gate) its input, output and weight
    quantizers; per attention its q/k/v bmm and softmax quantizers; lm_head's."""
    names = []
    for layer in range(arch.layers):
        modules = [m for lin in LINEARS for m in linear_modules(arch, layer, lin)]
        for module in modules + gate_modules(arch, layer):
            names += [f"{module}.{q}" for q in _LINEAR_QUANTIZERS]
        names += [kv_quantizer(layer, which) for which in ("q", "k", "v")]
        names.append(f"model.layers.{layer}.self_attn.softmax_quantizer")
    names += [f"lm_head.{q}" for q in _LINEAR_QUANTIZERS]
    return names


class Recipe:
    """The applied recipe: spec (QuantSpec), algorithm (max, smoothquant, awq, gptq), bands
    (the band text of the quality set, e.g. '0-0:fp8/full;1-1:bf16') and description."""

    def __init__(self, spec, algorithm, bands, description):
        self.spec = spec
        self.algorithm = algorithm
        self.bands = bands
        self.description = description


def load_recipe(path, arch):
    try:
        with open(path, encoding="utf-8") as f:
            root = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise RecipeError(f"{path}: {e}") from e
    return parse_recipe(root, arch, path)


def parse_recipe(root, arch, path="recipe"):
    """The recipe applied to the quantizers of `arch` (checkpoint.Arch)."""
    if not isinstance(root, dict) or set(root) - {"metadata", "quantize"}:
        raise RecipeError(f"{path}: expected a mapping with metadata and quantize")
    meta = root.get("metadata") or {}
    if meta.get("recipe_type") != "ptq":
        raise RecipeError(f"{path}: metadata.recipe_type: expected ptq")
    q = root.get("quantize")
    if not isinstance(q, dict) or not isinstance(q.get("quant_cfg"), list):
        raise RecipeError(f"{path}: quantize.quant_cfg: expected a list of entries")
    alg = q.get("algorithm", "max")
    method = alg.get("method") if isinstance(alg, dict) else alg
    if method not in ALGORITHMS:
        raise RecipeError(f"{path}: quantize.algorithm: unsupported method {method!r}")

    state = {name: [True, _DEFAULT] for name in quantizer_names(arch)}
    for i, entry in enumerate(q["quant_cfg"]):
        where = f"{path}: quantize.quant_cfg[{i}]"
        if not isinstance(entry, dict) or "quantizer_name" not in entry:
            raise RecipeError(f"{where}: expected a mapping with quantizer_name")
        if set(entry) - {"quantizer_name", "cfg", "enable"}:
            raise RecipeError(f"{where}: unsupported keys {sorted(set(entry) - {'quantizer_name', 'cfg', 'enable'})}")
        cfg = _numerics(entry["cfg"], where) if "cfg" in entry else None
        enable = entry.get("enable")
        if enable is not None and not isinstance(enable, bool):
            raise RecipeError(f"{where}: enable must be true or false")
        pattern = str(entry["quantizer_name"])
        for name, st in state.items():
            if fnmatch.fnmatchcase(name, pattern):
                if cfg is not None:
                    st[1] = cfg
                    st[0] = True if enable is None else enable
                elif enable is not None:
                    st[0] = enable

    def numerics(name):
        on, cfg = state[name]
        return _canonical_block(cfg) if on else None

    def classify(module):
        w, i = numerics(module + ".weight_quantizer"), numerics(module + ".input_quantizer")
        out = numerics(module + ".output_quantizer")
        if out is not None:
            raise RecipeError(f"{path}: {module}.output_quantizer is enabled: no ACSeL format "
                              "quantizes a linear's output")
        if w is None and i is None:
            return "bf16"
        fmt = _BY_NUMERICS.get((w, i))
        if fmt is None:
            raise RecipeError(f"{path}: {module}: weight quantizer {describe(w)} and input "
                              f"quantizer {describe(i)} are the numerics of no ACSeL format "
                              "(docs/EXPORT.md; a quantizer left at ModelOpt's default?)")
        return fmt

    def layer_format(layer, lin):
        """The one format of every module of a layer's linear (each expert of an MoE layer)."""
        fmts = {m: classify(m) for m in linear_modules(arch, layer, lin)}
        if len(set(fmts.values())) != 1:
            raise RecipeError(f"{path}: layer {layer}: {lin} of its experts in "
                              f"{', '.join(sorted(set(fmts.values())))}; a band gives every "
                              "expert of a layer one format")
        return next(iter(fmts.values()))

    layers = [{lin: layer_format(l, lin) for lin in LINEARS} for l in range(arch.layers)]
    for l in range(arch.layers):
        for name in (f"{m}.{q}" for m in gate_modules(arch, l) for q in _LINEAR_QUANTIZERS):
            if numerics(name) is not None:
                raise RecipeError(f"{path}: {name} is enabled; the MoE router and the shared "
                                  "expert's gate are never quantized")
    kv = set()
    for l in range(arch.layers):
        if numerics(f"model.layers.{l}.self_attn.q_bmm_quantizer") is not None or \
                numerics(f"model.layers.{l}.self_attn.softmax_quantizer") is not None:
            raise RecipeError(f"{path}: layer {l}: q_bmm or softmax quantizer enabled")
        for which in ("k", "v"):
            n = numerics(kv_quantizer(l, which))
            if n is None:
                kv.add("bf16")
            elif n == _canonical(KV_FP8) or n == _canonical(KV_FP8 + (("axis", None),)):
                kv.add("fp8")
            else:
                raise RecipeError(f"{path}: {kv_quantizer(l, which)}: {describe(n)} is not the "
                                  "fp8 KV cache's {num_bits: e4m3}")
    if len(kv) != 1:
        raise RecipeError(f"{path}: the KV cache has more than one format")
    spec = QuantSpec(layers, classify("lm_head"), kv.pop())
    return Recipe(spec, ALGORITHMS[method], bands_of(spec, path), meta.get("description", ""))


def _layer_band(fmts, layer, path):
    for group in FUSED:
        if len({fmts[lin] for lin in group}) != 1:
            raise RecipeError(f"{path}: layer {layer}: {', '.join(group)} differ; they are fused "
                              "on export and must share one format")
    attn = {fmts[lin] for lin in ATTENTION}
    mlp = {fmts[lin] for lin in MLP}
    if len(attn) != 1 or len(mlp) != 1:
        raise RecipeError(f"{path}: layer {layer}: mixes formats within attention or MLP")
    a, m = attn.pop(), mlp.pop()
    if a == m:
        return (a, "full")
    if a == "bf16":
        return (m, "mlp")
    if m == "bf16":
        return (a, "attn")
    raise RecipeError(f"{path}: layer {layer}: attention {a} and MLP {m}: a layer has one format")


def bands_of(spec, path="recipe"):
    """The quality set's band text of a spec: 'first-last:format/scope' per run of equal layers
    (a bf16 band written without its scope, as core/data/qualityset's bandsToText)."""
    per_layer = [_layer_band(f, l, path) for l, f in enumerate(spec.layers)]
    bands = []
    start = 0
    for l in range(1, len(per_layer) + 1):
        if l == len(per_layer) or per_layer[l] != per_layer[start]:
            fmt, scope = per_layer[start]
            bands.append(f"{start}-{l - 1}:" + ("bf16" if fmt == "bf16" else f"{fmt}/{scope}"))
            start = l
    if len(bands) > 3:
        raise RecipeError(f"{path}: {len(bands)} bands; a configuration has at most 3")
    return ";".join(bands)
