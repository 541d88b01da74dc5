#!/usr/bin/env python3
"""Lists the include edges between the core's folders and checks them against core/layers.txt.

Usage: check_layers.py [--quiet] [CORE_DIR]   (CORE_DIR defaults to the core/ beside tools/)

A file in layer L may include "core/M/..." only when M is L or a layer L builds on, directly
or through others. Exit 1 names every offending include and any cycle between folders; exit 0
prints the edges (with --quiet, nothing).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"core/([^/"]+)/([^"]+)"')


def read_layers(core):
    layers = {}
    with open(os.path.join(core, "layers.txt"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, sep, below = line.partition(":")
            if not sep or not name.strip():
                sys.exit(f"{f.name}:{number}: expected 'layer: layers it builds on'")
            layers[name.strip()] = below.split()
    for name, below in layers.items():
        for b in below:
            if b not in layers:
                sys.exit(f"layers.txt: layer '{name}' builds on '{b}', which is not a layer")
    return layers


def reachable(layers, start):
    seen, todo = set(), list(layers[start])
    while todo:
        layer = todo.pop()
        if layer not in seen:
            seen.add(layer)
            todo.extend(layers[layer])
    return seen


def include_edges(core, folders):
    edges = {}  # (from, to) -> ["file -> header", ...]
    for folder in folders:
        path = os.path.join(core, folder)
        for name in sorted(os.listdir(path)):
            if not name.endswith((".h", ".cpp")):
                continue
            with open(os.path.join(path, name), encoding="utf-8") as f:
                for line in f:
                    m = INCLUDE.match(line)
                    if m and m.group(1) != folder:
                        edges.setdefault((folder, m.group(1)), []).append(
                            f"core/{folder}/{name} -> core/{m.group(1)}/{m.group(2)}")
    return edges


def find_cycle(edges):
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    state = {}

    def visit(node, stack):
        state[node] = 1
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt]
            if nxt not in state:
                found = visit(nxt, stack + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def main(argv):
    quiet = "--quiet" in argv
    args = [a for a in argv if a != "--quiet"]
    core = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "core")
    layers = read_layers(core)
    folders = sorted(d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d)))
    errors = [f"core/{d}/: a folder that core/layers.txt does not list" for d in folders
              if d not in layers]
    edges = include_edges(core, [d for d in folders if d in layers])
    for (a, b), where in sorted(edges.items()):
        if b not in layers:
            errors += [f"{w}: '{b}' is not a layer" for w in where]
        elif b not in reachable(layers, a):
            errors += [f"{w}: layer '{a}' does not build on '{b}' (core/layers.txt)"
                       for w in where]
    cycle = find_cycle(edges)
    if cycle:
        errors.append("include cycle between core folders: " + " -> ".join(cycle))
    for e in errors:
        print(f"check_layers: {e}", file=sys.stderr)
    if not quiet and not errors:
        for (a, b), where in sorted(edges.items()):
            print(f"{a} -> {b}: {len(where)} include(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
