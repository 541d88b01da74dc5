"""The forward pass of a Hugging Face decoder, dense (Llama 2/3/3.1, Qwen2/Qwen3, Mistral) or
mixture of experts (Qwen3-MoE, Qwen2-MoE, Mixtral), in plain PyTorch, run layer-major over a
batch of sequences: each layer's weights are loaded (and fake-quantized) once for all
sequences, so a candidate costs one pass over the weights and never needs a second copy of the
model in memory.

Matches transformers' LlamaForCausalLM / Qwen3ForCausalLM: RMSNorm in float32, RoPE on the
two halves of each head (rotate_half), Llama-3.1 rope scaling, grouped-query attention, the
Qwen3 per-head q/k RMSNorm before RoPE, SwiGLU MLP, optional attention biases (Qwen2); and
their sparse MoE blocks (Qwen3MoeSparseMoeBlock, MixtralSparseMoeBlock,
Qwen2MoeSparseMoeBlock): a router, topk SwiGLU experts, Qwen2-MoE's gated shared expert."""
import torch

from . import fakequant
from .checkpoint import rope_inv_freq

LINEARS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ATTENTION_LINEARS = LINEARS[:4]
MLP_LINEARS = LINEARS[4:]
_MIXTRAL_EXPERT = {"gate_proj": "w1", "up_proj": "w3", "down_proj": "w2"}


def linear_module(layer, linear):
    """An attention linear's module, or a dense layer's MLP linear's."""
    part = "self_attn" if linear in ATTENTION_LINEARS else "mlp"
    return f"model.layers.{layer}.{part}.{linear}"


def _moe_block(arch, layer):
    return f"model.layers.{layer}." + ("block_sparse_moe" if arch.mixtral else "mlp")


def linear_modules(arch, layer, linear):
    """The modules that carry a layer's linear, as core/export/modulenames: one, or on an MoE
    layer each routed expert's ("model.layers.3.mlp.experts.0.gate_proj", Mixtral's
    "...block_sparse_moe.experts.0.w1") and then the shared expert's. A band's scope gives
    them all its MLP format (`experts`: routed and shared)."""
    if linear in ATTENTION_LINEARS or not arch.is_moe_layer(layer):
        return [linear_module(layer, linear)]
    block = _moe_block(arch, layer)
    name = _MIXTRAL_EXPERT[linear] if arch.mixtral else linear
    out = [f"{block}.experts.{e}.{name}" for e in range(arch.experts)]
    if arch.shared_intermediate:
        out.append(f"{block}.shared_expert.{linear}")
    return out


def gate_modules(arch, layer):
    """An MoE layer's router ("model.layers.3.mlp.gate") and its shared expert's one-column
    gate: linears no recipe quantizes. Empty on a dense layer."""
    if not arch.is_moe_layer(layer):
        return []
    block = _moe_block(arch, layer)
    return [f"{block}.gate"] + ([f"{block}.shared_expert_gate"] if arch.shared_intermediate
                                else [])


def kv_quantizer(layer, which):
    return f"model.layers.{layer}.self_attn.{which}_bmm_quantizer"


class QuantSpec:
    """What a candidate quantizes: per layer {linear: format} ('bf16' = not quantized), the
    lm_head's format and the KV cache's ('bf16' or 'fp8')."""

    def __init__(self, layers, lm_head="bf16", kv="bf16"):
        self.layers = layers
        self.lm_head = lm_head
        self.kv = kv

    @staticmethod
    def none(num_layers):
        return QuantSpec([{lin: "bf16" for lin in LINEARS} for _ in range(num_layers)])


def rms_norm(x, weight, eps):
    xf = x.to(torch.promote_types(x.dtype, torch.float32))
    xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
    return weight * xf.to(x.dtype)


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class Runner:
    """Runs the checkpoint on `device` in `dtype` (float32 on CPU; bfloat16 on CUDA by default
    to fit large models, with norms and softmax in float32 as transformers does)."""

    def __init__(self, checkpoint, device="cpu", dtype=torch.float32, batch=4, cache=True):
        self.ckpt = checkpoint
        self.arch = checkpoint.arch
        self.device = device
        self.dtype = dtype
        self.batch = batch
        # Unquantized weights kept on the device after the first pass, so that each candidate
        # does not read the shards again (one model's worth of device memory; off for a model
        # that only fits once).
        self._cache = {} if cache else None

    def _w(self, name):
        if self._cache is not None and name in self._cache:
            return self._cache[name]
        w = self.ckpt.get(name).to(self.device, self.dtype)
        if self._cache is not None:
            self._cache[name] = w
        return w

    def _maybe(self, name):
        return self._w(name) if self.ckpt.has(name) else None

    def _rope(self, seq_len):
        inv = torch.tensor(rope_inv_freq(self.arch), dtype=torch.float64, device=self.device)
        pos = torch.arange(seq_len, dtype=torch.float64, device=self.device)
        freqs = torch.outer(pos, inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(self.dtype), emb.sin().to(self.dtype)

    def layer_weights(self, layer, fmts):
        """{module: weight} of every linear of a layer as a candidate of these per-linear
        formats runs it: each module fake-quantized on its own (an expert's scales from its own
        weight), an MoE layer's router and shared-expert gate never."""
        out = {}
        for lin in LINEARS:
            for module in linear_modules(self.arch, layer, lin):
                w = self._w(module + ".weight")
                out[module] = w if fmts[lin] == "bf16" else \
                    fakequant.quantize_weight(fmts[lin], w).to(self.dtype)
        for module in gate_modules(self.arch, layer):
            out[module] = self._w(module + ".weight")
        return out

    def run(self, seqs, spec=None, amax=None, collect=None, on_logits=None):
        """seqs: LongTensor [N, S]. spec: QuantSpec or None (the unquantized model). amax:
        {quantizer: calibrated absolute maximum} for the static activation scales (required
        when spec quantizes an input or the KV cache). collect: a dict that receives the
        running absolute maximum of every quantizable input (max calibration). on_logits(first,
        logits [b, S, V], float32 or wider) is called per micro-batch of sequences, in order."""
        a = self.arch
        n, s = seqs.shape
        seqs = seqs.to(self.device)
        embed = self._w("model.embed_tokens.weight")
        h = embed[seqs]
        del embed
        cos, sin = self._rope(s)
        mask = torch.full((s, s), float("-inf"), device=self.device).triu(1)
        group = a.heads // a.kv_heads
        # Attention scores and softmax in at least float32, as transformers' eager attention.
        score_dtype = torch.promote_types(self.dtype, torch.float32)

        def observe(name, x):
            if collect is not None:
                m = float(x.detach().abs().max())
                collect[name] = max(collect.get(name, 0.0), m)

        def act(name, fmt, x):
            observe(name, x)
            if fmt == "bf16" or fakequant.weight_only(fmt):
                return x
            if amax is None or name not in amax:
                raise ValueError(f"no calibrated amax for {name}")
            return fakequant.quantize_input(fmt, x, amax[name])

        def lin(x, w, b):
            y = x @ w.t()
            return y + b if b is not None else y

        def swiglu(modules, t, w, fmts):
            """One SwiGLU MLP (a dense layer's, an expert's): its gate, up and down modules."""
            g, u, d = modules
            m = torch.nn.functional.silu(lin(act(g, fmts["gate_proj"], t), w[g], None)) * \
                lin(act(u, fmts["up_proj"], t), w[u], None)
            return lin(act(d, fmts["down_proj"], m), w[d], None)

        def moe(layer, t, w, fmts):
            """The sparse MoE block as transformers': softmax of the router's logits in at
            least float32, the topk experts (their probabilities renormalised with norm_topk_prob,
            always in Mixtral), each routed token's expert output times its probability; plus
            the shared expert times the sigmoid of its gate. When calibrating, every expert
            also runs every token, as ModelOpt's _QuantSparseMoe does so that each expert's
            input quantizers see data; the output stays the routed one."""
            flat = t.reshape(-1, t.shape[-1])
            gates = gate_modules(a, layer)
            probs = torch.softmax(lin(flat, w[gates[0]], None), dim=-1, dtype=score_dtype)
            top, chosen = torch.topk(probs, a.topk, dim=-1)
            if a.norm_topk:
                top = top / top.sum(dim=-1, keepdim=True)
            top = top.to(self.dtype)
            # (gate, up, down) per expert, the shared expert last
            experts = list(zip(*(linear_modules(a, layer, k) for k in MLP_LINEARS)))
            out = torch.zeros_like(flat)
            for e in range(a.experts):
                rows, slot = torch.where(chosen == e)
                if collect is not None:
                    y = swiglu(experts[e], flat, w, fmts)[rows]
                elif rows.numel():
                    y = swiglu(experts[e], flat[rows], w, fmts)
                else:
                    continue
                out.index_add_(0, rows, y * top[rows, slot, None])
            if a.shared_intermediate:
                out = out + torch.sigmoid(lin(flat, w[gates[1]], None)) * \
                    swiglu(experts[-1], flat, w, fmts)
            return out.view_as(t)

        for layer in range(a.layers):
            fmts = spec.layers[layer] if spec else {k: "bf16" for k in LINEARS}
            prefix = f"model.layers.{layer}"
            w = self.layer_weights(layer, fmts)
            att = {k: w[linear_module(layer, k)] for k in ATTENTION_LINEARS}
            bias = {k: self._maybe(linear_module(layer, k) + ".bias") for k in ("q_proj", "k_proj",
                                                                                 "v_proj")}
            ln1 = self._w(prefix + ".input_layernorm.weight")
            ln2 = self._w(prefix + ".post_attention_layernorm.weight")
            qn = self._w(prefix + ".self_attn.q_norm.weight") if a.qk_norm else None
            kn = self._w(prefix + ".self_attn.k_norm.weight") if a.qk_norm else None
            kv_fmt = spec.kv if spec else "bf16"
            for first in range(0, n, self.batch):
                x = h[first:first + self.batch]
                b = x.shape[0]
                t = rms_norm(x, ln1, a.rms_eps)
                q = lin(act(linear_module(layer, "q_proj"), fmts["q_proj"], t), att["q_proj"],
                        bias["q_proj"])
                k = lin(act(linear_module(layer, "k_proj"), fmts["k_proj"], t), att["k_proj"],
                        bias["k_proj"])
                v = lin(act(linear_module(layer, "v_proj"), fmts["v_proj"], t), att["v_proj"],
                        bias["v_proj"])
                q = q.view(b, s, a.heads, a.head_dim)
                k = k.view(b, s, a.kv_heads, a.head_dim)
                v = v.view(b, s, a.kv_heads, a.head_dim)
                if a.qk_norm:
                    q = rms_norm(q, qn, a.rms_eps)
                    k = rms_norm(k, kn, a.rms_eps)
                q, k, v = (z.transpose(1, 2) for z in (q, k, v))  # [b, heads, s, d]
                q = q * cos + rotate_half(q) * sin
                k = k * cos + rotate_half(k) * sin
                observe(kv_quantizer(layer, "k"), k)
                observe(kv_quantizer(layer, "v"), v)
                if kv_fmt == "fp8":
                    k = fakequant.fp8_per_tensor(k, amax[kv_quantizer(layer, "k")]).to(self.dtype)
                    v = fakequant.fp8_per_tensor(v, amax[kv_quantizer(layer, "v")]).to(self.dtype)
                k = k.repeat_interleave(group, dim=1)
                v = v.repeat_interleave(group, dim=1)
                scores = (q.to(score_dtype) @ k.to(score_dtype).transpose(-1, -2)) * (a.head_dim ** -0.5) + mask
                probs = torch.softmax(scores, dim=-1).to(self.dtype)
                o = (probs @ v).transpose(1, 2).reshape(b, s, a.heads * a.head_dim)
                x = x + lin(act(linear_module(layer, "o_proj"), fmts["o_proj"], o), att["o_proj"],
                            None)
                t = rms_norm(x, ln2, a.rms_eps)
                x = x + (moe(layer, t, w, fmts) if a.is_moe_layer(layer) else
                         swiglu([linear_module(layer, m) for m in MLP_LINEARS], t, w, fmts))
                h[first:first + self.batch] = x
            del w, att

        norm = self._w("model.norm.weight")
        head_name = "model.embed_tokens.weight" if a.tied else "lm_head.weight"
        head = self._w(head_name)
        head_fmt = spec.lm_head if spec else "bf16"
        if head_fmt != "bf16":
            head = fakequant.quantize_weight(head_fmt, head).to(self.dtype)
        for first in range(0, n, self.batch):
            t = rms_norm(h[first:first + self.batch], norm, a.rms_eps)
            logits = act("lm_head", head_fmt, t) @ head.t()
            if on_logits is not None:
                on_logits(first, logits.to(score_dtype))
