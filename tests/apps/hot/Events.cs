// The workloads of profile's event modes (hot --events MODE), each with a known answer:
//   "alloc"     Allocs.Three allocates 3 byte[1200] for each char[600] Allocs.One allocates
//               (the same 1,224 bytes each): 3/4 of the bytes in Three, about 200 MB/s. The
//               round of four (4,896 bytes) divides neither the runtime's 8 KB allocation
//               quantum nor the ~100 KB of an allocation tick, so the tick's object is not
//               always the same one of the round
//   "lock"      four threads take one lock in Locks.Contend and hold it for 1 ms each time
//   "exception" Throws.Raise throws InvalidOperationException("hot test throw") 200 times a
//               second, paced by the clock
//   "wait"      Waits.Here waits 20 ms at a time on an AutoResetEvent nobody sets
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace ClrAttach.Hot;

public static class Events
{
    public static bool Start(string mode, Action<string, ThreadStart> start)
    {
        switch (mode)
        {
            case "alloc":
                start("alloc", Allocs.Run);
                return true;
            case "lock":
                for (int i = 0; i < 4; i++)
                    start("lock" + i, Locks.Run);
                return true;
            case "exception":
                start("thrower", Throws.Run);
                return true;
            case "wait":
                start("waiter", Waits.Run);
                return true;
        }
        return false;
    }
}

public static class Allocs
{
    public static object? Keep;

    public static void Run()
    {
        while (true)
        {
            for (int i = 0; i < 50; i++)
            {
                Three();
                One();
            }
            Thread.Sleep(1);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Three()
    {
        Keep = new byte[1200];
        Keep = new byte[1200];
        Keep = new byte[1200];
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void One() => Keep = new char[600];
}

public static class Locks
{
    private static readonly object Gate = new();

    public static void Run()
    {
        while (true)
            Contend();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Contend()
    {
        lock (Gate)
            Work.Burn(1);
    }
}

public static class Throws
{
    public const int PerSecond = 200;

    public static void Run()
    {
        var clock = Stopwatch.StartNew();
        long thrown = 0;
        while (true)
        {
            long due = clock.ElapsedMilliseconds * PerSecond / 1000;
            for (; thrown < due; thrown++)
            {
                try
                {
                    Raise();
                }
                catch (InvalidOperationException)
                {
                }
            }
            Thread.Sleep(2);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Raise() => throw new InvalidOperationException("hot test throw");
}

public static class Waits
{
    private static readonly AutoResetEvent Never = new(false);

    public static void Run()
    {
        while (true)
            Here();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Here() => Never.WaitOne(20);
}
