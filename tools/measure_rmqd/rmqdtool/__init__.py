"""RMQD measurement companion of ACSeL Studio: a Hugging Face Llama / Qwen3 forward pass in
plain PyTorch, ModelOpt-recipe fake quantization with max calibration, and RMQD against a
cached top-m oracle (docs/QUALITY.md, tools/measure_rmqd/README.md)."""
