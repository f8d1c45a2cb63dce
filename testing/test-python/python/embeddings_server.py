"""An OpenAI-compatible embeddings endpoint (POST /v1/embeddings) over WordLlama, on loopback.

The knowledge store reaches it with EMBEDDINGS_PROVIDER=openai and OPENAI_BASE_URL=<this>/v1, through
the runtime's real OpenAI client. The model's files are read from the installed wheel (its own loader
looks for the tokenizer in a folder the wheel does not have, then tries a download). Prints
`listening <port>` once bound; stops when stdin closes.
"""

import base64
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import wordllama
from safetensors import safe_open
from tokenizers import Tokenizer
from wordllama.inference import WordLlamaInference

from stdin_watch import exit_when_stdin_closes

MODEL = "wordllama-l2-supercat-256"


def load_model() -> WordLlamaInference:
    root = Path(wordllama.__file__).parent
    tokenizer = Tokenizer.from_file(str(root / "tokenizers" / "l2_supercat_tokenizer_config.json"))
    with safe_open(str(root / "weights" / "l2_supercat_256.safetensors"), framework="np", device="cpu") as f:
        weights = f.get_tensor("embedding.weight")
    return WordLlamaInference(weights, tokenizer, binary=False)


def make_handler(model: WordLlamaInference, lock: threading.Lock):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet: one line a request would drown the bench's output
            pass

        def do_POST(self):
            if self.path.rstrip("/") not in ("/v1/embeddings", "/embeddings"):
                return self.reply(404, {"error": {"message": f"no route {self.path}"}})
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length))
                texts = body["input"]
                if isinstance(texts, str):
                    texts = [texts]
                if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
                    raise ValueError("input must be a string or a list of strings")
            except (ValueError, KeyError, TypeError) as error:
                return self.reply(400, {"error": {"message": str(error)}})
            with lock:
                vectors = model.embed(texts, norm=True) if texts else []
            # The openai SDK asks for base64 (little-endian float32) unless told otherwise, as OpenAI serves it.
            if body.get("encoding_format") == "base64":
                encoded = [base64.b64encode(vector.astype("<f4").tobytes()).decode() for vector in vectors]
            else:
                encoded = [vector.tolist() for vector in vectors]
            data = [{"object": "embedding", "index": i, "embedding": e} for i, e in enumerate(encoded)]
            tokens = sum(len(t.split()) for t in texts)
            self.reply(
                200,
                {
                    "object": "list",
                    "data": data,
                    "model": MODEL,
                    "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
                },
            )

        def reply(self, status, payload):
            raw = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

    return Handler


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    model = load_model()
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(model, threading.Lock()))
    print(f"listening {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    done = threading.Event()
    exit_when_stdin_closes(done.set)
    done.wait()
    server.shutdown()
    os._exit(0)


if __name__ == "__main__":
    main()
