#!/usr/bin/env python3
"""Asks one running .NET process, over its diagnostics socket, every command clrattach uses
(harmless forms only) and prints what came back: the reply's kind, its size and its HRESULT or
first payload field. It feeds the README's compatibility table; the e2e tests assert the facts.

usage: runtime_facts.py PID [WORD]   (WORD: only the probes whose name contains it)
"""
import glob
import os
import socket
import struct
import sys

MAGIC = b"DOTNET_IPC_V1\0"


def string(text):
    """A diagnostics string: uint32 length in UTF-16 units with the NUL, then the units."""
    if text is None:
        return struct.pack("<I", 0)
    data = (text + "\0").encode("utf-16-le")
    return struct.pack("<I", len(data) // 2) + data


def message(cmdset, cmdid, payload=b""):
    return MAGIC + struct.pack("<HBBH", 20 + len(payload), cmdset, cmdid, 0) + payload


def providers(v5=False, ids=None, enable=False):
    """One provider (Microsoft-Windows-DotNETRuntime, GC keyword, informational)."""
    entry = struct.pack("<QI", 0x1, 4) + string("Microsoft-Windows-DotNETRuntime") + string(None)
    if v5:
        ids = ids or []
        entry += struct.pack("<BI", 1 if enable else 0, len(ids))
        entry += b"".join(struct.pack("<I", i) for i in ids)
    return struct.pack("<I", 1) + entry


def ask(path, msg, keep=False):
    """Sends msg on a fresh connection; returns (kind, size, first u32/u64 or text)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    s.sendall(msg)
    try:
        head = b""
        while len(head) < 20:
            chunk = s.recv(20 - len(head))
            if not chunk:
                return ("closed", 0, "")
            head += chunk
        size, cmdset, cmdid, _ = struct.unpack("<HBBH", head[14:20])
        body = b""
        while len(body) < size - 20:
            chunk = s.recv(size - 20 - len(body))
            if not chunk:
                break
            body += chunk
    except socket.timeout:
        return ("no reply", 0, "")
    finally:
        s.close()
    kind = "OK" if (cmdset, cmdid) == (0xFF, 0x00) else \
        "Error" if (cmdset, cmdid) == (0xFF, 0xFF) else "%02x%02x" % (cmdset, cmdid)
    value = ""
    if len(body) >= 4:
        value = "0x%08X" % struct.unpack("<I", body[:4])[0]
    return (kind, size, value)


def main():
    pid = int(sys.argv[1])
    tmp = os.environ.get("TMPDIR", "/tmp")
    socks = glob.glob("%s/dotnet-diagnostic-%d-*-socket" % (tmp, pid))
    print("socket:", socks[0] if socks else "none")
    path = socks[0]
    ct_head = struct.pack("<II", 1, 1)
    probes = [
        ("ProcessInfo 0x0400", message(4, 0)),
        ("ProcessInfo2 0x0404", message(4, 4)),
        ("ProcessInfo3 0x0408", message(4, 8)),
        ("ResumeRuntime 0x0401 (not paused)", message(4, 1)),
        ("SetEnvironmentVariable 0x0403", message(4, 3, string("CLRA_FACT") + string("1"))),
        ("EnablePerfMap 0x0405 (type 3 = perfmap only)", message(4, 5, struct.pack("<I", 3))),
        ("DisablePerfMap 0x0406", message(4, 6)),
        ("unknown 0x0409", message(4, 9)),
        ("GenerateCoreDump3 0x0103 (missing dir)",
         message(1, 3, string("/nonexistent/dir/core") + struct.pack("<II", 1, 0))),
        ("unknown 0x0104", message(1, 4)),
        ("AttachProfiler 0x0301 (missing file)",
         message(3, 1, struct.pack("<I", 1000) + b"\x11" * 16 + string("/nonexistent.so") +
                 struct.pack("<I", 0))),
        ("StopTracing 0x0201 (no such session)", message(2, 1, struct.pack("<Q", 1))),
        ("CollectTracing2 0x0203", message(2, 3, ct_head + b"\x00" + providers())),
        ("CollectTracing3 0x0204", message(2, 4, ct_head + b"\x00\x00" + providers())),
        ("CollectTracing4 0x0205", message(2, 5, ct_head + struct.pack("<QB", 0, 0) +
                                           providers())),
        ("CollectTracing5 0x0206 (streaming, deny id 1)",
         message(2, 6, struct.pack("<I", 0) + ct_head + struct.pack("<QB", 0, 0) +
                 providers(True, [1], False))),
        ("CollectTracing5 0x0206 (session type 2)",
         message(2, 6, struct.pack("<I", 2) + ct_head + struct.pack("<QB", 0, 0) +
                 providers(True))),
        ("CollectTracing6 0x0207 (block)",
         message(2, 7, struct.pack("<I", 0) + ct_head + struct.pack("<QB", 0, 0) +
                 providers(True) + struct.pack("<I", 1))),
        ("CollectTracing format 2", message(2, 3, struct.pack("<II", 1, 2) + b"\x00" +
                                            providers())),
        ("unknown 0x0208", message(2, 8)),
        ("CollectTracing (1) format 7", message(2, 2, struct.pack("<II", 1, 7) + providers())),
    ]
    for name, msg in probes:
        if len(sys.argv) > 2 and sys.argv[2] not in name:
            continue
        kind, size, value = ask(path, msg)
        print("| %s | %s | %d | %s |" % (name, kind, size, value))


if __name__ == "__main__":
    main()
