#!/usr/bin/env python3
"""Measures RMQD of the candidates an `acsel plan quality` folder lists, on a Hugging Face
Llama, Qwen3 or mixture-of-experts checkpoint, and writes quality-set rows for
`acsel quality add` (README.md beside this file)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from rmqdtool.campaign import Campaign, PlanError, load_manifest, run_plan  # noqa: E402
from rmqdtool.checkpoint import Checkpoint, CheckpointError  # noqa: E402
from rmqdtool.recipe import RecipeError  # noqa: E402
from rmqdtool.safetensors import SafetensorsError  # noqa: E402
from rmqdtool.tokenizer import TokenizerError, load_tokens  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--checkpoint", required=True, help="HF checkpoint folder (config.json, "
                   "*.safetensors) of the model the plan is for")
    p.add_argument("--plan", required=True, help="manifest.json written by acsel plan quality")
    p.add_argument("--output", required=True, help="rows CSV to write (quality-set CSV form)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="calibration text (UTF-8), tokenized with --tokenizer")
    src.add_argument("--tokens", help="token ids: a JSON list of integers")
    p.add_argument("--tokenizer", help="tokenizer.json (byte-level BPE; default: the "
                   "checkpoint's)")
    p.add_argument("--oracle-checkpoint", help="the family's oracle (same tokenizer), as the "
                   "paper; default: the model itself (RMQD against its own 16-bit weights)")
    p.add_argument("--seq-len", type=int, default=512)
    p.add_argument("--sequences", type=int, default=64, help="evaluation sequences")
    p.add_argument("--calib-sequences", type=int, default=16, help="calibration sequences, "
                   "taken before the evaluation ones (never evaluated)")
    p.add_argument("--top-m", type=int, default=512)
    p.add_argument("--batch", type=int, default=4, help="sequences per forward micro-batch")
    p.add_argument("--device", default="auto", help="auto (cuda when available), cuda, cpu")
    p.add_argument("--dtype", default="auto", help="auto (bfloat16 on CUDA, float32 on CPU), "
                   "bfloat16, float32")
    p.add_argument("--no-weight-cache", action="store_true", help="read each layer's weights "
                   "from the shards for every candidate instead of keeping them on the device "
                   "(for a model that fits the device only once)")
    p.add_argument("--only", help="comma-separated candidate ids to measure")
    p.add_argument("--dump-logits", metavar="DIR", help="also write oracle.safetensors and one "
                   "<id>.safetensors of logits per candidate (for acsel rmqd)")
    p.add_argument("--model-name", help="the workspace model name (default: the plan's)")
    return p.parse_args(argv)


def main(argv):
    a = parse_args(argv)
    device = ("cuda" if torch.cuda.is_available() else "cpu") if a.device == "auto" else a.device
    dtype = {"auto": torch.bfloat16 if device == "cuda" else torch.float32,
             "bfloat16": torch.bfloat16, "float32": torch.float32}[a.dtype]
    try:
        ckpt = Checkpoint(a.checkpoint)
        oracle = Checkpoint(a.oracle_checkpoint) if a.oracle_checkpoint else None
        name = a.model_name or load_manifest(a.plan)["model"]["name"]  # a bad plan fails first
        tokenizer = a.tokenizer or os.path.join(a.checkpoint, "tokenizer.json")
        need = (a.calib_sequences + a.sequences) * a.seq_len
        ids = load_tokens(a.text, a.tokens, tokenizer, need)
        if len(ids) < need:
            raise PlanError(f"{a.text or a.tokens}: {len(ids)} tokens, need {need} "
                            f"({a.calib_sequences} + {a.sequences} sequences of {a.seq_len})")
        if max(ids) >= ckpt.arch.vocab or min(ids) < 0:
            raise PlanError(f"{a.text or a.tokens}: token id outside the vocabulary of "
                            f"{ckpt.arch.vocab}")
        seqs = torch.tensor(ids[:need], dtype=torch.long).view(-1, a.seq_len)
        calib, evaluation = seqs[:a.calib_sequences], seqs[a.calib_sequences:]
        campaign = Campaign(ckpt, oracle, calib, evaluation, device, dtype, a.batch, a.top_m,
                            not a.no_weight_cache)
        oracle_name = os.path.basename(os.path.normpath(a.oracle_checkpoint)) \
            if a.oracle_checkpoint else "the model's own unquantized weights"
        provenance = (f"measure_rmqd (ACSeL companion), torch {torch.__version__} on {device} "
                      f"{str(dtype).replace('torch.', '')}: fake quantization with max "
                      f"calibration (smoothquant/awq/gptq rows: max calibration, an upper bound "
                      f"of ModelOpt's); oracle {oracle_name}; {a.sequences} x {a.seq_len} tokens "
                      f"of {os.path.basename(a.text or a.tokens)}, calibration on {a.calib_sequences}"
                      f" other sequences; top-m {a.top_m}")
        print(f"measure_rmqd: {name} on {device} ({str(dtype).replace('torch.', '')}), "
              f"{evaluation.numel()} evaluation tokens, oracle {oracle_name}")
        only = set(a.only.split(",")) if a.only else None
        with torch.no_grad():
            run_plan(a.plan, campaign, name, a.output, provenance, only, a.dump_logits,
                     self_oracle=oracle is None)
        print(f"wrote {a.output}")
        return 0
    except (PlanError, RecipeError, CheckpointError, SafetensorsError, TokenizerError,
            OSError, ValueError) as e:  # the first five are ValueErrors too, named for reading
        print(f"measure_rmqd: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
