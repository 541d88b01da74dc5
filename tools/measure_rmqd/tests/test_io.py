"""The tokenizer and the safetensors reader on hand-worked inputs."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

import tinymodel  # noqa: E402
from rmqdtool.safetensors import SafetensorsError, SafetensorsFile, save_file  # noqa: E402
from rmqdtool.tokenizer import ByteLevelBpe  # noqa: E402


class TokenizerTest(unittest.TestCase):
    def test_byte_level_bpe_by_hand(self):
        with tempfile.TemporaryDirectory() as d:
            tinymodel.write(d, "qwen3")
            tok = ByteLevelBpe(os.path.join(d, "tokenizer.json"))
        # "the" -> t h e; the only ranked pair is "h e" (rank 1) -> [t, he] = [116, 256 + 1].
        # " cat" -> Ġ c a t; ranked pairs "Ġ c" (16) and "a t" (11): "a t" first, then
        # "Ġ c" -> [Ġc, at] = [256 + 16, 256 + 11]. Digits split one by one (Qwen's \p{N}):
        # "42" -> [ord('4'), ord('2')]. "\n\n" is one pre-token without merges: two byte tokens
        # (this vocabulary gives byte b's GPT-2 character, here 'Ċ', the id b).
        self.assertEqual(tok.encode("the cat"), [116, 257, 272, 267])
        self.assertEqual(tok.encode("42"), [52, 50])
        self.assertEqual(tok.encode("\n\n"), [10, 10])


class SafetensorsTest(unittest.TestCase):
    def test_round_trip_and_truncation(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.safetensors")
            x = torch.tensor([[1.5, -2.0], [0.25, 3.0]], dtype=torch.bfloat16)
            ids = torch.tensor([7, 1, 3], dtype=torch.int32)
            save_file({"x": x, "ids": ids}, path)
            f = SafetensorsFile(path)
            self.assertEqual(sorted(f.keys()), ["ids", "x"])
            self.assertTrue(torch.equal(f.get("x"), x))
            self.assertEqual(f.get("x").dtype, torch.bfloat16)
            self.assertTrue(torch.equal(f.get("ids"), ids))
            with open(path, "rb") as fh:
                data = fh.read()
            with open(path, "wb") as fh:
                fh.write(data[:-2])
            with self.assertRaisesRegex(SafetensorsError, "data_offsets"):
                SafetensorsFile(path)


if __name__ == "__main__":
    unittest.main()
