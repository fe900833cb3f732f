#!/usr/bin/env python3
"""Check docs against the tools.

    check-docs.py options TOOL-HELP-FILE PAGE.md
        every option in the tool's --help appears in its page (`--name`);
    check-docs.py passes LIST-PASSES-FILE Passes.md
        every registered pass has a page docs/passes/NAME.md, linked from
        Passes.md in registry order, with the registry's prerequisites.
"""
import re
import sys


def options(help_path, page_path):
    help_text = open(help_path, encoding="utf-8").read()
    page = open(page_path, encoding="utf-8").read()
    section = help_text.split("options:", 1)[-1]
    names = re.findall(r"^\s+(-{1,2}[A-Za-z][\w-]*)", section, re.M)
    missing = [n for n in names if "`%s" % n not in page]
    for n in missing:
        print("%s: option %s is not documented" % (page_path, n))
    return 1 if missing or not names else 0


def passes(list_path, page_path):
    """Passes.md links docs/passes/<name>.md for every registered pass, in
    registry order; each page is titled with the name and its "Requires:"
    line names the registry's prerequisites."""
    import os
    entries = []
    for l in open(list_path, encoding="utf-8"):
        if not l.strip():
            continue
        name, rest = l.rstrip("\n").split(" - ", 1)
        m = re.search(r" \(requires ([^)]*)\)$", rest)
        entries.append((name, m.group(1).split(",") if m else []))
    names = [n for n, _ in entries]
    page = open(page_path, encoding="utf-8").read()
    linked = re.findall(r"^- \[([^\]]+)\]\(passes/\1\.md\)$", page, re.M)
    bad = 0
    if linked != names:
        print("%s: links %s, registry %s" % (page_path, linked, names))
        bad = 1
    folder = os.path.join(os.path.dirname(page_path), "passes")
    pages = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".md"))
    if pages != sorted(names):
        print("%s: pages %s, registry %s" % (folder, pages, names))
        bad = 1
    for name, req in entries:
        path = os.path.join(folder, name + ".md")
        if not os.path.exists(path):
            continue
        text = open(path, encoding="utf-8").read()
        if not text.startswith("# %s\n" % name):
            print("%s: not titled '# %s'" % (path, name))
            bad = 1
        m = re.search(r"^Requires: (.*)$", text, re.M)
        got = re.findall(r"\[([^\]]+)\]\(", m.group(1)) if m else None
        if got != req:
            print("%s: requires %s, registry %s" % (path, got, req))
            bad = 1
    return bad


if __name__ == "__main__":
    kind = sys.argv[1]
    sys.exit(options(*sys.argv[2:]) if kind == "options" else passes(*sys.argv[2:]))
