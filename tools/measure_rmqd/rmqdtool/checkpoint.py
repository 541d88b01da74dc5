"""A Hugging Face checkpoint folder: config.json and the safetensors shards
(model.safetensors, or model.safetensors.index.json naming the shard of each tensor)."""
import json
import math
import os

from .safetensors import SafetensorsFile

DENSE_TYPES = ("llama", "qwen3", "qwen2", "mistral")
MOE_TYPES = ("qwen3_moe", "qwen2_moe", "mixtral")
SUPPORTED_TYPES = DENSE_TYPES + MOE_TYPES


class CheckpointError(ValueError):
    pass


class Arch:
    """The architecture facts the forward pass needs, from config.json. A mixture of experts
    (as core/data/hfconfig): layer l's MLP is an MoE block when (l + 1) % decoder_sparse_step
    == 0 and l is not in mlp_only_layers (Mixtral: every layer), of `experts` routed experts
    of expert_intermediate columns, topk per token, and a shared expert of
    shared_intermediate columns (Qwen2-MoE; 0 when none)."""

    def __init__(self, cfg, path="config.json"):
        def need(key):
            if key not in cfg:
                raise CheckpointError(f"{path}: missing '{key}'")
            return cfg[key]

        self.model_type = need("model_type")
        if self.model_type not in SUPPORTED_TYPES:
            raise CheckpointError(f"{path}: model_type '{self.model_type}' is not a decoder "
                                  f"this tool runs (expected one of {', '.join(SUPPORTED_TYPES)})")
        moe = self.model_type in MOE_TYPES
        for key in ("num_experts", "num_local_experts", "moe_intermediate_size"):
            if not moe and cfg.get(key) is not None:
                raise CheckpointError(f"{path}: '{key}' describes experts but model_type "
                                      f"'{self.model_type}' is a dense decoder")
        self.layers = int(need("num_hidden_layers"))
        self.hidden = int(need("hidden_size"))
        self.heads = int(need("num_attention_heads"))
        self.kv_heads = int(cfg.get("num_key_value_heads") or self.heads)
        self.head_dim = int(cfg.get("head_dim") or self.hidden // self.heads)
        self.mixtral = self.model_type == "mixtral"
        self.experts = self.topk = self.expert_intermediate = self.shared_intermediate = 0
        self.norm_topk = self.mixtral or bool(cfg.get("norm_topk_prob", False))
        step, dense = 1, set()
        if not moe:
            self.intermediate = int(need("intermediate_size"))
        elif self.mixtral:  # its intermediate_size is the experts'; every layer is MoE
            self.intermediate = 0
            self.experts = int(need("num_local_experts"))
            self.expert_intermediate = int(need("intermediate_size"))
        else:  # Qwen-MoE: intermediate_size sizes the dense layers
            self.intermediate = int(cfg.get("intermediate_size") or 0)
            self.experts = int(need("num_experts"))
            self.expert_intermediate = int(need("moe_intermediate_size"))
            if self.model_type == "qwen2_moe":
                self.shared_intermediate = int(need("shared_expert_intermediate_size"))
            step = int(cfg.get("decoder_sparse_step") or 1)
            dense = set(cfg.get("mlp_only_layers") or [])
        if moe:
            self.topk = int(need("num_experts_per_tok"))
        self.vocab = int(need("vocab_size"))
        self.rms_eps = float(cfg.get("rms_norm_eps", 1e-6))
        self.rope_theta = float(cfg.get("rope_theta", 10000.0))
        self.rope_scaling = cfg.get("rope_scaling")
        self.tied = bool(cfg.get("tie_word_embeddings", False))
        self.moe_layers = frozenset(l for l in range(self.layers) if moe and
                                    (l + 1) % step == 0 and l not in dense)
        if moe and not 0 < self.topk <= self.experts:
            raise CheckpointError(f"{path}: num_experts_per_tok {self.topk} is not in 1.."
                                  f"{self.experts}")
        if len(self.moe_layers) < self.layers and self.intermediate <= 0:
            raise CheckpointError(f"{path}: missing 'intermediate_size' (the dense layers' MLP)")
        self.qk_norm = self.model_type in ("qwen3", "qwen3_moe")
        if self.heads % self.kv_heads:
            raise CheckpointError(f"{path}: num_key_value_heads {self.kv_heads} does not divide "
                                  f"num_attention_heads {self.heads}")
        if self.rope_scaling is not None:
            kind = self.rope_scaling.get("rope_type", self.rope_scaling.get("type"))
            if kind not in ("llama3", "default"):
                raise CheckpointError(f"{path}: rope_scaling type '{kind}' is not supported "
                                      "(llama3 or default)")

    def is_moe_layer(self, layer):
        return layer in self.moe_layers


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
