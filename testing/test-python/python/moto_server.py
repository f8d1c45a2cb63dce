"""moto in server mode on loopback. Prints `listening <port>` once bound; stops when stdin closes."""

import os
import sys
import threading

from moto.moto_server.threaded_moto_server import ThreadedMotoServer

from stdin_watch import exit_when_stdin_closes


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    _, bound_port = server.get_host_and_port()
    print(f"listening {bound_port}", flush=True)

    done = threading.Event()
    exit_when_stdin_closes(done.set)
    done.wait()
    server.stop()
    os._exit(0)


if __name__ == "__main__":
    main()
