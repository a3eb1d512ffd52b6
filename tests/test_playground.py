"""The web playground in a real headless Chromium against a real server."""

from __future__ import annotations

import shutil

import pytest
import soundfile

from emovox.server.app import ServerSettings, create_app
from emovox.server.background import BackgroundServer

pytestmark = [pytest.mark.models, pytest.mark.browser]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--autoplay-policy=no-user-gesture-required"]


@pytest.fixture(scope="module")
def page_server(tmp_path_factory):
    from emovox import from_packages
    from emovox.voices.store import VoiceStore

    home = tmp_path_factory.mktemp("playground-home")
    app = create_app(from_packages(home=home), ServerSettings(warmup=False), VoiceStore(home))
    with BackgroundServer(app) as live:
        yield live


@pytest.fixture
def page(page_server):
    if CHROMIUM is None:
        pytest.fail("chromium is not installed; `make test` installs it (apt package chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.console_errors = []
        page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
        page.on("pageerror", lambda e: page.console_errors.append(str(e)))
        page.goto(page_server.url + "/")
        page.wait_for_function("document.querySelectorAll('#voice option').length >= 6")
        yield page
        browser.close()


def test_type_synthesize_and_play(page):
    page.fill("#text", "Good morning. The weather is lovely today.")
    page.select_option("#voice", "joe")
    page.select_option("#emotion", "happy")
    page.click("#play")
    page.wait_for_function("document.querySelector('#stats').textContent.includes('RTF')", timeout=60_000)
    stats = page.text_content("#stats")
    assert "first audio after" in stats
    duration = page.evaluate("""() => new Promise((resolve) => {
        const player = document.querySelector('#player');
        if (player.readyState >= 1) resolve(player.duration);
        else player.addEventListener('loadedmetadata', () => resolve(player.duration));
    })""")
    assert duration > 1.0
    page.wait_for_selector("#download:not([hidden])", timeout=60_000)
    assert page.text_content("#speak-error") == "" and page.console_errors == []


def test_api_errors_are_shown_not_thrown(page):
    page.fill("#text", "")
    page.click("#play")
    page.wait_for_function("document.querySelector('#speak-error').textContent.length > 0", timeout=30_000)
    assert "input" in page.text_content("#speak-error")
    assert [e for e in page.console_errors if "400" not in e] == []  # the browser logs the 400 itself


def test_clone_panel_uploads_and_adds_the_voice(page, engine, tmp_path):
    audio = engine.synthesize("My grandmother grew tomatoes, beans and sunflowers in her garden every summer.",
                              voice="jm_kumo")
    clip = tmp_path / "me.wav"
    soundfile.write(clip, audio.samples, audio.sample_rate)
    page.fill("#clone-name", "browser-voice")
    page.set_input_files("#clone-file", str(clip))
    page.click("#clone-go")
    page.wait_for_function("document.querySelector('#clone-status').textContent.startsWith('cloned')",
                           timeout=120_000)
    assert "similarity" in page.text_content("#clone-status")
    assert "speech_s" in page.text_content("#clone-report")
    assert page.eval_on_selector("#voice", "s => s.value") == "browser-voice"
    assert page.console_errors == []
