"""A Hugging Face checkpoint folder: config.json and the safetensors shards
(model.safetensors, or model.safetensors.index.json naming the shard of each tensor)."""
import json
import math
import os

from .safetensors import SafetensorsFile

SUPPORTED_TYPES = ("llama", "qwen3", "qwen2", "mistral")


class CheckpointError(ValueError):
    pass


class Arch:
    """The architecture facts the forward pass needs, from config.json."""

    def __init__(self, cfg, path="config.json"):
        def need(key):
            if key not in cfg:
                raise CheckpointError(f"{path}: missing '{key}'")
            return cfg[key]

        self.model_type = need("model_type")
        if self.model_type not in SUPPORTED_TYPES:
            raise CheckpointError(f"{path}: model_type '{self.model_type}' is not a dense decoder "
                                  f"this tool runs (expected one of {', '.join(SUPPORTED_TYPES)})")
        self.layers = int(need("num_hidden_layers"))
        self.hidden = int(need("hidden_size"))
        self.heads = int(need("num_attention_heads"))
        self.kv_heads = int(cfg.get("num_key_value_heads") or self.heads)
        self.head_dim = int(cfg.get("head_dim") or self.hidden // self.heads)
        self.intermediate = int(need("intermediate_size"))
        self.vocab = int(need("vocab_size"))
        self.rms_eps = float(cfg.get("rms_norm_eps", 1e-6))
        self.rope_theta = float(cfg.get("rope_theta", 10000.0))
        self.rope_scaling = cfg.get("rope_scaling")
        self.tied = bool(cfg.get("tie_word_embeddings", False))
        self.qk_norm = self.model_type == "qwen3"
        if self.heads % self.kv_heads:
            raise CheckpointError(f"{path}: num_key_value_heads {self.kv_heads} does not divide "
                                  f"num_attention_heads {self.heads}")
        if self.rope_scaling is not None:
            kind = self.rope_scaling.get("rope_type", self.rope_scaling.get("type"))
            if kind not in ("llama3", "default"):
                raise CheckpointError(f"{path}: rope_scaling type '{kind}' is not supported "
                                      "(llama3 or default)")


def rope_inv_freq(arch):
    """RoPE inverse frequencies, with Llama-3.1's frequency-dependent scaling when configured
    (transformers' _compute_llama3_parameters)."""
    d = arch.head_dim
    inv = [1.0 / (arch.rope_theta ** (2 * i / d)) for i in range(d // 2)]
    s = arch.rope_scaling
    if not s or s.get("rope_type", s.get("type")) != "llama3":
        return inv
    factor = float(s["factor"])
    low = float(s["low_freq_factor"])
    high = float(s["high_freq_factor"])
    old = float(s["original_max_position_embeddings"])
    low_wavelen, high_wavelen = old / low, old / high
    out = []
    for f in inv:
        wavelen = 2 * math.pi / f
        if wavelen < high_wavelen:
            out.append(f)  # high frequency: unchanged
        elif wavelen > low_wavelen:
            out.append(f / factor)  # low frequency: scaled
        else:  # in between: interpolated
            smooth = (old / wavelen - low) / (high - low)
            out.append((1 - smooth) * f / factor + smooth * f)
    return out


class Checkpoint:
    def __init__(self, folder):
        self.folder = folder
        cfg_path = os.path.join(folder, "config.json")
        try:
            with open(cfg_path, encoding="utf-8") as f:
                self.config = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise CheckpointError(f"{cfg_path}: {e}") from e
        self.arch = Arch(self.config, cfg_path)
        index = os.path.join(folder, "model.safetensors.index.json")
        self._files = {}
        self._where = {}
        if os.path.exists(index):
            with open(index, encoding="utf-8") as f:
                weight_map = json.load(f)["weight_map"]
            for name, shard in weight_map.items():
                self._where[name] = self._file(shard)
        else:
            single = os.path.join(folder, "model.safetensors")
            if not os.path.exists(single):
                raise CheckpointError(f"{folder}: no model.safetensors or "
                                      "model.safetensors.index.json")
            f = self._file("model.safetensors")
            for name in f.keys():
                self._where[name] = f

    def _file(self, shard):
        if shard not in self._files:
            self._files[shard] = SafetensorsFile(os.path.join(self.folder, shard))
        return self._files[shard]

    def names(self):
        return sorted(self._where)

    def has(self, name):
        return name in self._where

    def get(self, name):
        if name not in self._where:
            raise CheckpointError(f"{self.folder}: tensor '{name}' not in the checkpoint")
        return self._where[name].get(name)
