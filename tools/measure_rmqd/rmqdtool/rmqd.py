"""RMQD (docs/METHOD.md 2): the mean over calibration tokens of KL(oracle || candidate) on m+1
bins, the oracle's top-m token ids plus one tail bin. The same computation as
core/quality/rmqd.cpp (`acsel rmqd`), so the two agree on the same files:

- the oracle's m probabilities and tail are renormalised to sum to 1 per token;
- the candidate's row is collapsed onto the oracle's ids with a max-shifted log-sum-exp in
  float64: log q_j = z_j - logsumexp(z), and the tail q = (sum of all exp - sum over the ids) /
  sum of all exp, clamped at 0;
- log q is clamped at log(epsilon); oracle bins with p = 0 contribute nothing."""
import math

import torch


class OracleCache:
    """The oracle's top-m distributions, stored exactly as the oracle safetensors file holds
    them (topk_ids int32, topk_probs and tail_mass float32)."""

    def __init__(self, ids, probs, tail):
        self.ids = ids
        self.probs = probs
        self.tail = tail

    @staticmethod
    def from_logits(logits, m):
        """logits [T, V] float32 -> the top-m cache (m is capped at V)."""
        p = torch.softmax(logits.double(), dim=-1)
        top_p, top_i = p.topk(min(m, p.shape[-1]), dim=-1)
        tail = (1.0 - top_p.sum(-1)).clamp(min=0.0)
        return OracleCache(top_i.to(torch.int32), top_p.float(), tail.float())

    @staticmethod
    def concat(parts):
        return OracleCache(torch.cat([p.ids for p in parts]), torch.cat([p.probs for p in parts]),
                           torch.cat([p.tail for p in parts]))

    def tensors(self):
        return {"topk_ids": self.ids.contiguous(), "topk_probs": self.probs.contiguous(),
                "tail_mass": self.tail.contiguous()}

    def slice(self, first, count):
        return OracleCache(self.ids[first:first + count], self.probs[first:first + count],
                           self.tail[first:first + count])


def token_kl(oracle, logits, epsilon=1e-12):
    """KL per token [T] (float64) of candidate logits [T, V] (float32, as stored) against the
    oracle rows of the same tokens."""
    z = logits.double()
    p = oracle.probs.double().to(z.device)
    tail = oracle.tail.double().to(z.device)
    total = p.sum(-1) + tail
    p = p / total.unsqueeze(-1)
    tail = tail / total
    shift = z.max(dim=-1, keepdim=True).values
    e = torch.exp(z - shift)
    all_sum = e.sum(-1)
    log_total = torch.log(all_sum)
    ids = oracle.ids.long().to(z.device)
    z_ids = torch.gather(z - shift, 1, ids)
    top = torch.exp(z_ids).sum(-1)
    log_eps = math.log(epsilon)
    log_q = torch.clamp(z_ids - log_total.unsqueeze(-1), min=log_eps)
    safe_p = torch.where(p > 0, p, torch.ones_like(p))
    kl = torch.where(p > 0, p * (torch.log(safe_p) - log_q), torch.zeros_like(p)).sum(-1)
    q_tail = torch.clamp(all_sum - top, min=0.0) / all_sum
    log_q_tail = torch.clamp(torch.log(q_tail), min=log_eps)
    safe_tail = torch.where(tail > 0, tail, torch.ones_like(tail))
    kl = kl + torch.where(tail > 0, tail * (torch.log(safe_tail) - log_q_tail),
                          torch.zeros_like(tail))
    return kl
