// The target of clrattach's profiler tests: threads whose time is known.
//
// It prints "ready pid=<pid>" once every thread runs, then does its work until stdin closes or
// says "exit", or --seconds elapse (default 600):
//   "hot"      thread: spends 70% of its CPU in Shares.Seventy and 30% in Shares.Thirty
//              (alternating 140 ms and 60 ms slices of busy work, measured by the clock)
//   "blocked"  thread: waits forever in Blocking.Wait (Monitor.Wait, no CPU)
//   "deep"     thread: recurses 1,000 deep in Deep.Recurse, then burns a little CPU at the bottom
//   "generic"  thread: runs Outer.Inner.Gen<int>.Spin<long> and an async method's state machine
// Options: --only-hot runs only the "hot" thread; --straight runs only "straight" (Straight.Body,
// a long straight-line method, called in a loop) and "sleeper" (wakes once a second); --memset
// runs only "memset" and --gc only "gc" (Native.cs: time in libc, in the runtime's collector);
// --modes runs only the threads of Modes.cs; --events MODE only the workload of Events.cs for
// profile's event mode MODE (alloc, lock, exception, wait).
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ClrAttach.Hot;

public static class Program
{
    public static int Main(string[] args)
    {
        int seconds = 600;
        bool onlyHot = false, straight = false, memset = false, gc = false, modes = false,
            quarter = false;
        string? events = null;
        for (int i = 0; i < args.Length; i++)
        {
            if (args[i] == "--seconds" && i + 1 < args.Length)
                seconds = int.Parse(args[++i]);
            else if (args[i] == "--only-hot")
                onlyHot = true;
            else if (args[i] == "--straight")
                straight = true;
            else if (args[i] == "--memset")
                memset = true;
            else if (args[i] == "--gc")
                gc = true;
            else if (args[i] == "--modes")
                modes = true;
            else if (args[i] == "--quarter")
                quarter = true;
            else if (args[i] == "--events" && i + 1 < args.Length)
                events = args[++i];
        }
        if (events != null)
        {
            if (!Events.Start(events, Start))
            {
                Console.Error.WriteLine($"hot: unknown --events mode '{events}'");
                return 2;
            }
        }
        else if (modes)
            Modes.Start(Start);
        else if (memset || gc)
        {
            if (memset)
                Start("memset", NativeWork.MemsetLoop);
            if (gc)
                Start("gc", NativeWork.CollectLoop);
        }
        else if (straight)
        {
            Start("straight", Straight.Run);
            Start("sleeper", Sleeper.Run);
        }
        else if (quarter)
            Start("hot", Shares.RunQuarter);
        else
            Start("hot", Shares.Run);
        if (!onlyHot && !straight && !memset && !gc && !modes && !quarter && events == null)
        {
            Start("blocked", Blocking.Wait);
            Start("deep", () => Deep.Recurse(1000));
            Start("generic", () => Outer.Inner.Gen<int>.Spin<long>(0));
            Start("async", () => AsyncWork.RunAsync().GetAwaiter().GetResult());
        }
        Console.WriteLine($"ready pid={Environment.ProcessId}");
        Console.Out.Flush();
        var reader = new Thread(() =>
        {
            string? line;
            while ((line = Console.ReadLine()) != null && !line.Trim().StartsWith("exit")) { }
            Environment.Exit(0);
        }) { IsBackground = true, Name = "stdin" };
        reader.Start();
        Thread.Sleep(TimeSpan.FromSeconds(seconds));
        return 0;
    }

    private static void Start(string name, ThreadStart body)
    {
        new Thread(body) { IsBackground = true, Name = name }.Start();
    }
}

public static class Work
{
    public static volatile int Sink;

    // Busy work for ms milliseconds of wall time on this thread.
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Burn(double ms)
    {
        long until = Stopwatch.GetTimestamp() + (long)(ms * Stopwatch.Frequency / 1000);
        int x = Sink;
        while (Stopwatch.GetTimestamp() < until)
            for (int i = 0; i < 200; i++)
                x = x * 1103515245 + 12345;
        Sink = x;
    }
}

public static class Shares
{
    public static void Run()
    {
        while (true)
        {
            Seventy();
            Thirty();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Seventy() => Work.Burn(140);

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Thirty() => Work.Burn(60);

    // hot --quarter: 3:1 in calls that reach safe points (unlike Modes.Three and One's
    // call-free loops, which a runtime under wine cannot suspend: docs/windows.md).
    public static void RunQuarter()
    {
        while (true)
        {
            ThreeQuarters();
            OneQuarter();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void ThreeQuarters() => Work.Burn(150);

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void OneQuarter() => Work.Burn(50);
}

public static class Blocking
{
    private static readonly object Gate = new();

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Wait()
    {
        lock (Gate)
            Monitor.Wait(Gate);
    }
}

public static class Deep
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int Recurse(int n)
    {
        if (n > 1)
            return Recurse(n - 1) + 1;
        while (true)
        {
            Work.Burn(1);
            Thread.Sleep(20);
        }
    }
}

public static class Outer
{
    public static class Inner
    {
        public static class Gen<T>
        {
            [MethodImpl(MethodImplOptions.NoInlining)]
            public static void Spin<U>(U seed)
            {
                while (true)
                {
                    Work.Burn(1);
                    Thread.Sleep(20);
                }
            }
        }
    }
}

public static class AsyncWork
{
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static async Task RunAsync()
    {
        while (true)
        {
            await Task.Yield();
            Work.Burn(15); // long enough that a 3 s wall profile at 99 Hz surely catches it
            await Task.Delay(20);
        }
    }
}
