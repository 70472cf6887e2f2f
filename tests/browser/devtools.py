"""A headless Chromium driven through the DevTools protocol over a pipe (--remote-debugging-pipe:
JSON messages ended by a NUL byte on file descriptors 3 and 4), so that the tests need no
WebSocket client: load a page, run script in it, take a screenshot."""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, chromium, width=1280, height=900, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="tesmod-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # Moved above 4 first, so that placing them at 3 and 4 in the child never overwrites one.
        to_browser_r, from_browser_w = (self._above_4(fd) for fd in (to_browser_r, from_browser_w))

        args = ["--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--force-color-profile=srgb",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions", f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}", "about:blank"]

        def place_pipes():  # in the child, before exec: only 0-4 are inherited (close_fds=False, and
            os.dup2(to_browser_r, 3)  # Python's own descriptors are not inheritable)
            os.dup2(from_browser_w, 4)

        self.proc = subprocess.Popen([chromium, *args], close_fds=False, preexec_fn=place_pipes,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(os.environ.get("TESMOD_CHROMIUM_LOG", os.devnull), "w"))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events = []
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        target = page["targetId"] if page else self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    @staticmethod
    def _above_4(fd):
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(fd)
        return moved

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no answer from Chromium in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed the pipe (exit status %s)" % self.proc.poll())
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=False, **params):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_event(self, method, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def load(self, url, ready="document.body && document.body.dataset.ready === 'true'"):
        """Navigates and waits for the load event, then for `ready` to be true."""
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        deadline = time.monotonic() + self.timeout
        self.wait_event("Page.loadEventFired", deadline)
        while not self.eval(ready):
            if time.monotonic() > deadline:
                raise BrowserError(f"{url}: the page did not get ready")
            time.sleep(0.05)

    def eval(self, expression):
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self):
        """The viewport as PNG bytes."""
        return base64.b64decode(self.call("Page.captureScreenshot", session=True, format="png")["data"])

    def close(self):
        try:
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def dump_dom(chromium, url, budget_ms=10000):
    """The DOM after the page's scripts ran, as `chromium --dump-dom` prints it."""
    with tempfile.TemporaryDirectory(prefix="tesmod-chromium-") as profile:
        p = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            f"--user-data-dir={profile}", f"--virtual-time-budget={budget_ms}", "--dump-dom", url],
                           capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise BrowserError(f"chromium --dump-dom {url} exited {p.returncode}: {p.stderr[-2000:]}")
    return p.stdout
