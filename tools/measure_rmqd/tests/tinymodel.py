#!/usr/bin/env python3
"""Writes a tiny random checkpoint in the Hugging Face layout (config.json, two safetensors
shards with model.safetensors.index.json, a byte-level BPE tokenizer.json) for the tests and
the worked example of docs/QUALITY.md. Its architecture is the one of
tests/data/tiny_workspace.json, so `acsel plan quality` and `acsel export` accept it.

    python3 tools/measure_rmqd/tests/tinymodel.py OUT_DIR [--family F] [--seed N]
        F: qwen3, llama; the mixtures of experts qwen3_moe, qwen2_moe, mixtral
    python3 tools/measure_rmqd/tests/tinymodel.py --text FILE   (a calibration text)
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from rmqdtool.safetensors import save_file  # noqa: E402
from rmqdtool.tokenizer import bytes_to_unicode  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
WORKSPACE = os.path.join(HERE, "data", "tiny_workspace.json")
MODEL_NAMES = {"qwen3": "Tiny-Qwen3-2L", "llama": "Tiny-Llama-2L",
               "qwen3_moe": "Tiny-Qwen3MoE-3L", "qwen2_moe": "Tiny-Qwen2MoE-2L",
               "mixtral": "Tiny-Mixtral-2L"}
ARCHITECTURES = {"qwen3": "Qwen3ForCausalLM", "llama": "LlamaForCausalLM",
                 "qwen3_moe": "Qwen3MoeForCausalLM", "qwen2_moe": "Qwen2MoeForCausalLM",
                 "mixtral": "MixtralForCausalLM"}
# 256 byte tokens plus these merges (ranked in order): vocabulary 256 + 64 = 320.
_MERGES = ["Ġ t", "h e", "Ġt he", "i n", "a n", "e r", "o n", "Ġ a", "r e", "Ġ s", "e n", "a t",
           "Ġ o", "Ġ w", "o r", "e s", "Ġ c", "i s", "i t", "Ġ b", "Ġ f", "Ġ p", "Ġ m", "a l",
           "e d", "a r", "Ġ in", "Ġ the", "o u", "l e", "in g", "Ġ d", "i c", "Ġ h", "Ġ l",
           "a s", "Ġ n", "o m", "Ġa n", "Ġo f", "Ġ e", "r o", "Ġ g", "Ġt o", "i l", "s t",
           "Ġ re", "l y", "Ġan d", "Ġ is", "v e", "Ġ y", "Ġ u", "c h", "i on", "o t", "c e",
           "Ġ it", "Ġb e", "u t", "Ġ on", "Ġ S", "Ġ T", "Ġ A"]


def architecture(family):
    with open(WORKSPACE, encoding="utf-8") as f:
        ws = json.load(f)
    model = next(m for m in ws["models"] if m["name"] == MODEL_NAMES[family])
    cfg = dict(model["config"])
    cfg.update({"rms_norm_eps": 1e-6, "architectures": [ARCHITECTURES[family]],
                "torch_dtype": "bfloat16"})
    if family == "llama":  # Llama-3.1's rope and its frequency-dependent scaling
        cfg.update({"rope_theta": 500000.0, "rope_scaling": {
            "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
            "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})
    else:
        cfg.update({"rope_theta": 1000000.0})
    return cfg


def tokenizer_json():
    byte_map = bytes_to_unicode()
    vocab = {byte_map[b]: b for b in range(256)}
    for i, merge in enumerate(_MERGES):
        vocab[merge.replace(" ", "")] = 256 + i
    pattern = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+"
               r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
    return {"version": "1.0", "added_tokens": [],
            "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
                {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated",
                 "invert": False},
                {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
                 "use_regex": False}]},
            "model": {"type": "BPE", "vocab": vocab, "merges": _MERGES, "ignore_merges": False}}


def moe_layers(cfg):
    """The MoE layers, by transformers' rule: Mixtral all; Qwen-MoE (l + 1) % decoder_sparse_step
    == 0 and l not in mlp_only_layers."""
    n = cfg["num_hidden_layers"]
    if cfg["model_type"] == "mixtral":
        return set(range(n))
    if cfg["model_type"] not in ("qwen3_moe", "qwen2_moe"):
        return set()
    return {l for l in range(n) if (l + 1) % cfg["decoder_sparse_step"] == 0
            and l not in cfg["mlp_only_layers"]}


def mlp_shapes(cfg, layer):
    """{module (under the layer): (out, in)} of a layer's MLP linears, in the HF layout."""
    h = cfg["hidden_size"]
    if layer not in moe_layers(cfg):
        i = cfg["intermediate_size"]
        return {"mlp.gate_proj": (i, h), "mlp.up_proj": (i, h), "mlp.down_proj": (h, i)}
    out = {}
    if cfg["model_type"] == "mixtral":  # w1 gate, w3 up, w2 down
        i, e = cfg["intermediate_size"], cfg["num_local_experts"]
        out["block_sparse_moe.gate"] = (e, h)
        for x in range(e):
            p = f"block_sparse_moe.experts.{x}."
            out.update({p + "w1": (i, h), p + "w3": (i, h), p + "w2": (h, i)})
        return out
    i, e = cfg["moe_intermediate_size"], cfg["num_experts"]
    out["mlp.gate"] = (e, h)
    for x in range(e):
        p = f"mlp.experts.{x}."
        out.update({p + "gate_proj": (i, h), p + "up_proj": (i, h), p + "down_proj": (h, i)})
    if cfg["model_type"] == "qwen2_moe":
        s = cfg["shared_expert_intermediate_size"]
        out.update({"mlp.shared_expert.gate_proj": (s, h), "mlp.shared_expert.up_proj": (s, h),
                    "mlp.shared_expert.down_proj": (h, s), "mlp.shared_expert_gate": (1, h)})
    return out


def weights(cfg, seed):
    """Random weights scaled so that the logits are far from uniform (a near-uniform output
    would make every RMQD tiny and the comparisons meaningless); routers scaled up so that
    tokens spread over the experts with clear top-k choices."""
    g = torch.Generator().manual_seed(seed)
    h, d, v = cfg["hidden_size"], cfg["head_dim"], cfg["vocab_size"]
    nq, nkv = cfg["num_attention_heads"] * d, cfg["num_key_value_heads"] * d

    def rand(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g) * scale).to(torch.bfloat16)

    out = {"model.embed_tokens.weight": rand(v, h), "model.norm.weight":
           (1 + 0.1 * torch.randn(h, generator=g)).to(torch.bfloat16)}
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        shapes = {"self_attn.q_proj": (nq, h), "self_attn.k_proj": (nkv, h),
                  "self_attn.v_proj": (nkv, h), "self_attn.o_proj": (h, nq)}
        shapes.update(mlp_shapes(cfg, layer))
        for name, (n_out, n_in) in shapes.items():
            router = name.endswith(".gate") or name.endswith("_gate")
            out[p + name + ".weight"] = rand(n_out, n_in, scale=(4 if router else 1) * n_in ** -0.5)
        if cfg["model_type"] in ("qwen2", "qwen2_moe"):  # q/k/v biases
            for name, n_out in (("q_proj", nq), ("k_proj", nkv), ("v_proj", nkv)):
                out[p + "self_attn." + name + ".bias"] = rand(n_out, scale=0.5)
        for norm in ("input_layernorm", "post_attention_layernorm"):
            out[p + norm + ".weight"] = (1 + 0.1 * torch.randn(h, generator=g)).to(torch.bfloat16)
        if cfg["model_type"] in ("qwen3", "qwen3_moe"):
            for norm in ("q_norm", "k_norm"):
                out[p + "self_attn." + norm + ".weight"] = \
                    (1 + 0.1 * torch.randn(d, generator=g)).to(torch.bfloat16)
    if not cfg["tie_word_embeddings"]:
        out["lm_head.weight"] = rand(v, h, scale=3 * h ** -0.5)
    return out


def write(folder, family="qwen3", seed=0):
    """Writes the checkpoint; returns its model name in tiny_workspace.json."""
    os.makedirs(folder, exist_ok=True)
    cfg = architecture(family)
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=2)
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(), f)
    w = weights(cfg, seed)
    names = sorted(w)
    shards = {"model-00001-of-00002.safetensors": names[: len(names) // 2],
              "model-00002-of-00002.safetensors": names[len(names) // 2:]}
    weight_map = {}
    for shard, keys in shards.items():
        save_file({k: w[k] for k in keys}, os.path.join(folder, shard), {"format": "pt"})
        weight_map.update({k: shard for k in keys})
    with open(os.path.join(folder, "model.safetensors.index.json"), "w", encoding="utf-8") as f:
        json.dump({"metadata": {}, "weight_map": weight_map}, f, indent=2)
    return MODEL_NAMES[family]


_WORDS = ("the model of a quantized network is tested on this text and the result is the "
          "mean divergence between two distributions over tokens in each layer it reads "
          "Some Tables And Answers on the weights").split()


def calibration_text(path, words=6000, seed=1):
    """A deterministic pseudo-English text (paragraphs of random words, some digits)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(words // 60):
        para = " ".join(rng.choice(_WORDS) if rng.random() > 0.05 else str(rng.randint(0, 999))
                        for _ in range(60))
        lines.append(para + ".\n\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(lines))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("folder", nargs="?")
    ap.add_argument("--family", choices=tuple(MODEL_NAMES), default="qwen3")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--text", help="write a calibration text to this file instead")
    a = ap.parse_args()
    if a.text:
        calibration_text(a.text)
        print(f"wrote {a.text}")
    elif a.folder:
        print(f"wrote {a.folder}: {write(a.folder, a.family, a.seed)}")
    else:
        ap.error("give a folder or --text FILE")
