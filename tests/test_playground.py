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
    from emovox.voices.sqlite_store import SqliteVoiceStore as VoiceStore

    home = tmp_path_factory.mktemp("playground-home")
    app = create_app(from_packages(home=home), ServerSettings(warmup=False, require_consent=True), VoiceStore(home))
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
    assert "only with the speaker's consent" in page.text_content("#consent-policy")
    page.fill("#clone-name", "browser-voice")
    page.set_input_files("#clone-file", str(clip))
    page.click("#clone-go")  # no consent: this server refuses, in words
    page.wait_for_function("document.querySelector('#clone-error').textContent.length > 0", timeout=60_000)
    assert "consent" in page.text_content("#clone-error")
    page.fill("#consent-by", "Test Operator")
    page.click("#clone-go")
    page.wait_for_function("document.querySelector('#clone-status').textContent.startsWith('cloned')",
                           timeout=120_000)
    assert "similarity" in page.text_content("#clone-status")
    assert "consent declared by Test Operator" in page.text_content("#clone-status")
    assert "speech_s" in page.text_content("#clone-report")
    assert page.eval_on_selector("#voice", "s => s.value") == "browser-voice"
    assert [e for e in page.console_errors if "400" not in e] == []  # the browser logs the refusal itself


def test_a_style_clip_and_its_words_carry_its_prosody_over(page, engine, tmp_path):
    import re

    words = "The garden behind the house was full of roses."
    sad = engine.synthesize(words, voice="jm_kumo", emotion="sad")
    clip = tmp_path / "sad.wav"
    soundfile.write(clip, sad.samples, sad.sample_rate)
    page.fill("#text", "We will meet again next spring.")
    page.select_option("#voice", "heart")
    page.select_option("#emotion", "neutral")
    page.set_input_files("#style-ref", str(clip))
    page.fill("#style-ref-text", words)
    page.click("#play")
    page.wait_for_function("document.querySelector('#stats').textContent.includes('from the clip')", timeout=90_000)
    stats = page.text_content("#stats")
    pitch = float(re.search(r"from the clip: ([+-][\d.]+) st", stats).group(1))
    rate = float(re.search(r"rate ×([\d.]+)", stats).group(1))
    assert pitch < -1.5 and abs(rate / 0.8 - 1) <= 0.10, stats  # jm_kumo's sad preset: -2.5 st, rate x0.8
    page.wait_for_selector("#view:not([hidden])", timeout=90_000)
    assert "the clip's prosody" in page.text_content("#legend") and "neutral" in page.text_content("#legend")
    assert page.text_content("#speak-error") == "" and page.console_errors == []


def test_the_page_shows_words_as_spoken_and_the_contour_beside_neutral(page):
    page.fill("#text", "We won the final match today.")
    page.select_option("#voice", "jf_alpha")
    page.select_option("#emotion", "happy")
    page.fill("#intensity", "0.7")
    page.click("#play")
    page.wait_for_selector("#view:not([hidden])", timeout=90_000)
    words = page.eval_on_selector_all("#words span", "spans => spans.map(s => s.textContent)")
    assert words == ["We", "won", "the", "final", "match", "today"]
    assert "neutral" in page.text_content("#legend") and "happy" in page.text_content("#legend")
    # two contours drawn (emotional and neutral) and a waveform: the canvases hold colored pixels
    colored = page.evaluate("""() => ['waveform', 'contour'].map((id) => {
        const c = document.getElementById(id), data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const colors = new Set();
        for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 0) colors.add(`${data[i]},${data[i+1]},${data[i+2]}`);
        return colors.size; })""")
    assert colored[0] >= 1 and colored[1] >= 3  # contour: emotional, neutral, and the axis labels
    # halfway through the clip, a word in the middle is the highlighted one and the first is said
    page.evaluate("""() => { const p = document.querySelector('#player'); p.muted = true;
                             p.currentTime = p.duration / 2; }""")
    page.wait_for_function("document.querySelector('#words span.now') !== null", timeout=10_000)
    now = page.text_content("#words span.now")
    assert now in words[1:-1] and "said" in page.get_attribute("#words span:first-child", "class")
    assert page.console_errors == []


@pytest.fixture(scope="module")
def faulty_server(tiny_engine, tmp_path_factory):
    """The tiny voices behind a server that fails inside inference on "kaboom", limits each
    client to 8 requests a minute, and can be told to drain (test_server_faults.py)."""
    from emovox.server.guard import Limits
    from emovox.server.scheduler import Scheduler, SchedulerSettings
    from emovox.voices.sqlite_store import SqliteVoiceStore as VoiceStore
    from faults import FailingOnOneWord

    app = create_app(tiny_engine, ServerSettings(limits=Limits(per_client="8/minute")),
                     VoiceStore(tmp_path_factory.mktemp("faulty-home")),
                     synthesizer=Scheduler(FailingOnOneWord(tiny_engine), SchedulerSettings(workers=1)))
    with BackgroundServer(app) as live:
        live.app = app
        yield live


def test_server_faults_are_shown_in_words(faulty_server):
    from playwright.sync_api import sync_playwright

    def shown_after(text: str) -> str:
        page.fill("#text", text)
        page.evaluate("document.querySelector('#speak-error').textContent = ''")
        page.click("#play")
        page.wait_for_function("document.querySelector('#speak-error').textContent.length > 0", timeout=30_000)
        return page.text_content("#speak-error")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.goto(faulty_server.url + "/")  # the page's own three requests (voices, emotions, consent)
        page.wait_for_function("document.querySelectorAll('#voice option').length >= 3")
        assert shown_after("It went kaboom.") == "internal server error; the request was not completed"
        lifecycle = faulty_server.app.state.lifecycle
        lifecycle.begin_drain(60)
        try:
            assert shown_after("Hello there.") == "the server is shutting down; retry on another replica or after " \
                                                  "it restarts (try again in 5 s)"
        finally:
            lifecycle.drain_deadline = None
        messages = [shown_after("Kaboom again.") for _ in range(5)]  # requests 5 to 9 of this client
        assert messages[-1].startswith("rate limit reached for this client; retry in ")
        assert messages[-1].endswith(" s)") and "try again in" in messages[-1]
        browser.close()
