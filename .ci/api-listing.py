#!/usr/bin/env python3
"""Prints a module's public API as sorted lines of Swift, read from its symbol graphs.

`swift symbolgraph-extract` reads a built module (no compile) and writes one JSON file for the
module and one per module it extends (`Decisions@Swift.symbols.json`). Each public declaration
becomes one line: its path, then its declaration as the compiler prints it, then the constraints of
the extension it is in. Each conformance becomes one line too. A diff of two listings reads as a
change of the public API; `.ci/api/<Module>.txt` keeps the listing of the last release as the
baseline (`.ci/api-check.sh`).

Usage: api-listing.py MODULE SYMBOL_GRAPH_DIR
"""

import glob
import json
import os
import sys


def spelled(fragments):
    return "".join(fragment["spelling"] for fragment in fragments)


def constraints(symbol):
    listed = symbol.get("swiftExtension", {}).get("constraints", [])
    words = {"conformance": ":", "sameType": "==", "superclass": ":"}
    return ", ".join(f"{c['lhs']} {words.get(c['kind'], c['kind'])} {c['rhs']}" for c in listed)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: api-listing.py MODULE SYMBOL_GRAPH_DIR")
    module, folder = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(folder, f"{module}.symbols.json")))
    files += sorted(glob.glob(os.path.join(folder, f"{module}@*.symbols.json")))
    if not files:
        sys.exit(f"api-listing.py: no symbol graph of {module} in {folder}")
    lines = set()
    for path in files:
        try:
            with open(path, encoding="utf-8") as file:
                graph = json.load(file)
        except (OSError, ValueError) as error:
            sys.exit(f"api-listing.py: cannot read {path}: {error}")
        extended = os.path.basename(path).removesuffix(".symbols.json").partition("@")[2]
        names = {}
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open") or symbol.get("spi"):
                continue
            name = ".".join(symbol["pathComponents"])
            if extended:
                name = f"{extended}.{name}"
            names[symbol["identifier"]["precise"]] = name
            line = f"{name}  {spelled(symbol['declarationFragments'])}"
            where = constraints(symbol)
            if where:
                line += f"  (in an extension where {where})"
            lines.add(line)
        for relation in graph.get("relationships", []):
            if relation["kind"] not in ("conformsTo", "inheritsFrom"):
                continue
            source = names.get(relation["source"])
            if source is None:
                continue
            target = relation.get("targetFallback") or relation["target"]
            target = names.get(relation["target"], target)
            if target in ("Swift.Copyable", "Swift.Escapable"):
                continue  # implicit on every type
            where = ", ".join(
                f"{c['lhs']} {'==' if c['kind'] == 'sameType' else ':'} {c['rhs']}"
                for c in relation.get("swiftConstraints", [])
            )
            lines.add(f"{source}  : {target}" + (f"  (where {where})" if where else ""))
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
