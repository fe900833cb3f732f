#!/usr/bin/env python3
"""Check the links of HTML pages rendered by tlp.

    check-html-links.py [--tags a,b,...] FILE-OR-DIR...

Every href="#x" names an id of its page; every relative href names a file
that exists (and, with "#x", an id in it); links with a scheme are skipped.
With --tags, every element must be one of those tags (so log text cannot
have added markup). Prints one line per problem and exits 1 if any."""
import html.parser
import os
import sys
import urllib.parse


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.hrefs, self.tags = set(), [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k == "id":
                self.ids.add(v)
            elif k == "href":
                self.hrefs.append(v)


def parse(path, cache):
    if path not in cache:
        p = Page()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        cache[path] = p
    return cache[path]


def main(argv):
    tags = None
    if argv and argv[0] == "--tags":
        tags = set(argv[1].split(","))
        argv = argv[2:]
    files = []
    for a in argv:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                files += [os.path.join(root, n) for n in sorted(names)
                          if n.endswith(".html")]
        else:
            files.append(a)
    cache, problems, links = {}, [], 0
    for path in sorted(files):
        page = parse(path, cache)
        if tags is not None:
            for t in sorted(page.tags - tags):
                problems.append("%s: unexpected element <%s>" % (path, t))
        for href in page.hrefs:
            links += 1
            url = urllib.parse.urlsplit(href)
            if url.scheme or href.startswith("//"):
                continue
            target = path
            if url.path:
                target = os.path.normpath(os.path.join(
                    os.path.dirname(path), urllib.parse.unquote(url.path)))
                if not os.path.isfile(target):
                    problems.append("%s: broken link %s" % (path, href))
                    continue
            if url.fragment and target.endswith(".html") and \
                    url.fragment not in parse(target, cache).ids:
                problems.append("%s: no anchor for %s" % (path, href))
    for p in problems:
        print(p)
    print("%d pages, %d links, %d problems" % (len(files), links, len(problems)))
    return 1 if problems or not files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
