"""One request model: the CLI and the HTTP API offer the same options, checked in one place.
Fast tier."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from emovox import cli
from emovox.audio.formats import FORMATS
from emovox.emotion.model import EMOTIONS
from emovox.errors import InvalidOptionError
from emovox.frontend.language import LANGUAGES
from emovox.options import OPTIONS, SpeechOptions
from emovox.server.schemas import SpeechRequest

PACKAGE = Path(__file__).parents[1] / "src" / "emovox"


def _say_parser() -> argparse.ArgumentParser:
    commands = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["say"]


def test_the_cli_and_the_api_offer_the_same_options():
    say = {action.dest: action for action in _say_parser()._actions}
    schema = SpeechRequest.model_json_schema()["properties"]
    for option in OPTIONS:
        flag, field = say[option.name], schema[option.field]
        assert option.flag in flag.option_strings
        choices = tuple(flag.metavar.strip("{}").split(",")) if option.choices else ()
        assert choices == tuple(field.get("enum", ())) == option.choices, option.name
        assert (field.get("minimum"), field.get("maximum")) == (option.low, option.high), option.name
        assert flag.help == field["description"] == option.help
    # ...and only those, beside each surface's own (output file and profile; OpenAI's fields)
    cli_only = set(say) - {o.name for o in OPTIONS}
    api_only = set(schema) - {o.field for o in OPTIONS}
    assert cli_only == {"help", "text", "output", "profile", "timestamps", "subtitles"}  # files: the API returns them
    assert api_only == {"model", "input", "instructions", "stream_format"}


def test_every_command_prints_its_help():
    """argparse expands "%" in help texts, so an option's help with a bare percent sign broke
    `emovox say --help` with a traceback."""
    commands = next(a for a in cli.build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in commands.choices.items():
        assert parser.format_help().startswith("usage:"), name


def test_choices_come_from_the_domain():
    choices = {option.name: option.choices for option in OPTIONS}
    assert choices["emotion"] == EMOTIONS and choices["format"] == FORMATS and choices["lang"] == LANGUAGES


@pytest.mark.parametrize(("options", "message", "param"), [
    ({"speed": 9.0}, "speed 9 is out of range; use a value from 0.25 to 4", "speed"),
    ({"intensity": 1.5}, "intensity 1.5 is out of range", "intensity"),
    ({"emotion": "bored"}, "unknown emotion 'bored'; choose one of neutral, happy", "emotion"),
    ({"pitch": 30.0}, "pitch 30 is out of range; use a value from -12 to 12", "pitch"),
    ({"range": 0.0}, "range 0 is out of range", "range"),
    ({"format": "xyz"}, "unknown format 'xyz'; choose one of mp3, opus", "response_format"),
    ({"emotion": "sad", "prompt": "very happy"}, "either an emotion label or a prompt", "prompt"),
    ({"style_ref_voice": "tiny"}, "give the clip too", "style_ref_voice"),
    ({"style_ref_text": "Hello there."}, "style_ref_text describes a style_ref clip; give the clip too",
     "style_ref_text"),
    ({"style_ref": b"RIFF", "style_ref_text": "word " * 100}, "style_ref_text is 500 characters long; give at most 300",
     "style_ref_text"),
])
def test_bad_options_get_one_actionable_message(options, message, param):
    with pytest.raises(InvalidOptionError, match=message) as error:
        SpeechOptions(**options)
    assert error.value.param == param and error.value.http_status == 400


def test_an_unknown_output_extension_is_an_error_that_lists_the_formats(tmp_path, capsys):
    assert cli.main(["say", "hi", "-o", str(tmp_path / "out.xyz")]) == cli.EXIT_BAD_INPUT
    message = capsys.readouterr().err
    assert "'.xyz'" in message and all(fmt in message for fmt in FORMATS)
    assert not list(tmp_path.iterdir())


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("emovox")}


@pytest.mark.parametrize(("package", "forbidden"), [
    ("backends", ("emovox.frontend", "emovox.emotion", "emovox.engine", "emovox.voices", "emovox.server")),
    ("engine", ("emovox.voices", "emovox.server", "emovox.compose", "emovox.cli", "emovox.backends.vits",
                "emovox.backends.kokoro", "emovox.backends.fastspeech2")),
    ("frontend", ("emovox.backends", "emovox.engine", "emovox.server")),
    ("emotion", ("emovox.backends", "emovox.server", "emovox.voices")),
])
def test_the_import_graph_keeps_its_layers(package, forbidden):
    for path in (PACKAGE / package).rglob("*.py"):
        bad = {name for name in _imports(path) if name.startswith(forbidden)}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {sorted(bad)}"


def test_no_capability_probing_by_attribute_name():
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "hasattr":
                pytest.fail(f"{path.relative_to(PACKAGE)}:{node.lineno} probes with hasattr")
