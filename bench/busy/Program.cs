// The target of bench/run's profile_overhead section: CPU-bound work items on every core, so
// whatever a profiler takes from the process shows as fewer items per second.
//
// Usage: busy [--threads N] [--seconds S] [--alloc 1]   (N defaults to the processor count, S to
// 600; --alloc 1 makes each item sort a fresh copy, 1 KiB allocated per item, for
// alloc_overhead)
// Prints "ready pid=<pid>", then every 100 ms "items <total so far> <ms since ready>" until S
// seconds pass or stdin closes. One work item sorts a copy of a 256-element array through a
// few non-inlined calls (so the runtime's safe points and stack walks are the usual kind).
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ClrAttach.Busy;

public static class Program
{
    private static long[] counts = Array.Empty<long>();

    public static int Main(string[] args)
    {
        int threads = Environment.ProcessorCount, seconds = 600;
        bool alloc = false;
        for (int i = 0; i + 1 < args.Length; i += 2)
        {
            if (args[i] == "--threads")
                threads = int.Parse(args[i + 1]);
            else if (args[i] == "--seconds")
                seconds = int.Parse(args[i + 1]);
            else if (args[i] == "--alloc")
                alloc = args[i + 1] == "1";
        }
        counts = new long[threads * 16]; // one cache line per worker
        for (int t = 0; t < threads; t++)
        {
            int slot = t * 16;
            new Thread(() => Work.Loop(slot, alloc)) { IsBackground = true, Name = $"worker{t}" }.Start();
        }
        new Thread(() => { Console.In.ReadToEnd(); Environment.Exit(0); }) { IsBackground = true }.Start();
        Console.WriteLine($"ready pid={Environment.ProcessId}");
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed.TotalSeconds < seconds)
        {
            Thread.Sleep(100);
            long total = 0;
            for (int t = 0; t < threads; t++)
                total += Volatile.Read(ref counts[t * 16]);
            Console.WriteLine($"items {total} {clock.Elapsed.TotalMilliseconds:F1}");
        }
        return 0;
    }

    public static class Work
    {
        public static void Loop(int slot, bool alloc)
        {
            var template = new int[256];
            var rng = new Random(slot);
            for (int i = 0; i < template.Length; i++)
                template[i] = rng.Next();
            var scratch = new int[256];
            while (true)
            {
                Item(template, alloc ? new int[256] : scratch);
                Volatile.Write(ref counts[slot], counts[slot] + 1);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        public static void Item(int[] template, int[] scratch)
        {
            Array.Copy(template, scratch, template.Length);
            Array.Sort(scratch);
            Check(scratch);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Check(int[] sorted)
        {
            if (sorted[0] > sorted[^1])
                throw new InvalidOperationException("not sorted");
        }
    }
}
