#!/usr/bin/env python3
"""Check docs against the tools.

    check-docs.py options TOOL-HELP-FILE PAGE.md
        every option in the tool's --help appears in its page (`--name`);
    check-docs.py passes LIST-PASSES-FILE Passes.md
        every registered pass has a `## name` section, in registry order.
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
    names = [l.split(" - ")[0] for l in open(list_path, encoding="utf-8")
             if l.strip()]
    page = open(page_path, encoding="utf-8").read()
    sections = re.findall(r"^## (\S+)$", page, re.M)
    if sections != names:
        print("%s: sections %s, registry %s" % (page_path, sections, names))
        return 1
    return 0


if __name__ == "__main__":
    kind = sys.argv[1]
    sys.exit(options(*sys.argv[2:]) if kind == "options" else passes(*sys.argv[2:]))
