"""The companion's batched, layer-major forward against the naive reference (tests/naive.py)
on tiny random checkpoints in the HF layout, for Qwen3 (q/k norm), Llama-3.1 (rope scaling,
tied embeddings) and the mixtures of experts Qwen3-MoE (a dense layer among MoE ones),
Qwen2-MoE (shared expert, q/k/v biases) and Mixtral."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import naive  # noqa: E402
from common import TinyCheckpoint, random_tokens  # noqa: E402
from rmqdtool.model import Runner  # noqa: E402


class ForwardTest(unittest.TestCase):
    def check(self, family):
        """float64: equal to the reference within 1e-9; float32 (the CPU default): within
        1e-5 relative to the largest logit (float32 rounding over two layers)."""
        tiny = TinyCheckpoint(family, seed=3)
        try:
            ckpt = tiny.ckpt
            seqs = random_tokens(ckpt.arch.vocab, 3, 12, seed=5)
            weights = {k: ckpt.get(k) for k in ckpt.names()}
            refs = [naive.logits(ckpt.config, weights, seqs[i].tolist()) for i in range(3)]
            for dtype, tol in ((torch.float64, 1e-9), (torch.float32, 1e-5)):
                got = []
                Runner(ckpt, dtype=dtype, batch=2).run(
                    seqs, on_logits=lambda first, z: got.append(z.double()))
                got = torch.cat(got)
                for i, ref in enumerate(refs):
                    self.assertGreater(float(ref.std()), 1.0, "logits too flat to test anything")
                    err = float((got[i] - ref).abs().max()) / max(1.0, float(ref.abs().max()))
                    self.assertLess(err, tol, f"{family} {dtype} sequence {i}: relative "
                                              f"max |difference| {err}")
            return ckpt, weights, seqs, got
        finally:
            tiny.close()

    def test_qwen3_equals_naive(self):
        self.check("qwen3")

    def test_llama31_equals_naive_and_scaling_matters(self):
        ckpt, weights, seqs, got = self.check("llama")
        # The reference without Llama-3.1's frequency scaling must differ: the check above
        # would not see a forward that ignored rope_scaling otherwise.
        unscaled = naive.logits(ckpt.config, weights, seqs[0].tolist(), use_scaling=False)
        self.assertGreater(float((got[0] - unscaled).abs().max()), 1e-3)

    def test_qwen3_moe_equals_naive(self):
        self.check("qwen3_moe")

    def test_qwen2_moe_equals_naive(self):
        self.check("qwen2_moe")

    def test_mixtral_equals_naive(self):
        self.check("mixtral")


if __name__ == "__main__":
    unittest.main()
