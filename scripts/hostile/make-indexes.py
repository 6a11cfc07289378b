#!/usr/bin/env python3
"""Writes hostile image indexes into FOLDER, one sub-folder per case, for
scripts/bench-index.sh: what a broken or malicious server can hand the
gallery as its listing or manifest.

  links/index.html      an HTML listing with 100,000 photo links
  entities/index.html   one link holding 20 MB of '&amp;'
  tokens/index.html     10,000,000 'href' tokens that never make a link
  manifest/photos.json  a manifest of 1,000,000 photos with sizes (60 MB)
"""
import os
import sys

folder = sys.argv[1]
for case in ("links", "entities", "tokens", "manifest"):
    os.makedirs(os.path.join(folder, case), exist_ok=True)

with open(os.path.join(folder, "links", "index.html"), "w") as out:
    out.write("<html><head><title>Index of /links/</title></head><body><pre>\n")
    for i in range(100_000):
        out.write(f'<a href="photo-{i:06d}.jpg">photo-{i:06d}.jpg</a>   25-Nov-2026 10:00   123456\n')
    out.write("</pre></body></html>\n")

with open(os.path.join(folder, "entities", "index.html"), "w") as out:
    out.write('<html><body><a href="')
    out.write("&amp;" * (20 * 1024 * 1024 // 5))
    out.write('.jpg">x</a><a href="last.jpg">last</a></body></html>\n')

with open(os.path.join(folder, "tokens", "index.html"), "w") as out:
    out.write("<html><body>")
    chunk = "href " * 100_000
    for _ in range(100):
        out.write(chunk)
    out.write('<a href="only.jpg">only</a></body></html>\n')

with open(os.path.join(folder, "manifest", "photos.json"), "w") as out:
    out.write('{"images":[\n')
    for i in range(1_000_000):
        comma = "," if i < 999_999 else ""
        out.write(f'{{"name":"2024/IMG_{i:07d}.jpg","width":4032,"height":3024}}{comma}\n'.replace("2024/", "2024-"))
    out.write("]}\n")
