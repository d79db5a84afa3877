// Objects of the app's own types held on its heap, for the heap snapshot tests: `heap N` adds
// N HeapItem (two longs: 32 bytes each in a 64-bit process) and N/4 HeapPair (three longs: 40
// bytes), all kept alive by two lists, so a snapshot must count exactly these.
namespace ClrAttach.Sample;

public sealed class HeapItem
{
    public long A;
    public long B;
}

public sealed class HeapPair
{
    public long A;
    public long B;
    public long C;
}

public static class HeapHeld
{
    private static readonly List<HeapItem> Items = new();
    private static readonly List<HeapPair> Pairs = new();

    // Adds n items and n/4 pairs; returns the totals held.
    public static string Add(int n)
    {
        for (int i = 0; i < n; i++)
        {
            Items.Add(new HeapItem { A = i, B = -i });
            if (i % 4 == 3)
                Pairs.Add(new HeapPair { A = i, B = i, C = i });
        }
        return $"items={Items.Count} pairs={Pairs.Count}";
    }
}
