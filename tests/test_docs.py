"""The docs say what the code has: every command, finding code, example, schema and page, each where it belongs.

The README keeps what the tool is, the CI commands, a tour and a map; the rest
lives in pages under docs/ (docs/cli.md is the commands' own help, generated).
Every relative link in them must resolve, anchors included.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import click
import pytest
from conftest import Cli

from multidebate.cli import cli as cli_group
from multidebate.protocol.findings import CODES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))


def text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def reference_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- what each page must hold ---------------------------------------------------


def test_every_command_is_in_the_table() -> None:
    commands = text("docs/commands.md")
    for ctx, _ in reference_script().walk(cli_group):
        assert f"| `{ctx.command_path}" in commands, ctx.command_path


def test_every_finding_code_is_in_the_table_and_no_other() -> None:
    findings = text("docs/findings.md")
    for code, rule in CODES.items():
        assert f"| {code} | {rule.severity} |" in findings, code
    listed = re.findall(r"^\| ([EW]\d{3}) \|", findings, re.MULTILINE)
    assert sorted(listed) == sorted(CODES), "docs/findings.md lists a code the package does not have, or twice"


def test_every_example_is_described_and_no_other() -> None:
    examples = text("docs/examples.md")
    folders = sorted(p.name for p in (ROOT / "examples").iterdir() if p.is_dir())
    for name in folders:
        assert f"| `examples/{name}` |" in examples, name
    listed = re.findall(r"^\| `examples/([^`]+)` \|", examples, re.MULTILINE)
    assert sorted(listed) == folders, "docs/examples.md describes a folder examples/ does not have, or twice"


def test_every_schema_is_named() -> None:
    commands = text("docs/commands.md")
    for schema in sorted((ROOT / "multidebate" / "schemas").glob("*.schema.json")):
        assert f"`{schema.name}`" in commands, schema.name


def test_status_and_write_json_fields_are_named() -> None:
    import json

    json_section = text("docs/commands.md").split("## JSON output", 1)[1].split("\n## ", 1)[0]
    for name, defs in (("status", ("verdict", "cell", "pair")), ("write", ())):
        schema = json.loads((ROOT / "multidebate" / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8"))
        fields = list(schema["properties"]) + [f for d in defs for f in schema["$defs"][d]["properties"]]
        for field in fields:
            assert re.search(rf"\b{field}\b", json_section), f"{name} --json: {field}"


# -- the README -----------------------------------------------------------------


def test_ci_blocks_exist() -> None:
    readme = text("README.md")
    assert "<!-- ci: install -->\n```sh\n" in readme
    assert "<!-- ci: test -->\n```sh\n" in readme


@pytest.mark.parametrize("block", ["install", "test"])
def test_ci_commands_work_in_a_fresh_shell_without_a_system_pip(block: str) -> None:
    """A stock Debian Python refuses `pip install` outside a venv, and `lint-imports` lives only in one."""
    command = text("README.md").split(f"<!-- ci: {block} -->\n```sh\n", 1)[1].split("\n", 1)[0]
    steps = command.split(" && ")
    assert steps[:2] == ["python3 -m venv .venv", ". .venv/bin/activate"], command


def test_no_sentence_offers_an_install_from_pypi() -> None:
    """The package is not on PyPI: only a clone installs it."""
    for page in [ROOT / "README.md", ROOT / "SKILL.md", *PAGES]:
        found = re.findall(r"(?:pipx|uv tool|pip) install (?:--\S+ )*multidebate\b", page.read_text(encoding="utf-8"))
        assert found == [], f"{page.name}: {found}"
    assert "from a clone" in text("README.md") or "in the clone" in text("README.md")


def test_readme_tour_shows_what_status_prints(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = text("README.md").split("`status` on the example above:\n\n```\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    result = cli("--color", "never", "status", "examples/rate-limit")
    assert result.code == 0
    assert result.out == shown


def test_readme_maps_every_page() -> None:
    readme = text("README.md")
    for page in PAGES:
        assert f"](docs/{page.name})" in readme, f"the README's map does not link docs/{page.name}"


def test_readme_maps_every_sub_package() -> None:
    readme = text("README.md")
    packages = sorted(p.parent.name for p in (ROOT / "multidebate").glob("*/__init__.py"))
    assert packages, "no sub-package found"
    for name in packages:
        assert f"`multidebate/{name}/`" in readme, f"the README's map does not name multidebate/{name}/"


# -- links ------------------------------------------------------------------------

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")


def _without_code(markdown: str) -> str:
    return _CODE_SPAN.sub("", _FENCE.sub("", markdown))


def anchors(markdown: str) -> set[str]:
    """The ids GitHub gives a page's headings: lowercased, punctuation dropped, spaces to hyphens, -1 for repeats."""
    seen: dict[str, int] = {}
    ids = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#* *$", _FENCE.sub("", markdown), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        ids.add(slug if count == 0 else f"{slug}-{count}")
    return ids


def broken_links(page: Path) -> list[str]:
    """The relative links of `page` whose file, or whose anchor in that file, does not exist."""
    broken = []
    for target in _LINK.findall(_without_code(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto: ...: not ours to check here
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
            broken.append(f"{target}: no such heading")
    return broken


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=lambda p: p.name)
def test_relative_links_resolve(page: Path) -> None:
    assert broken_links(page) == []


def test_broken_links_are_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## A section: `with code`\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md) [ok](other.md#a-section-with-code) [ok](#here) [web](https://example.com)\n"
                    "# Here\n[gone](missing.md) [no anchor](other.md#nope) [no local](#nowhere)\n"
                    "```\n[in code](ignored.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["missing.md: no such file", "other.md#nope: no such heading",
                                  "#nowhere: no such heading"]


# -- the generated reference ------------------------------------------------------


def test_cli_reference_is_up_to_date() -> None:
    script = reference_script()
    assert script.TARGET.read_text(encoding="utf-8") == script.render(), \
        "docs/cli.md is out of date: run python scripts/cli_reference.py"
    assert "](docs/cli.md)" in text("README.md")


def test_every_command_and_option_has_help() -> None:
    assert reference_script().missing_help() == []


def test_missing_help_is_reported() -> None:
    @click.group()
    def root() -> None:
        """A group."""

    @root.command()
    @click.option("--quiet", is_flag=True)
    def bare() -> None:
        pass

    assert reference_script().missing_help(root) == ["multidebate bare: no help text",
                                                     "multidebate bare: option --quiet has no help"]
