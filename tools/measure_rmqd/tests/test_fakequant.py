"""Each fake quantizer against examples worked out by hand (the arithmetic is in the
comments), so a wrong rounding mode, scale or clamp fails."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

from rmqdtool import fakequant as fq  # noqa: E402


def t(values):
    return torch.tensor(values, dtype=torch.float32)


class RoundingTest(unittest.TestCase):
    def assertValues(self, got, expected):
        self.assertEqual(got.tolist(), expected)

    def test_e2m1_grid_and_ties_to_even(self):
        # grid 0 .5 1 1.5 2 3 4 6; 0.25 ties 0|.5 -> 0 (even); 0.75 ties .5|1 -> 1 (even
        # mantissa); 1.25 -> 1; 1.75 -> 2; 2.5 -> 2; 3.5 -> 4; 5 -> 4; 5.1 -> 6; 7 -> 6 (sat).
        self.assertValues(fq.round_e2m1(t([0.25, 0.3, 0.75, 1.25, 1.75, 2.5, 3.5, 5, 5.1, 7,
                                           -3.4])),
                          [0.0, 0.5, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0, 6.0, -3.0])

    def test_e4m3_normals_subnormals_saturation(self):
        # 1.0625 = 1 + 1/16 ties 1|1.125 -> 1; 17 (step 2 in [16, 32)) ties 16|18 -> 16;
        # 19 -> 20 (tie, 20 = 1.25 * 16 has even mantissa 2); 241 (step 16) -> 240;
        # 248 ties 240|256 -> 256; 500 -> 448 (satfinite);
        # subnormal step 2^-9: 0.6 * 2^-9 -> 2^-9, 0.5 * 2^-9 -> 0 (tie to even).
        s = 2.0 ** -9
        self.assertValues(fq.round_e4m3(t([1.0625, 17, 19, 241, 248, 500, 0.6 * s, 0.5 * s,
                                           -3.3])),
                          [1.0, 16.0, 20.0, 240.0, 256.0, 448.0, s, 0.0, -3.25])


class QuantizerTest(unittest.TestCase):
    def test_fp8_per_tensor(self):
        # amax 896 -> scale 2: 3/2 = 1.5 exact; 35/2 = 17.5 -> 18 (step 2) -> 36;
        # -1000/2 saturates at -448 -> -896; 0.0033/2 = 0.00165 -> 2^-9 -> 2^-8.
        got = fq.fp8_per_tensor(t([3.0, 35.0, -1000.0, 0.0033]), 896.0)
        self.assertEqual(got.tolist(), [3.0, 36.0, -896.0, 2.0 ** -8])

    def test_int8_per_channel(self):
        # row 0: amax 1.27, scale 0.01: 127, -50, 0.3 -> 0.
        # row 1: amax 4, scale 4/127: 2 -> 63.5 -> 64 (tie to even), 1 -> 31.75 -> 32, -4 -> -127.
        got = fq.int8_per_channel(t([[1.27, -0.5, 0.003], [2.0, 1.0, -4.0]]))
        expected = t([[1.27, -0.5, 0.0], [64 * 4 / 127, 32 * 4 / 127, -4.0]])
        self.assertTrue(torch.allclose(got, expected, rtol=0, atol=1e-6), got)

    def test_int8_per_tensor_static_amax_clamps(self):
        # scale 1/127 from the calibrated amax 1; an input of 2 (beyond calibration) clamps at
        # 127 -> 1.0, -2 at -128 -> -128/127.
        got = fq.int_symmetric(t([0.5, 2.0, -2.0]), 1.0, 8)
        expected = t([64 / 127, 1.0, -128 / 127])  # 0.5 * 127 = 63.5 -> 64
        self.assertTrue(torch.allclose(got, expected, rtol=0, atol=1e-7), got)

    def test_int4_block_128(self):
        # block 0 amax 7 -> scale 1: 2.5 -> 2, 3.5 -> 4, 0.49 -> 0, -7 -> -7.
        # block 1 amax 14 -> scale 2: 3 -> 1.5 -> 2 -> 4; 5 -> 2.5 -> 2 -> 4; -14 -> -14.
        w = torch.zeros(1, 256)
        w[0, :4] = t([2.5, 3.5, 0.49, -7])
        w[0, 128:131] = t([3.0, 5.0, -14.0])
        got = fq.int4_block(w, 128)
        self.assertEqual(got[0, :4].tolist(), [2.0, 4.0, 0.0, -7.0])
        self.assertEqual(got[0, 128:131].tolist(), [4.0, 4.0, -14.0])
        self.assertEqual(float(got[0, 4:128].abs().sum() + got[0, 131:].abs().sum()), 0.0)

    def test_nvfp4_block_16(self):
        # global amax 1344 -> g = 1344 / (6 * 448) = 0.5.
        # block 0: amax 12 -> block scale 12 / 6 / 0.5 = 4 (exact in e4m3) -> scale 2;
        #   x / 2 rounded to e2m1, times 2 (worked value by value below).
        # block 1: amax 12.9 -> 12.9 / 6 / 0.5 = 4.3 -> e4m3 4.5 (step 0.5) -> scale 2.25;
        #   12.9 / 2.25 = 5.73 -> 6 -> 13.5; 1 / 2.25 = 0.44 -> 0.5 -> 1.125;
        #   -2 / 2.25 = -0.89 -> -1 -> -2.25; 0.5 / 2.25 = 0.22 -> 0.
        block0 = [12, -12, 1, 1.5, 2.5, 3, 5, 7, -9, 10, 0.4, 0.6, 4.5, 11, -0.5, 6]
        # /2 = 6 -6 .5 .75 1.25 1.5 2.5 3.5 -4.5 5 .2 .3 2.25 5.5 -.25 3
        # e2m1: 6 -6 .5 1 1 1.5 2 4 -4 4 0 .5 2 6 0 3
        expected0 = [12, -12, 1, 2, 2, 3, 4, 8, -8, 8, 0, 1, 4, 12, 0, 6]
        block1 = [12.9, 1.0, -2.0, 0.5] + [0.0] * 12
        expected1 = [13.5, 1.125, -2.25, 0.0] + [0.0] * 12
        got = fq.nvfp4(t([block0 + block1]), global_amax=1344.0)
        self.assertEqual([abs(v) if v == 0 else v for v in got[0].tolist()],
                         [float(v) for v in expected0 + expected1])

    def test_nvfp4_weight_uses_its_own_amax(self):
        # a weight's global scale comes from its own amax: 6 * 448 -> g = 1, block scale
        # 6 / 6 = 1, so values round straight onto the e2m1 grid.
        w = t([[6 * 448.0] + [0.0] * 15, [2.5, 0.75] + [0.0] * 14])
        got = fq.quantize_weight("nvfp4", w)
        # row 0: block amax 2688 -> scale 2688 / 6 = 448 -> e4m3 448: 2688 -> 6 * 448.
        self.assertEqual(float(got[0, 0]), 2688.0)
        # row 1: block amax 2.5 -> 2.5 / 6 = 0.4167 -> e4m3 0.40625 (step 2^-5 in [0.25, 0.5))
        #   -> 2.5 / 0.40625 = 6.15 -> 6 -> 2.4375; 0.75 / 0.40625 = 1.846 -> 2 -> 0.8125.
        self.assertEqual(got[1, :2].tolist(), [2.4375, 0.8125])

    def test_fp8_block(self):
        # a 128x128 tile with amax 896 -> scale 2; 35 -> 36 as in fp8_per_tensor; the other tile
        # (amax 1, scale 1/448): 1 -> 1.
        w = torch.zeros(128, 256)
        w[0, 0], w[5, 7], w[3, 200] = 896.0, 35.0, 1.0
        got = fq.fp8_block_weight(w, 128)
        self.assertEqual([float(got[0, 0]), float(got[5, 7]), float(got[3, 200])],
                         [896.0, 36.0, 1.0])
        # dynamic 1x128 activation groups: each group scaled by its own amax.
        x = torch.zeros(1, 256)
        x[0, 0], x[0, 1], x[0, 128] = 896.0, 35.0, 0.5
        got = fq.fp8_block_dynamic(x, 128)
        self.assertEqual([float(got[0, 0]), float(got[0, 1]), float(got[0, 128])],
                         [896.0, 36.0, 0.5])

    def test_zero_tensor_stays_zero(self):
        z = torch.zeros(2, 128)
        for fmt in ("fp8", "int8", "int4_wo", "nvfp4"):
            self.assertEqual(float(fq.quantize_weight(fmt, z).abs().sum()), 0.0, fmt)


if __name__ == "__main__":
    unittest.main()
