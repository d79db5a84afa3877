// The target process of clrattach's demo and end-to-end tests.
//
// It prints "ready pid=<pid>" once started, then answers one command per stdin line so a test
// can prove the process is alive and make it do things a profiler should see:
//   ping            -> "pong"
//   gc N            -> runs N full garbage collections          -> "gc-done N"
//   throw N         -> throws and catches N exceptions         -> "thrown N"
//   threads N       -> starts and joins N threads              -> "threads-done N"
//   env NAME        -> prints NAME's value as the process sees it -> "env NAME=VALUE"
//   setenv NAME [V] -> sets NAME to V (the rest of the line) or removes it -> "setenv-done NAME"
//   work            -> JIT-compiles and runs a few fresh methods -> "work-done"
//   load            -> loads an assembly not loaded before (System.Xml.Linq) -> "loaded NAME"
//   version         -> the runtime version                      -> "version 10.0.x"
//   keep N          -> allocates and holds N byte[7777] arrays    -> "kept N len=7777"
//   symbols         -> loads sample.dll again from bytes with its PDB, so the runtime holds
//                      in-memory symbols                         -> "symbols-loaded pdb=BYTES"
//   jit N           -> calls Fresh.M0..M(N-1) (N <= 8), Outer.Inner.M and Outer.Inner.Deep.M,
//                      each for the first time, so each is JIT-compiled once -> "jit-done COUNT"
//   counts          -> the app's own figures a profiler's counts are compared with
//                      -> "counts gc0=N gc2=N assemblies=N"
//   events N        -> writes N events of the EventSource "ClrAttach-Sample" (event 1 "Tick",
//                      Informational, no keywords, payload int Sequence = 0..N-1 and string
//                      Text = "tick <Sequence>") -> "events-done N"
//   spin MS         -> runs ClrAttach.Sample.Hot.Spin on this thread for MS milliseconds of
//                      CPU, the known hot method of CPU-sample tests -> "spun MS"
//   meter N         -> adds N to the Counter "sample.requests" (unit "{request}") of the Meter
//                      "ClrAttach.Sample", which also has the ObservableGauge "sample.queue"
//                      (unit "{item}", always 42) -> "metered N"
//   record N        -> records 1, 2, ..., N (ms) in the Histogram "sample.latency" (unit "ms")
//                      of the same Meter -> "recorded N"
//   inflight N      -> adds N (may be negative) to the UpDownCounter "sample.inflight" (unit
//                      "{request}") of the same Meter -> "inflight TOTAL"
//   gauge-fail      -> makes the ObservableGauge "sample.broken" of the same Meter throw
//                      "sample gauge failed" from its callback from now on -> "gauge-failing"
//   contend N       -> four threads take one lock N times each, holding it ~2 ms, so they
//                      wait on each other (ContentionStart/Stop) -> "contended 4N"
//   heap N          -> adds N ClrAttach.Sample.HeapItem (32 bytes each) and N/4 HeapPair (40
//                      bytes) to what the app holds -> "heaped items=TOTAL pairs=TOTAL"
//   modules TEXT    -> how many of the process's modules (as the OS lists them) have a file
//                      name containing TEXT, case-blind -> "modules N" (the unload check of
//                      the Windows hold tests, which read no /proc)
//   exit N          -> exits with code N
// Without stdin (EOF) it keeps running until --seconds elapse (default 600), doing light work.
using System.Diagnostics;
using System.Diagnostics.Tracing;
using System.Runtime.CompilerServices;

namespace ClrAttach.Sample;

public static class Program
{
    public static int Main(string[] args)
    {
        int seconds = 600;
        for (int i = 0; i + 1 < args.Length; i++)
            if (args[i] == "--seconds")
                seconds = int.Parse(args[i + 1]);

        var background = new Thread(() => Churn(seconds)) { IsBackground = true, Name = "churn" };
        background.Start();
        Console.WriteLine($"ready pid={Environment.ProcessId}");
        Console.Out.Flush();

        string? line;
        while ((line = Console.ReadLine()) != null)
        {
            int? exitCode = Handle(line.Trim());
            if (exitCode.HasValue)
                return exitCode.Value;
        }
        background.Join();
        return 0;
    }

    // The modules whose file name contains text, as the OS lists them now (a fresh Process, so
    // nothing is cached).
    private static int CountModules(string text)
    {
        using var self = Process.GetCurrentProcess();
        int count = 0;
        foreach (ProcessModule m in self.Modules)
            if (m.FileName.Contains(text, StringComparison.OrdinalIgnoreCase))
                count++;
        return count;
    }

    // Runs one command; returns an exit code when the process should end.
    private static int? Handle(string line)
    {
        string[] words = line.Split(' ', 2, StringSplitOptions.RemoveEmptyEntries);
        if (words.Length == 0)
            return null;
        int n = words.Length > 1 && int.TryParse(words[1], out int v) ? v : 1;
        switch (words[0])
        {
            case "ping":
                Reply("pong");
                break;
            case "modules":
                Reply($"modules {CountModules(words.Length > 1 ? words[1] : "")}");
                break;
            case "gc":
                for (int i = 0; i < n; i++)
                    GC.Collect(2, GCCollectionMode.Forced, blocking: true);
                Reply($"gc-done {n}");
                break;
            case "throw":
                Reply($"thrown {ThrowAndCatch(n)}");
                break;
            case "threads":
                RunThreads(n);
                Reply($"threads-done {n}");
                break;
            case "setenv":
                string[] nameValue = (words.Length > 1 ? words[1] : "").Split(' ', 2);
                Environment.SetEnvironmentVariable(nameValue[0],
                                                   nameValue.Length > 1 ? nameValue[1] : null);
                Reply($"setenv-done {nameValue[0]}");
                break;
            case "env":
                string name = words.Length > 1 ? words[1] : "";
                Reply($"env {name}={Environment.GetEnvironmentVariable(name)}");
                break;
            case "work":
                Reply($"work-done {Work.Run()}");
                break;
            case "load":
                Reply($"loaded {Loader.LoadXml()}");
                break;
            case "version":
                Reply($"version {Environment.Version}");
                break;
            case "heap":
                Reply($"heaped {HeapHeld.Add(n)}");
                break;
            case "keep":
                Reply($"kept {Held.Keep(n)} len={Held.ArrayLength}");
                break;
            case "symbols":
                Reply($"symbols-loaded pdb={Held.LoadWithSymbols()}");
                break;
            case "jit":
                Reply($"jit-done {Fresh.CallFirstTime(n)}");
                break;
            case "counts":
                Reply($"counts gc0={GC.CollectionCount(0)} gc2={GC.CollectionCount(2)} " +
                      $"assemblies={AppDomain.CurrentDomain.GetAssemblies().Length}");
                break;
            case "events":
                Reply($"events-done {Ticks.Emit(n)}");
                break;
            case "spin":
                Reply($"spun {Hot.Spin(n)}");
                break;
            case "meter":
                Reply($"metered {Metrics.Add(n)}");
                break;
            case "record":
                Reply($"recorded {Metrics.Record(n)}");
                break;
            case "inflight":
                Reply($"inflight {Metrics.Inflight(n)}");
                break;
            case "gauge-fail":
                Metrics.FailGauge();
                Reply("gauge-failing");
                break;
            case "contend":
                Reply($"contended {Contend.Run(n)}");
                break;
            case "exit":
                return n;
            default:
                Reply($"unknown {words[0]}");
                break;
        }
        return null;
    }

    private static void Reply(string text)
    {
        Console.WriteLine(text);
        Console.Out.Flush();
    }

    private static int ThrowAndCatch(int n)
    {
        int caught = 0;
        for (int i = 0; i < n; i++)
        {
            try { throw new InvalidOperationException($"sample exception {i}"); }
            catch (InvalidOperationException) { caught++; }
        }
        return caught;
    }

    private static void RunThreads(int n)
    {
        var threads = new Thread[n];
        for (int i = 0; i < n; i++)
        {
            threads[i] = new Thread(() => Thread.Sleep(10)) { Name = $"sample-{i}" };
            threads[i].Start();
        }
        foreach (var t in threads)
            t.Join();
    }

    // Keeps the process doing a little allocation so a profiler has something to see.
    private static void Churn(int seconds)
    {
        var clock = Stopwatch.StartNew();
        var keep = new List<byte[]>();
        while (clock.Elapsed.TotalSeconds < seconds)
        {
            keep.Add(new byte[1024]);
            if (keep.Count > 1000)
                keep.Clear();
            Thread.Sleep(20);
        }
    }
}

// Events a trace can count exactly: `clrattach trace --providers ClrAttach-Sample` sees one
// Tick per `events` step, carrying its sequence number.
[EventSource(Name = "ClrAttach-Sample")]
internal sealed class SampleEvents : EventSource
{
    public static readonly SampleEvents Log = new();

    [Event(1, Level = EventLevel.Informational)]
    public void Tick(int Sequence, string Text) => WriteEvent(1, Sequence, Text);
}

// Writes the events from a class of its own: compiling Handle must not load SampleEvents (and
// with it System.Diagnostics.Tracing), or a profiler attached before the first command would
// see a module load the command did not ask for.
internal static class Ticks
{
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static int Emit(int n)
    {
        for (int i = 0; i < n; i++)
            SampleEvents.Log.Tick(i, $"tick {i}");
        return n;
    }
}

// Touches System.Xml.Linq in a method of its own, so the assembly loads only when asked.
internal static class Loader
{
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static string LoadXml() =>
        System.Xml.Linq.XDocument.Parse("<a/>").Root!.GetType().Assembly.GetName().Name!;
}

// A Meter for the counters tests: one counter the tests add to, one gauge with a known value.
// Created on the first "meter" only, behind a method of its own, so the assembly that holds
// System.Diagnostics.Metrics is not loaded by any other command (the callback tests count
// module loads).
internal static class Metrics
{
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static int Add(int n)
    {
        Instruments.Requests.Add(n);
        return n;
    }

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static int Record(int n)
    {
        for (int i = 1; i <= n; i++)
            Instruments.Latency.Record(i);
        return n;
    }

    private static long inflight;

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static long Inflight(int n)
    {
        Instruments.InFlight.Add(n);
        return inflight += n;
    }

    public static volatile bool GaugeFails;

    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static void FailGauge()
    {
        GaugeFails = true;
        Instruments.Touch();
    }

    private static class Instruments
    {
        private static readonly System.Diagnostics.Metrics.Meter Meter = new("ClrAttach.Sample");
        public static readonly System.Diagnostics.Metrics.Counter<long> Requests =
            Meter.CreateCounter<long>("sample.requests", "{request}");
        private static readonly System.Diagnostics.Metrics.ObservableGauge<int> Queue =
            Meter.CreateObservableGauge("sample.queue", () => 42, "{item}");
        public static readonly System.Diagnostics.Metrics.Histogram<double> Latency =
            Meter.CreateHistogram<double>("sample.latency", "ms");
        public static readonly System.Diagnostics.Metrics.UpDownCounter<long> InFlight =
            Meter.CreateUpDownCounter<long>("sample.inflight", "{request}");
        private static readonly System.Diagnostics.Metrics.ObservableGauge<int> Broken =
            Meter.CreateObservableGauge("sample.broken",
                () => GaugeFails ? throw new InvalidOperationException("sample gauge failed") : 1);

        // Runs the static constructor, which creates every instrument.
        public static void Touch() => Requests.Add(0);
    }
}

// The one method that burns CPU on request, so sampled stacks have a known leaf.
internal static class Hot
{
    [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
    public static int Spin(int milliseconds)
    {
        var clock = Stopwatch.StartNew();
        long x = 0;
        while (clock.ElapsedMilliseconds < milliseconds)
            for (int i = 0; i < 10000; i++)
                x = x * 31 + i;
        return x == 42 ? -1 : milliseconds;
    }
}

// Methods that are only JIT-compiled when "work" is asked for.
internal static class Work
{
    public static long Run() => Fib(20) + Squares(100);

    private static long Fib(int n) => n < 2 ? n : Fib(n - 1) + Fib(n - 2);

    private static long Squares(int n)
    {
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += (long)i * i;
        return sum;
    }
}

// Methods never called before "jit N": each call JIT-compiles one method with a known name.
// NoInlining keeps each a compilation of its own.
internal static class Fresh
{
    public static int CallFirstTime(int n)
    {
        int called = 0;
        for (int i = 0; i < Math.Min(n, 8); i++, called++)
        {
            switch (i)
            {
                case 0: M0(); break;
                case 1: M1(); break;
                case 2: M2(); break;
                case 3: M3(); break;
                case 4: M4(); break;
                case 5: M5(); break;
                case 6: M6(); break;
                default: M7(); break;
            }
        }
        Outer.Inner.M();
        Outer.Inner.Deep.M();
        return called + 2;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M0() => 0;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M1() => 1;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M2() => 2;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M3() => 3;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M4() => 4;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M5() => 5;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M6() => 6;
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int M7() => 7;
}

// Nested types, so a profiler's names show the Outer+Inner+Deep form.
internal static class Outer
{
    internal static class Inner
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static int M() => 10;

        internal static class Deep
        {
            [MethodImpl(MethodImplOptions.NoInlining)]
            public static int M() => 11;
        }
    }
}

// Objects and assemblies a profiler's heap and module probes look for, held until exit.
internal static class Held
{
    public const int ArrayLength = 7777;
    private static readonly List<byte[]> Arrays = new();
    private static readonly List<System.Reflection.Assembly> Loaded = new();

    public static int Keep(int n)
    {
        for (int i = 0; i < n; i++)
            Arrays.Add(new byte[ArrayLength]);
        return n;
    }

    // Loads this app's own dll and pdb as streams into a fresh context; returns the pdb size.
    public static long LoadWithSymbols()
    {
        string dll = typeof(Held).Assembly.Location;
        string pdb = Path.ChangeExtension(dll, ".pdb");
        var context = new System.Runtime.Loader.AssemblyLoadContext("symbols", isCollectible: false);
        using var dllStream = new MemoryStream(File.ReadAllBytes(dll));
        using var pdbStream = new MemoryStream(File.ReadAllBytes(pdb));
        Loaded.Add(context.LoadFromStream(dllStream, pdbStream));
        return pdbStream.Length;
    }
}

// Lock contention the runtime reports (ContentionStart/Stop): four threads take one lock in
// turn, each holding it ~2 ms, rounds times, so the others wait on it.
internal static class Contend
{
    private static readonly object Gate = new();

    // Returns how many times the lock was taken.
    public static int Run(int rounds)
    {
        int taken = 0;
        var threads = new Thread[4];
        for (int t = 0; t < threads.Length; t++)
        {
            threads[t] = new Thread(() =>
            {
                for (int i = 0; i < rounds; i++)
                    lock (Gate)
                    {
                        taken++;
                        var clock = Stopwatch.StartNew();
                        while (clock.Elapsed.TotalMilliseconds < 2) { }
                    }
            });
            threads[t].Start();
        }
        foreach (var t in threads)
            t.Join();
        return taken;
    }
}
