#!/usr/bin/python3
"""The shape the code keeps (docs/architecture.md#practices): no source file over 700 lines and no
function over 60, in src/ and tests/. A CTest test runs it (tests/CMakeLists.txt); run by hand:

    /usr/bin/python3 scripts/check_structure.py [ROOT]
    /usr/bin/python3 scripts/check_structure.py --self-test   # it catches what it should

It prints each file or function over its limit as "path:line: what" and exits 1 if there is one.

A function is found by the shape clang-format (the repository's .clang-format) gives it: a line
ending in "{" whose text before the brace closes a parameter list (a function, a lambda, a doctest
TEST_CASE), up to its matching "}" (comments and literals aside). Control statements (if, for,
switch...) and braced initialisers are not functions.
"""
import pathlib
import re
import sys

MAX_FILE_LINES = 700
MAX_FUNCTION_LINES = 60
SOURCES = ("*.cpp", "*.hpp")
CONTROL = re.compile(r"^(if|for|while|switch|do|else|try|catch|case|default|namespace|struct|"
                     r"class|enum|union|extern|return|template)\b")
# ") {", ") const {", ") -> T {", ") noexcept {", ") override {", ") mutable {"
OPENS_BODY = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(mutable\s*)?"
                        r"(->\s*[\w:<>,\s&*]+)?\{$")


def code_only(text):
    """The text with comments, string and character literals blanked, newlines kept, so that
    braces can be matched (raw strings of JSON in the tests hold braces)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            k = text.find("(", i)
            end = ")" + text[i + 2:k] + '"'
            j = text.find(end, k)
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def statement_start(lines, i):
    """The first line of the statement ending at line i (a signature may wrap over lines)."""
    start = i
    while start > 0:
        prev = lines[start - 1].rstrip()
        if not prev.strip() or prev.endswith((";", "{", "}", ":")) or prev.lstrip().startswith("#"):
            break
        start -= 1
    return start


def long_functions(code_lines):
    text = "\n".join(code_lines)
    offsets, total = [], 0
    for line in code_lines:
        offsets.append(total)
        total += len(line) + 1
    for i, raw in enumerate(code_lines):
        line = raw.rstrip()
        if not OPENS_BODY.search(line):
            continue
        first = code_lines[statement_start(code_lines, i)].strip()
        if CONTROL.match(first) or first.startswith("}") or CONTROL.match(line.strip()):
            continue
        depth, pos = 0, offsets[i] + len(line) - 1
        while pos < total - 1:
            depth += {"{": 1, "}": -1}.get(text[pos], 0)
            if depth == 0:
                break
            pos += 1
        length = text.count("\n", offsets[i], pos) + 1
        if length > MAX_FUNCTION_LINES:
            yield i + 1, length, first


def self_test():
    """The checker catches what it should: a tree with a 61-line function, a 701-line file, and
    a 60-line function, a long braced table and braces in a raw string that it must let be."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = pathlib.Path(tmp) / "src"
        src.mkdir()
        body = "".join(f"  x += {i};\n" for i in range(58))  # with its 3 others: 61 lines
        (src / "long.cpp").write_text("int f(int x) {\n" + body + "  return x;\n}\n")
        (src / "ok.cpp").write_text("int g(int x) {\n" + body[:-len("  x += 57;\n")] +
                                    "  return x;\n}\n" + "const int t[] = {\n" + "1,\n" * 80 +
                                    "};\nconst char* j = R\"({\n" + "a\n" * 70 + ")\";\n")
        (src / "big.hpp").write_text("// x\n" * (MAX_FILE_LINES + 1))
        found = check(pathlib.Path(tmp))
    expected = ["src/big.hpp:1: 701 lines", "src/long.cpp:1: a function of 61 lines"]
    ok = len(found) == 2 and all(any(p.startswith(e) for p in found) for e in expected)
    print("self-test " + ("passed" if ok else "FAILED: " + "; ".join(found)))
    return 0 if ok else 1


def check(root):
    problems = []
    for folder in ("src", "tests"):
        for pattern in SOURCES:
            for path in sorted((root / folder).rglob(pattern)):
                text = path.read_text(encoding="utf-8")
                lines = text.splitlines()
                where = path.relative_to(root)
                if len(lines) > MAX_FILE_LINES:
                    problems.append(f"{where}:1: {len(lines)} lines, more than {MAX_FILE_LINES}")
                for line, length, first in long_functions(code_only(text).split("\n")):
                    problems.append(f"{where}:{line}: a function of {length} lines, more than "
                                    f"{MAX_FUNCTION_LINES}: {first[:60]}")
    return problems


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "."))
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f"no file over {MAX_FILE_LINES} lines, no function over {MAX_FUNCTION_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
