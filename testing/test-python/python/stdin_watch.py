"""Exit when the parent closes our stdin, so a test peer never outlives the test process that started it."""

import os
import sys
import threading
from collections.abc import Callable


def exit_when_stdin_closes(on_close: Callable[[], None], grace_seconds: float = 3.0) -> None:
    def watch() -> None:
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except (OSError, ValueError):
            pass
        on_close()
        # If the graceful stop hangs, leave anyway: an orphaned peer is worse than an abrupt one.
        timer = threading.Timer(grace_seconds, lambda: os._exit(0))
        timer.daemon = True
        timer.start()

    threading.Thread(target=watch, name="stdin-watch", daemon=True).start()
