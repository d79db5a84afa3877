// The signal sampler's modes and hazards (hot --modes): threads whose CPU split, state and
// behaviour the tests know.
//   "split"   spends 3/4 of its CPU in Modes.Three and 1/4 in Modes.One: the same loop, run
//             3n and n times (a count, not a clock, so a descheduled thread keeps the ratio)
//   "napper"  sleeps in 50 ms naps (blocked, almost no CPU)
//   "turns"   sleeps 75 ms in Modes.NapLong, then 25 ms in Modes.NapShort, and again: a
//             blocked thread that moves between two waits (3:1 of its wall time)
//   "deep"    recurses 1,000 deep, then alternates short bursts of work and naps at the bottom
//   "thrower" throws and catches exceptions in a loop
//   "churn"   starts a short-lived thread, joins it, and again, without end
using System.Runtime.CompilerServices;

namespace ClrAttach.Hot;

public static class Modes
{
    public static volatile int Sink;

    public static void Start(Action<string, ThreadStart> start)
    {
        start("split", Split);
        start("napper", Nap);
        start("turns", Turns);
        start("deep", () => DeepDown(1000));
        start("thrower", Throw);
        start("churn", Churn);
    }

    // The work per round varies at random, always 3:1: a fixed 0.8 ms round beats with the
    // kernel tick that fires thread CPU timers (a CI run read 80.5% for Three), a varied one
    // cannot stay in phase with it.
    private static void Split()
    {
        var rounds = new Random(25);
        while (true)
        {
            int n = rounds.Next(100_000, 300_001);
            Three(n);
            One(n);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Three(int n)
    {
        int x = Sink;
        for (int i = 0; i < 3 * n; i++)
            x = x * 1103515245 + 12345;
        Sink = x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void One(int n)
    {
        int x = Sink;
        for (int i = 0; i < n; i++)
            x = x * 1103515245 + 12345;
        Sink = x;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Nap()
    {
        while (true)
            Thread.Sleep(50);
    }

    private static void Turns()
    {
        while (true)
        {
            NapLong();
            NapShort();
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void NapLong() => Thread.Sleep(75);

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void NapShort() => Thread.Sleep(25);

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int DeepDown(int n)
    {
        if (n > 1)
            return DeepDown(n - 1) + 1;
        while (true)
        {
            Work.Burn(4);
            Thread.Sleep(8);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Throw()
    {
        for (long i = 0; ; i++)
        {
            try
            {
                Thrown(i);
            }
            catch (InvalidOperationException)
            {
                Sink++;
            }
            if (i % 50 == 0)
                Thread.Sleep(2);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Thrown(long i) => throw new InvalidOperationException($"thrown {i}");

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Churn()
    {
        while (true)
        {
            var t = new Thread(() => Work.Burn(0.3)) { IsBackground = true, Name = "churned" };
            t.Start();
            t.Join();
            Thread.Sleep(2);
        }
    }
}
