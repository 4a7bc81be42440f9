#!/usr/bin/env python3
"""A local user trying to lock the daemon's scraper out: holds N
connections to HOST:PORT that send nothing (or, with --kept, one request
each and then nothing, so that the server keeps them alive), and opens a
new one the moment the server closes one, as fast as it can, for SECONDS.

Prints one JSON line at the end: connections opened, how many the server
closed, and how many were held at the least and on average (sampled every
0.1 s).

usage: idle_flood.py HOST PORT N SECONDS [--kept] [--source ADDR ...]
"""
import json
import selectors
import socket
import sys
import time

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


def main():
    host, port, n, seconds = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                              float(sys.argv[4]))
    rest = sys.argv[5:]
    kept = "--kept" in rest
    sources = [a for i, a in enumerate(rest) if i and rest[i - 1] == "--source"]
    sources = sources or ["127.0.0.1"]
    sel = selectors.DefaultSelector()
    opened = closed = failed = 0
    samples = []

    def open_one():
        nonlocal opened, failed
        try:
            s = socket.create_connection(
                (host, port), timeout=1,
                source_address=(sources[opened % len(sources)], 0))
            if kept:
                s.sendall(REQUEST)
            s.setblocking(False)
        except OSError:
            failed += 1
            return
        opened += 1
        sel.register(s, selectors.EVENT_READ)

    end = time.time() + seconds
    next_sample = time.time()
    while time.time() < end:
        while len(sel.get_map()) < n and time.time() < end:
            open_one()
        for key, _ in sel.select(timeout=0.05):
            s = key.fileobj
            try:
                data = s.recv(65536)  # a response to --kept: read, ignored
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                closed += 1
        if time.time() >= next_sample:
            samples.append(len(sel.get_map()))
            next_sample += 0.1
    print(json.dumps({"opened": opened, "closed_by_server": closed,
                      "connect_failed": failed,
                      "held_min": min(samples[5:] or samples or [0]),
                      "held_avg": sum(samples) / max(len(samples), 1)}))


if __name__ == "__main__":
    main()
