#!/usr/bin/env python3
"""Opens commtune HTML reports in headless Chromium and checks them as a reader's browser sees them.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: fds 3 and 4, no
port), with every host name resolving to nothing (--host-resolver-rules), so no request can leave
the machine. Per report: no console error, no uncaught exception, no network request other than
the report file itself; the DOM holds the plots and series the caller expects; every plot has its
text alternative and its numbers table; a full-page screenshot (PNG) is written.

Usage: check_report.py REPORT.html --screenshot OUT.png [--expect 'CSS=N'] [--min 'CSS=N'] ...
Exit 0 when every check holds, 1 when one fails, 77 (skipped) when no chromium is installed.
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 30
BROWSERS = ("chromium", "chromium-browser", "google-chrome")

# What the page reports about itself, evaluated in the page.
DOM_FACTS = r"""(() => {
  const q = (s) => Array.from(document.querySelectorAll(s));
  const figures = q('figure.plot-figure').map(f => ({
    id: f.id,
    svg: f.querySelector('svg.plot') !== null,
    alt: (f.querySelector('p.alt') || {textContent: ''}).textContent.trim().length,
    table_rows: f.querySelectorAll('details table tbody tr').length,
    details_open: f.querySelector('details') ? f.querySelector('details').open : null,
  }));
  const plots = q('svg.plot').map(s => ({
    cls: s.getAttribute('class'),
    declared: s.getAttribute('data-series'),
    series: s.querySelectorAll('g.series').length,
    empty_series: Array.from(s.querySelectorAll('g.series')).filter(g => g.querySelectorAll('circle.marker').length === 0).length,
    xticks: s.querySelectorAll('g.tick.x').length,
    yticks: s.querySelectorAll('g.tick.y').length,
    title: (s.querySelector('title') || {textContent: ''}).textContent,
    width: s.getBoundingClientRect().width,
  }));
  return JSON.stringify({title: document.title, figures, plots, height: document.documentElement.scrollHeight});
})()"""


class Browser:
    def __init__(self, binary, profile):
        self.to_r, self.to_w = os.pipe()
        self.from_r, self.from_w = os.pipe()
        args = [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--mute-audio", "--host-resolver-rules=MAP * ~NOTFOUND",
                "--proxy-server=http://127.0.0.1:9", "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        # fd 3: commands to the browser, fd 4: its answers.
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     pass_fds=(3, 4), preexec_fn=self._fds)
        os.close(self.to_r)
        os.close(self.from_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def _fds(self):
        os.dup2(self.to_r, 3)
        os.dup2(self.from_w, 4)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("no answer from chromium")
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_w, json.dumps(message).encode() + b"\0")
        deadline = time.time() + TIMEOUT_S
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method, deadline):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def problems_in_events(events, url):
    problems = []
    for e in events:
        method, p = e.get("method"), e.get("params", {})
        if method == "Network.requestWillBeSent" and p.get("request", {}).get("url") != url:
            problems.append("network request: " + p["request"]["url"][:200])
        elif method == "Runtime.exceptionThrown":
            problems.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            problems.append("console " + p["type"] + ": " + json.dumps(p.get("args", []))[:300])
        elif method == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
            problems.append("log " + p["entry"]["level"] + ": " + p["entry"].get("text", "")[:300])
    return problems


def problems_in_dom(facts, expect, minimum):
    problems = []
    for f in facts["figures"]:
        if not f["svg"] or f["alt"] == 0 or f["table_rows"] == 0:
            problems.append(f"figure {f['id']}: svg {f['svg']}, text alternative {f['alt']} chars, {f['table_rows']} table rows")
        if f["details_open"]:
            problems.append(f"figure {f['id']}: numbers table open by default")
    for p in facts["plots"]:
        if p["declared"] is not None and int(p["declared"]) != p["series"]:
            problems.append(f"plot '{p['title']}': declares {p['declared']} series, draws {p['series']}")
        if p["empty_series"]:
            problems.append(f"plot '{p['title']}': {p['empty_series']} series without points")
        if p["xticks"] + p["yticks"] == 0 and "heatmap" not in p["cls"]:
            problems.append(f"plot '{p['title']}': no ticks")
        if p["width"] < 100:
            problems.append(f"plot '{p['title']}': {p['width']} px wide")
    for selector, wanted, exact in [(s, n, True) for s, n in expect] + [(s, n, False) for s, n in minimum]:
        got = facts["counts"][selector]
        if (exact and got != wanted) or (not exact and got < wanted):
            problems.append(f"'{selector}': {got} element(s), wanted {'' if exact else 'at least '}{wanted}")
    return problems


def check(browser, report, screenshot, expect, minimum, parts, media):
    url = "file://" + os.path.abspath(report)
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Network", "Log"):
        browser.send(domain + ".enable", session=session)
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": 900, "deviceScaleFactor": 1, "mobile": False},
                 session=session)
    browser.send("Emulation.setEmulatedMedia", {"media": media}, session=session)
    browser.events.clear()
    browser.send("Page.navigate", {"url": url}, session=session)
    browser.wait_for("Page.loadEventFired", time.time() + TIMEOUT_S)
    facts = json.loads(browser.send("Runtime.evaluate", {"expression": DOM_FACTS, "returnByValue": True}, session=session)["result"]["value"])
    facts["counts"] = {}
    for selector, _ in expect + minimum:
        expression = f"document.querySelectorAll({json.dumps(selector)}).length"
        facts["counts"][selector] = browser.send("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                                                 session=session)["result"]["value"]
    height = min(int(facts["height"]), 16000)
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1100, "height": height, "deviceScaleFactor": 1, "mobile": False},
                 session=session)
    shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
    with open(screenshot, "wb") as f:
        f.write(base64.b64decode(shot))
    for i, top in enumerate(range(0, height, parts) if parts else []):
        clip = {"x": 0, "y": top, "width": 1100, "height": min(parts, height - top), "scale": 1}
        part = browser.send("Page.captureScreenshot", {"format": "png", "clip": clip}, session=session)["data"]
        with open(screenshot[:-4] + f"-{i + 1}.png", "wb") as f:
            f.write(base64.b64decode(part))
    problems = problems_in_events(browser.events, url) + problems_in_dom(facts, expect, minimum)
    print(f"{report}: {len(facts['figures'])} figures, {len(facts['plots'])} plots, "
          f"series {[p['series'] for p in facts['plots'] if p['declared'] is not None]}, {len(problems)} problem(s); "
          f"screenshot {screenshot} ({height} px)")
    browser.send("Target.closeTarget", {"targetId": target})
    return problems


def counted(text):
    selector, _, n = text.rpartition("=")
    return selector, int(n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--screenshot", required=True)
    parser.add_argument("--expect", action="append", default=[], type=counted, help="CSS=N: exactly N elements")
    parser.add_argument("--min", action="append", default=[], type=counted, help="CSS=N: at least N elements")
    parser.add_argument("--media", default="screen", choices=("screen", "print"), help="the CSS media to emulate")
    parser.add_argument("--parts", type=int, default=0, metavar="PX", help="also write the page in pieces PX high (OUT-1.png, ...)")
    options = parser.parse_args()
    binary = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if not binary:
        print("skipped: no chromium installed (scripts/setup.sh installs Debian's chromium)")
        return 77
    profile = tempfile.mkdtemp(prefix="commtune-browser-")
    browser = Browser(binary, profile)
    try:
        problems = check(browser, options.report, options.screenshot, options.expect, options.min, options.parts, options.media)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
