#!/usr/bin/env bash
# Assembles the DocC catalog of the Decisions module in a folder of its own, so that the guides have
# one source, Docs/*.md, and the rendered documentation shows the same text:
#
#   .ci/docc-catalog.sh OUTPUT.docc
#
# OUTPUT.docc gets the checked-in catalog (Sources/Decisions/Decisions.docc: the landing page and
# its Topics) plus every guide of Docs/ except the index, converted into a DocC article:
# - the first `# Title` stays the article's title, and the file keeps its name (`<doc:Testing>`);
# - a link to another guide, `](Other.md)` or `](Other.md#a-heading)`, becomes `](doc:Other)` or
#   `](doc:Other#A-heading)`, which DocC checks: an anchor is turned from GitHub's form into the
#   heading's DocC form (and `[Other.md](Other.md)` becomes `<doc:Other>`, which shows the title);
# - a link to anything else in the repository (Sources/, Tests/, README.md) becomes its text, with
#   the path after it in code unless the text is already code: DocC cannot link there;
# - an image in Docs/, `![text](images/inspector.png)`, is copied into the catalog and named by its
#   file name, `![text](inspector.png)`, as DocC finds images;
# - `<!-- not compiled: … -->` lines, which are for GuideCodeBlocksTests, are dropped.
# CI runs `docc convert --analyze --warnings-as-errors` on the result (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTPUT.docc" >&2
  exit 2
fi
output="$1"
rm -rf "$output"
mkdir -p "$output"
cp -R Sources/Decisions/Decisions.docc/. "$output/"

python3 - "$output" <<'PYTHON'
import os
import re
import shutil
import sys

output = sys.argv[1]
guides = sorted(
    name for name in os.listdir("Docs") if name.endswith(".md") and name != "README.md"
)
LINK = re.compile(r"(!?)\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```")


def segments(text):
    """Splits a markdown text into (is_code, text) runs: fenced blocks and the prose between."""
    runs, current, in_code = [], [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            if in_code:
                current.append(line)
                runs.append((True, "\n".join(current)))
                current, in_code = [], False
                continue
            if current:
                runs.append((False, "\n".join(current)))
            current, in_code = [line], True
            continue
        current.append(line)
    runs.append((in_code, "\n".join(current)))
    return runs


def plain(title):
    """A heading's text as rendered: code spans and links reduced to their text."""
    title = LINK.sub(lambda m: m.group(2), title)
    return title.replace("`", "")


def github_anchor(title):
    """The anchor GitHub gives a heading."""
    kept = []
    for character in plain(title).strip().lower():
        if character == " ":
            kept.append("-")
        elif character.isalnum() or character in "-_":
            kept.append(character)
    return "".join(kept)


def docc_anchor(title):
    """The anchor DocC gives a heading: runs of spaces and dashes become one dash."""
    words = [word for word in re.split(r"[\s\-]+", plain(title).strip()) if word]
    return re.sub(r"[\"'<>`]", "", "-".join(words))


def headings(text):
    """The headings of a markdown text, as {GitHub anchor: DocC anchor}."""
    anchors = {}
    for is_code, run in segments(text):
        if is_code:
            continue
        for line in run.split("\n"):
            match = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if match:
                anchors.setdefault(github_anchor(match.group(2)), docc_anchor(match.group(2)))
    return anchors


texts = {name: open(os.path.join("Docs", name), encoding="utf-8").read() for name in guides}
anchors = {name: headings(text) for name, text in texts.items()}
problems = []


def convert_link(guide, match):
    bang, text, target = match.groups()
    if bang and "://" not in target:
        image = os.path.normpath(os.path.join("Docs", target))
        if not os.path.isfile(image):
            problems.append(f"Docs/{guide}: {target}: no such image")
            return match.group(0)
        shutil.copyfile(image, os.path.join(output, os.path.basename(image)))
        return f"![{text}]({os.path.basename(image)})"
    if bang or "://" in target or target.startswith("mailto:"):
        return match.group(0)
    path, _, anchor = target.partition("#")
    name = guide if path == "" else os.path.normpath(os.path.join("Docs", path))
    if path == "" or (os.path.dirname(name) == "Docs" and os.path.basename(name) in texts):
        article = os.path.basename(name)
        reference = "doc:" + article[:-3]
        if anchor:
            if anchor not in anchors[article]:
                problems.append(f"Docs/{guide}: {target}: no such heading")
                return match.group(0)
            reference += "#" + anchors[article][anchor]
        # NB: a link whose text is only the file's name shows the article's or heading's title.
        if text.strip("`") == article:
            return f"<{reference}>"
        return f"[{text}]({reference})"
    repository_path = os.path.normpath(os.path.join("Docs", path))
    if text.startswith("`") and text.endswith("`"):
        return text
    return f"{text} (`{repository_path}`)"


for guide, text in texts.items():
    runs = []
    for is_code, run in segments(text):
        if is_code:
            runs.append(run)
            continue
        run = "\n".join(
            line for line in run.split("\n") if not re.match(r"^\s*<!--.*-->\s*$", line)
        )
        runs.append(LINK.sub(lambda match: convert_link(guide, match), run))
    with open(os.path.join(output, guide), "w", encoding="utf-8") as file:
        file.write("\n".join(runs))

if problems:
    sys.exit("\n".join(problems))
PYTHON
echo "Assembled $output: the landing page and $(find Docs -name '*.md' ! -name README.md | wc -l) guides."
