"""A byte-level BPE encoder for the tokenizer.json of Llama 3 and Qwen2/Qwen3 checkpoints
(Debian has no python3-tokenizers): the Split pre-tokenizer's regex, GPT-2's byte-to-unicode
map, then merges by rank. Python's `re` has no \\p{L} / \\p{N}; they are translated to
[^\\W\\d_] (letters) and \\d (decimal digits), which differs from the Rust tokenizers only for
numeric characters that are not decimal digits (e.g. superscripts, Roman numerals). Special
tokens in the text are not parsed: the text is encoded literally. No BOS is added: the
sequences are plain chunks of the encoded text, the same for the oracle and every candidate."""
import json
import re


class TokenizerError(ValueError):
    pass


def bytes_to_unicode():
    """GPT-2's reversible map of the 256 byte values onto printable characters."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


_CLASS_FORMS = {
    r"[^\r\n\p{L}\p{N}]": r"(?:(?![\r\n])[\W_])",
    r"[^\s\p{L}\p{N}]": r"(?:(?!\s)[\W_])",
    r"\p{L}": r"[^\W\d_]",
    r"\p{N}": r"\d",
}


def translate_pattern(pattern):
    for k, v in _CLASS_FORMS.items():
        pattern = pattern.replace(k, v)
    if r"\p{" in pattern:
        raise TokenizerError(f"pre-tokenizer regex uses a Unicode class this encoder cannot "
                             f"translate: {pattern}")
    return re.compile(pattern)


class ByteLevelBpe:
    def __init__(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                spec = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise TokenizerError(f"{path}: {e}") from e
        model = spec.get("model") or {}
        if model.get("type") != "BPE":
            raise TokenizerError(f"{path}: model.type {model.get('type')!r}: expected BPE")
        self.vocab = model["vocab"]
        merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m)
                  for m in model.get("merges", [])]
        self.ranks = {m: i for i, m in enumerate(merges)}
        self.ignore_merges = bool(model.get("ignore_merges", False))
        self.byte_map = bytes_to_unicode()
        self.split = self._split_regex(spec.get("pre_tokenizer"), path)
        self.cache = {}

    @staticmethod
    def _split_regex(pre, path):
        steps = pre.get("pretokenizers", [pre]) if pre else []
        for step in steps:
            if step.get("type") == "Split":
                return translate_pattern(step["pattern"]["Regex"])
            if step.get("type") == "ByteLevel" and step.get("use_regex", True):
                return translate_pattern(r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+"
                                         r"| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+")
        raise TokenizerError(f"{path}: no Split or ByteLevel pre-tokenizer")

    def _bpe(self, word):
        if word in self.cache:
            return self.cache[word]
        if self.ignore_merges and word in self.vocab:
            out = [self.vocab[word]]
        else:
            parts = list(word)
            while len(parts) > 1:
                best = min(range(len(parts) - 1),
                           key=lambda i: self.ranks.get((parts[i], parts[i + 1]), float("inf")))
                if (parts[best], parts[best + 1]) not in self.ranks:
                    break
                parts[best:best + 2] = [parts[best] + parts[best + 1]]
            try:
                out = [self.vocab[p] for p in parts]
            except KeyError as e:
                raise TokenizerError(f"piece {e} is not in the vocabulary") from e
        self.cache[word] = out
        return out

    def encode(self, text):
        ids = []
        for piece in self.split.findall(text):
            word = "".join(self.byte_map[b] for b in piece.encode("utf-8"))
            ids.extend(self._bpe(word))
        return ids


def load_tokens(text_path, tokens_path, tokenizer_path, limit):
    """The calibration token ids: from a JSON list, or the text encoded with tokenizer.json
    (paragraph by paragraph, until `limit` tokens are reached)."""
    if tokens_path:
        try:
            with open(tokens_path, encoding="utf-8") as f:
                ids = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise TokenizerError(f"{tokens_path}: {e}") from e
        if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
            raise TokenizerError(f"{tokens_path}: expected a JSON list of integer token ids")
        return ids
    tok = ByteLevelBpe(tokenizer_path)
    try:
        with open(text_path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise TokenizerError(f"{text_path}: {e}") from e
    ids = []
    # Paragraphs keep their separating blank lines, so only a pre-token spanning a paragraph
    # break could differ from encoding the whole text at once.
    for paragraph in re.split(r"(?<=\n\n)(?=[^\n])", text):
        ids.extend(tok.encode(paragraph))
        if len(ids) >= limit:
            break
    return ids
