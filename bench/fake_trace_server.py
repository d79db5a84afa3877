#!/usr/bin/env python3
"""bench/fake_trace_server.py - a diagnostics server that answers CollectTracing with a given
NetTrace file as the session's stream, for timing `clrattach counters` on hostile streams.

  fake_trace_server.py TRACE -- COMMAND...   serves as the target itself (clrattach checks
      that the socket's server is the target), from a fresh TMPDIR; runs COMMAND with {pid}
      replaced by its own pid and prints COMMAND's exit status, peak RSS (KiB) and wall
      seconds.

StopTracing is answered and ends the stream, as the runtime does (docs/protocol.md).
"""
import os
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

MAGIC = b"DOTNET_IPC_V1\0"
SESSION = 0x5EC7


def reply(conn, payload):
    conn.sendall(MAGIC + struct.pack("<HBBH", 20 + len(payload), 0xFF, 0x00, 0) + payload)


def read_request(conn):
    head = b""
    while len(head) < 20:
        chunk = conn.recv(20 - len(head))
        if not chunk:
            return None
        head += chunk
    size, cmdset, cmdid, _ = struct.unpack("<HBBH", head[14:20])
    left = size - 20
    while left > 0:
        chunk = conn.recv(left)
        if not chunk:
            break
        left -= len(chunk)
    return cmdset, cmdid


def serve(listener, trace, streams):
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        req = read_request(conn)
        if req == (0x02, 0x01):  # StopTracing: answer, then end the stream
            reply(conn, struct.pack("<Q", SESSION))
            conn.close()
            for s in streams:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                    s.close()
                except OSError:
                    pass
        elif req and req[0] == 0x02:  # CollectTracing 1-5: the session, then the stream
            reply(conn, struct.pack("<Q", SESSION))
            streams.append(conn)
            threading.Thread(target=send_stream, args=(conn, trace), daemon=True).start()
        else:
            conn.close()


def send_stream(conn, trace):
    try:
        conn.sendall(trace)  # then stay open until StopTracing, like a quiet runtime
    except OSError:
        pass


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit(__doc__)
    if "CLRA_FAKEDS_DIR" not in os.environ:  # the target's TMPDIR is read from its environ
        tmp = tempfile.mkdtemp(prefix="clra-fakeds-")
        env = dict(os.environ, TMPDIR=tmp, CLRA_FAKEDS_DIR=tmp)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    tmp = os.environ["CLRA_FAKEDS_DIR"]
    trace = open(sys.argv[1], "rb").read()
    try:
        with open(f"/proc/{os.getpid()}/stat") as f:
            key = f.read().rsplit(")", 1)[1].split()[19]  # field 22: start time in ticks
        path = os.path.join(tmp, f"dotnet-diagnostic-{os.getpid()}-{key}-socket")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(path)
        listener.listen(8)
        threading.Thread(target=serve, args=(listener, trace, []), daemon=True).start()
        cmd = [a.replace("{pid}", str(os.getpid())) for a in sys.argv[3:]]
        start = time.monotonic()
        proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", os.path.join(tmp, "t")] + cmd,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _, err = proc.communicate(timeout=120)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
            status = "timeout"
        wall = time.monotonic() - start
        rss = open(os.path.join(tmp, "t")).read().split()[-1] if status != "timeout" else "?"
        print(f"exit {status} peak_rss_kib {rss} seconds {wall:.2f}")
        sys.stderr.write(err.decode(errors="replace")[-400:])
        listener.close()
    finally:
        for name in os.listdir(tmp):
            os.unlink(os.path.join(tmp, name))
        os.rmdir(tmp)


if __name__ == "__main__":
    main()
