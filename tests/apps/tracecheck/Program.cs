// tracecheck FILE: what Microsoft's TraceEvent (EventPipeEventSource) reads in a .nettrace file,
// as sorted text lines the end-to-end tests compare with clrattach's decoder on the same file:
//   count PROVIDER EVENTID N          events per provider and event id
//   payload PROVIDER EVENTID F=V ...  every event of a self-describing provider (not the
//                                      runtime's own, whose metadata carries no fields): its
//                                      fields flattened (Struct.Member, Array[i]); doubles and
//                                      floats as the hex of their IEEE bits, so nothing rounds
//   end EVENTS                        the total
// tracecheck --runtime FILE: the runtime's own events field by field (RuntimeFields.cs).
// tracecheck --time FILE: "BYTES EVENTS SECONDS" of one pass over the file (every event
// dispatched with its template), for bench/run's decoder row.
using System.Collections;
using System.Globalization;
using System.Text;
using Microsoft.Diagnostics.Tracing;

static class Program
{
    static readonly HashSet<string> RuntimeProviders = new()
    {
        "Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimeRundown",
        "Microsoft-Windows-DotNETRuntimePrivate", "Microsoft-DotNETCore-SampleProfiler",
        "Microsoft-DotNETCore-EventPipe",
    };

    static int Main(string[] args)
    {
        if (args.Length == 2 && args[0] == "--time")
            return Time(args[1]);
        if (args.Length == 2 && args[0] == "--runtime")
            return RuntimeFields.Run(args[1]);
        if (args.Length != 1)
        {
            Console.Error.WriteLine("usage: tracecheck [--time|--runtime] FILE.nettrace");
            return 2;
        }
        var counts = new Dictionary<string, long>();
        var lines = new List<string>();
        long total = 0;
        using (var source = new EventPipeEventSource(args[0]))
        {
            source.Dynamic.All += _ => { }; // registers the templates metadata describes
            source.AllEvents += data =>
            {
                total++;
                string key = $"{data.ProviderName} {(int)data.ID}";
                counts[key] = counts.GetValueOrDefault(key) + 1;
                if (!RuntimeProviders.Contains(data.ProviderName))
                    lines.Add($"payload {key}{Flatten(data)}");
            };
            source.Process();
        }
        var output = counts.Select(kv => $"count {kv.Key} {kv.Value}").Concat(lines).ToList();
        output.Sort(string.CompareOrdinal);
        var stdout = new StringBuilder();
        foreach (var line in output)
            stdout.Append(line).Append('\n');
        stdout.Append($"end {total}\n");
        Console.Out.Write(stdout.ToString());
        return 0;
    }

    static int Time(string path)
    {
        long events = 0, fields = 0;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        using (var source = new EventPipeEventSource(path))
        {
            source.Dynamic.All += _ => { };
            source.AllEvents += data =>
            {
                events++;
                for (int i = 0; i < data.PayloadNames.Length; i++)
                    fields += data.PayloadValue(i) == null ? 0 : 1;
            };
            source.Process();
        }
        double seconds = clock.Elapsed.TotalSeconds;
        Console.WriteLine(FormattableString.Invariant(
            $"{new FileInfo(path).Length} {events} {seconds:F6} {fields}"));
        return 0;
    }

    static string Flatten(TraceEvent data)
    {
        var sb = new StringBuilder();
        for (int i = 0; i < data.PayloadNames.Length; i++)
            Value(sb, data.PayloadNames[i], data.PayloadValue(i));
        return sb.ToString();
    }

    static void Value(StringBuilder sb, string name, object? v)
    {
        switch (v)
        {
            case IDictionary<string, object> d:
                foreach (var kv in d)
                    Value(sb, $"{name}.{kv.Key}", kv.Value);
                break;
            case string s:
                sb.Append($" {name}={s}");
                break;
            case IEnumerable e:
                int i = 0;
                foreach (var x in e)
                    Value(sb, $"{name}[{i++}]", x);
                break;
            case double x:
                sb.Append($" {name}=0x{BitConverter.DoubleToInt64Bits(x):x16}");
                break;
            case float x:
                sb.Append($" {name}=0x{BitConverter.DoubleToInt64Bits(x):x16}");
                break;
            case bool b:
                sb.Append($" {name}={(b ? "true" : "false")}");
                break;
            case Guid g:
                sb.Append($" {name}={g:D}");
                break;
            case IFormattable f:
                sb.Append($" {name}={f.ToString(null, CultureInfo.InvariantCulture)}");
                break;
            default:
                sb.Append($" {name}={v}");
                break;
        }
    }
}
