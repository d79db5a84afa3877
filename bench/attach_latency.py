#!/usr/bin/env python3
"""Attach latency and trigger memory: clrattach vs the managed DiagnosticsClient (the anchor).

Starts the sample app, then for each round attaches the hello profiler (which detaches itself),
once with `clrattach attach` and once with the anchor program, alternating, waiting for the
library to be unmapped between attaches. Reports, per trigger: the attach call as timed inside
the trigger, the whole trigger process's wall time, and its peak RSS; then anchor/clrattach
ratios. Usage: bench/attach_latency.py [ROUNDS]   (run from the repo root after a build)
"""
import os, statistics, subprocess, sys, time, json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build")
CLSID = "5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF"
PROFILER = os.path.join(BUILD, "profilers", "libhello_profiler.so")
DATA = "detach_after_ms=1"


def run_measured(cmd):
    """Runs cmd; returns (stdout, wall ms)."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = (time.perf_counter() - t0) * 1e3
    if proc.returncode != 0:
        sys.exit(f"{cmd[0]} failed ({proc.returncode}): {proc.stdout}")
    return proc.stdout, wall


def peak_rss_kib(cmd):
    """Peak RSS of one run of cmd, measured by bench/peak_rss (see why there)."""
    out = subprocess.run([os.path.join(BUILD, "bench", "peak_rss")] + cmd, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return int(out.split()[-1])


def wait_unmapped(pid):
    for _ in range(500):
        with open(f"/proc/{pid}/maps") as f:
            if "libhello_profiler.so" not in f.read():
                return
        time.sleep(0.02)
    sys.exit("the profiler did not detach")


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    subprocess.run(["dotnet", "build", os.path.join(ROOT, "bench/anchor/anchor.csproj"), "-c",
                    "Release", "-o", os.path.join(BUILD, "bench/anchor"), "--nologo", "-v", "q",
                    f"-p:BaseIntermediateOutputPath={BUILD}/bench/obj/"], check=True,
                   stdout=subprocess.DEVNULL)
    anchor = ["dotnet", os.path.join(BUILD, "bench/anchor/anchor.dll")]
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    subprocess.run(["cc", "-O2", "-o", os.path.join(BUILD, "bench", "peak_rss"),
                    os.path.join(ROOT, "bench", "peak_rss.c")], check=True)
    env = dict(os.environ, CLRPROF_HELLO_LOG=os.path.join(BUILD, "bench", "hello.log"))
    app = subprocess.Popen(["dotnet", os.path.join(BUILD, "apps/sample/sample.dll"), "--seconds", "600"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    app.stdout.readline()
    pid = str(app.pid)
    ours = [os.path.join(BUILD, "clrattach"), "attach", "--json", "--data", DATA, pid, PROFILER]
    theirs = anchor + [pid, PROFILER, CLSID, DATA]
    rows = {"clrattach": ([], []), "DiagnosticsClient (anchor)": ([], [])}
    try:
        for _ in range(rounds):
            out, wall = run_measured(ours)
            rows["clrattach"][0].append(json.loads(out)["elapsed_ms"])
            rows["clrattach"][1].append(wall)
            wait_unmapped(pid)
            out, wall = run_measured(theirs)
            rows["DiagnosticsClient (anchor)"][0].append(float(out.strip().splitlines()[-1]))
            rows["DiagnosticsClient (anchor)"][1].append(wall)
            wait_unmapped(pid)
        rss = {"clrattach": peak_rss_kib(ours)}
        wait_unmapped(pid)
        rss["DiagnosticsClient (anchor)"] = peak_rss_kib(theirs)
        wait_unmapped(pid)
    finally:
        app.kill()
    med = {k: (statistics.median(v[0]), statistics.median(v[1])) for k, v in rows.items()}
    print(f"attach of the hello profiler into one .NET {subprocess.run(['dotnet', '--list-runtimes'], capture_output=True, text=True).stdout.split()[1]} "
          f"target, {rounds} rounds each, medians")
    print(f"{'trigger':30} {'attach call ms':>15} {'process wall ms':>16} {'peak RSS KiB':>13}")
    for k in rows:
        print(f"{k:30} {med[k][0]:15.3f} {med[k][1]:16.1f} {rss[k]:13d}")
    a, c = med["DiagnosticsClient (anchor)"], med["clrattach"]
    print(f"{'ratio anchor / clrattach':30} {a[0] / c[0]:15.1f} {a[1] / c[1]:16.1f} "
          f"{rss['DiagnosticsClient (anchor)'] / rss['clrattach']:13.1f}")


if __name__ == "__main__":
    main()
