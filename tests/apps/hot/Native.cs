// Threads whose CPU time is in native code, for the signal sampler's native-frame tests:
//   "memset" thread: NativeWork.Fill calls libc's memset through P/Invoke on an 8 MB buffer, in
//                    a loop (the time is in libc, under the managed caller)
//   "gc"     thread: NativeWork.Collect allocates and forces a full collection, in a loop,
//                    blocking on even rounds (workstation GC: the collector runs on this
//                    thread) and background on odd ones (on the runtime's own ".NET BGC"
//                    thread, which never runs managed code)
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ClrAttach.Hot;

public static class NativeWork
{
    private const int BufferBytes = 8 << 20;

    [DllImport("libc", EntryPoint = "memset")]
    private static extern IntPtr Memset(IntPtr dest, int value, UIntPtr count);

    public static void MemsetLoop()
    {
        IntPtr buffer = Marshal.AllocHGlobal(BufferBytes);
        for (int i = 0; ; i++)
            Fill(buffer, i);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Fill(IntPtr buffer, int value) => Memset(buffer, value, (UIntPtr)BufferBytes);

    public static void CollectLoop()
    {
        var keep = new object[1024];
        for (int i = 0; ; i++)
            Collect(keep, i);
    }

    // Fills keep with small arrays (live across the collection: the mark phase has work) and
    // forces a full collection, blocking or background by turns.
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static void Collect(object[] keep, int round)
    {
        for (int j = 0; j < keep.Length; j++)
            keep[j] = new int[16 + (round + j) % 64];
        GC.Collect(2, GCCollectionMode.Default, blocking: round % 2 == 0);
    }
}
