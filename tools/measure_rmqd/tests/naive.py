"""An independent, deliberately naive forward pass of the tiny checkpoints (float64, one
sequence, one head and one position at a time, RoPE as explicit 2-D rotations of the pairs
(i, i + d/2), the Llama-3.1 frequency rule transcribed separately; an MoE layer one token at
a time: its experts sorted by router probability, the first top-k summed, weights written out
by name), the reference the companion's batched forward is checked against."""
import math

import torch


def _t(values):
    return torch.tensor(values, dtype=torch.float64)


def llama3_inv_freq(theta, d, s):
    out = []
    for i in range(d // 2):
        f = theta ** (-(2.0 * i) / d)
        if s:
            wavelen = 2 * math.pi / f
            lo = s["original_max_position_embeddings"] / s["low_freq_factor"]
            hi = s["original_max_position_embeddings"] / s["high_freq_factor"]
            if wavelen > lo:
                f = f / s["factor"]
            elif wavelen >= hi:
                r = (s["original_max_position_embeddings"] / wavelen - s["low_freq_factor"]) / \
                    (s["high_freq_factor"] - s["low_freq_factor"])
                f = (1 - r) * f / s["factor"] + r * f
        out.append(f)
    return out


def norm(x, w, eps):
    return [xi / math.sqrt(sum(v * v for v in x) / len(x) + eps) * wi for xi, wi in zip(x, w)]


def swiglu(W, prefix, names, n):
    gate, up, down = (W[prefix + name + ".weight"] for name in names)
    g = gate @ n
    return down @ (g / (1 + torch.exp(-g)) * (up @ n))


def moe(cfg, W, p, n):
    """One token's MoE block: Mixtral (block_sparse_moe, w1/w3/w2, top-k renormalised),
    Qwen3-MoE (renormalised when norm_topk_prob), Qwen2-MoE (+ sigmoid-gated shared expert)."""
    mixtral = cfg["model_type"] == "mixtral"
    block = p + ("block_sparse_moe." if mixtral else "mlp.")
    names = ("w1", "w3", "w2") if mixtral else ("gate_proj", "up_proj", "down_proj")
    z = (W[block + "gate.weight"] @ n).tolist()
    e = [math.exp(v - max(z)) for v in z]
    prob = [v / sum(e) for v in e]
    top = sorted(range(len(prob)), key=lambda i: -prob[i])[:cfg["num_experts_per_tok"]]
    weight = [prob[i] for i in top]
    if mixtral or cfg.get("norm_topk_prob"):
        weight = [v / sum(weight) for v in weight]
    out = sum(wt * swiglu(W, f"{block}experts.{i}.", names, n) for wt, i in zip(weight, top))
    if cfg["model_type"] == "qwen2_moe":
        gate = float(W[block + "shared_expert_gate.weight"][0] @ n)
        out = out + swiglu(W, block + "shared_expert.", names, n) / (1 + math.exp(-gate))
    return out


def is_moe_layer(cfg, layer):
    if cfg["model_type"] == "mixtral":
        return True
    return cfg["model_type"] in ("qwen3_moe", "qwen2_moe") and \
        (layer + 1) % cfg["decoder_sparse_step"] == 0 and layer not in cfg["mlp_only_layers"]


def logits(cfg, w, tokens, use_scaling=True):
    """Logits [S, V] (float64) of one sequence."""
    W = {k: v.double() for k, v in w.items()}
    d = cfg["head_dim"]
    nh, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    eps = cfg["rms_norm_eps"]
    inv = llama3_inv_freq(cfg["rope_theta"], d, cfg.get("rope_scaling") if use_scaling else None)
    S = len(tokens)

    def rope(vec, pos):
        out = list(vec)
        for i in range(d // 2):
            c, s = math.cos(pos * inv[i]), math.sin(pos * inv[i])
            a, b = vec[i], vec[i + d // 2]
            out[i], out[i + d // 2] = a * c - b * s, a * s + b * c
        return out

    x = [W["model.embed_tokens.weight"][t].tolist() for t in tokens]
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        mat = {k: W[p + k + ".weight"] for k in ("self_attn.q_proj", "self_attn.k_proj",
                                                 "self_attn.v_proj", "self_attn.o_proj")}
        qs, ks, vs = [], [], []
        for pos in range(S):
            n = _t(norm(x[pos], W[p + "input_layernorm.weight"].tolist(), eps))
            q, k, v = (mat["self_attn." + m] @ n + W.get(p + "self_attn." + m + ".bias", 0.0)
                       for m in ("q_proj", "k_proj", "v_proj"))
            qh = [q[j * d:(j + 1) * d].tolist() for j in range(nh)]
            kh = [k[j * d:(j + 1) * d].tolist() for j in range(nkv)]
            if cfg["model_type"] in ("qwen3", "qwen3_moe"):
                qh = [norm(h, W[p + "self_attn.q_norm.weight"].tolist(), eps) for h in qh]
                kh = [norm(h, W[p + "self_attn.k_norm.weight"].tolist(), eps) for h in kh]
            qs.append([rope(h, pos) for h in qh])
            ks.append([rope(h, pos) for h in kh])
            vs.append([v[j * d:(j + 1) * d].tolist() for j in range(nkv)])
        new_x = []
        for pos in range(S):
            heads = []
            for j in range(nh):
                g = j // (nh // nkv)  # the kv head this query head shares
                sc = [sum(a * b for a, b in zip(qs[pos][j], ks[u][g])) / math.sqrt(d)
                      for u in range(pos + 1)]
                m = max(sc)
                e = [math.exp(s - m) for s in sc]
                z = sum(e)
                heads += [sum(e[u] / z * vs[u][g][c] for u in range(pos + 1)) for c in range(d)]
            h = _t(x[pos]) + mat["self_attn.o_proj"] @ _t(heads)
            n = _t(norm(h.tolist(), W[p + "post_attention_layernorm.weight"].tolist(),
                                  eps))
            if is_moe_layer(cfg, layer):
                new_x.append((h + moe(cfg, W, p, n)).tolist())
            else:
                new_x.append((h + swiglu(W, p + "mlp.", ("gate_proj", "up_proj", "down_proj"),
                                         n)).tolist())
        x = new_x
    head = W["lm_head.weight"] if "lm_head.weight" in W else W["model.embed_tokens.weight"]
    return torch.stack([head @ _t(norm(v, W["model.norm.weight"].tolist(), eps))
                        for v in x])
