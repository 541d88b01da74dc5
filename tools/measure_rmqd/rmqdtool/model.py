"""The forward pass of a Hugging Face dense decoder (Llama 2/3/3.1, Qwen2/Qwen3, Mistral) in
plain PyTorch, run layer-major over a batch of sequences: each layer's weights are loaded (and
fake-quantized) once for all sequences, so a candidate costs one pass over the weights and
never needs a second copy of the model in memory.

Matches transformers' LlamaForCausalLM / Qwen3ForCausalLM: RMSNorm in float32, RoPE on the
two halves of each head (rotate_half), Llama-3.1 rope scaling, grouped-query attention, the
Qwen3 per-head q/k RMSNorm before RoPE, SwiGLU MLP, optional attention biases (Qwen2)."""
import torch

from . import fakequant
from .checkpoint import rope_inv_freq

LINEARS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ATTENTION_LINEARS = LINEARS[:4]


def linear_module(layer, linear):
    part = "self_attn" if linear in ATTENTION_LINEARS else "mlp"
    return f"model.layers.{layer}.{part}.{linear}"


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

    def _linear_weight(self, layer, lin, fmt):
        w = self._w(linear_module(layer, lin) + ".weight")
        if fmt != "bf16":
            w = fakequant.quantize_weight(fmt, w).to(self.dtype)
        return w

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

        for layer in range(a.layers):
            fmts = spec.layers[layer] if spec else {k: "bf16" for k in LINEARS}
            prefix = f"model.layers.{layer}"
            w = {k: self._linear_weight(layer, k, fmts[k]) for k in LINEARS}
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
                q = lin(act(linear_module(layer, "q_proj"), fmts["q_proj"], t), w["q_proj"],
                        bias["q_proj"])
                k = lin(act(linear_module(layer, "k_proj"), fmts["k_proj"], t), w["k_proj"],
                        bias["k_proj"])
                v = lin(act(linear_module(layer, "v_proj"), fmts["v_proj"], t), w["v_proj"],
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
                x = x + lin(act(linear_module(layer, "o_proj"), fmts["o_proj"], o), w["o_proj"],
                            None)
                t = rms_norm(x, ln2, a.rms_eps)
                g = lin(act(linear_module(layer, "gate_proj"), fmts["gate_proj"], t),
                        w["gate_proj"], None)
                u = lin(act(linear_module(layer, "up_proj"), fmts["up_proj"], t), w["up_proj"],
                        None)
                m = torch.nn.functional.silu(g) * u
                x = x + lin(act(linear_module(layer, "down_proj"), fmts["down_proj"], m),
                            w["down_proj"], None)
                h[first:first + self.batch] = x
            del w

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
