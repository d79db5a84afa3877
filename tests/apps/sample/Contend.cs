// Contend.cs - lock contention the runtime reports (ContentionStart/Stop): four threads take
// one lock in turn, each holding it ~2 ms, rounds times, so the others wait on it.
using System.Diagnostics;

namespace ClrAttach.Sample;

public static class Contend
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
