"""Shared set-up of the companion's tests: tiny checkpoints in a temporary folder."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

import tinymodel  # noqa: E402
from rmqdtool.campaign import Campaign  # noqa: E402
from rmqdtool.checkpoint import Checkpoint  # noqa: E402


class TinyCheckpoint:
    def __init__(self, family="qwen3", seed=0):
        self.tmp = tempfile.TemporaryDirectory(prefix="measure_rmqd_test.")
        self.folder = os.path.join(self.tmp.name, family)
        self.name = tinymodel.write(self.folder, family, seed)
        self.ckpt = Checkpoint(self.folder)

    def close(self):
        self.tmp.cleanup()


def random_tokens(vocab, n, s, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, vocab, (n, s), generator=g)


def campaign(ckpt, seed=0, calib=2, evaluation=4, seq_len=24, top_m=64):
    seqs = random_tokens(ckpt.arch.vocab, calib + evaluation, seq_len, seed)
    c = Campaign(ckpt, None, seqs[:calib], seqs[calib:], "cpu", torch.float32, 2, top_m)
    c.prepare()
    return c
